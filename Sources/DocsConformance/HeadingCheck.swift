/// A section whose heading is about one step ("Confirm Signup") while its text says "If the
/// next step is X" for a different step.
enum HeadingCheck {
  static func findings(_ c: CheckContext) -> [Finding] {
    var done = Set<String>()
    var result: [Finding] = []
    for fact in c.facts {
      guard case .stepName(let name, .prose) = fact.content, let section = fact.section,
        fact.text.contains("next step is")
      else { continue }
      guard done.insert("\(section)|\(fact.platform ?? "-")").inserted else { continue }
      guard let heading = c.view.step(forHeading: section) else { continue }
      let named = c.steps(name, fact)
      guard !named.isEmpty, !named.contains(where: { c.view.baseId($0) == c.view.baseId(heading) }) else { continue }
      let step = c.model.steps[heading]
      result.append(
        c.finding(
          .headingMismatch, fact, modelLine: step.line, modelText: c.nameText(heading, fact.platform),
          message: "the section \"\(section)\" is about \(step.id), but its text names \(name) "
            + "(\(c.model.steps[named[0]].id))"))
    }
    return result
  }
}
