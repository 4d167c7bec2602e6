/// Step names that are not the model's name for that platform: thrown as an exception there
/// (`step-or-exception`), or unknown with the closest name suggested (`unknown-name`).
enum NameCheck {
  static func findings(_ c: CheckContext) -> [Finding] {
    var seen = Set<String>()
    var result: [Finding] = []
    for fact in c.facts {
      guard case .stepName(let name, _) = fact.content, c.steps(name, fact).isEmpty else { continue }
      guard seen.insert("\(fact.platform ?? "-")|\(name)").inserted else { continue }
      let elsewhere = c.view.steps(named: name, platform: nil)
      guard let platform = fact.platform else {
        result.append(
          c.finding(
            .unknownName, fact, modelLine: 1, modelText: "no platform calls a step \(name)",
            message: "\(name) is no platform's step name"))
        continue
      }
      if let step = elsewhere.first, let exception = c.view.thrown(on: platform, step: step) {
        result.append(
          c.finding(
            .stepOrException, fact, modelLine: c.model.steps[step].line,
            modelText: "\(c.model.steps[step].id): thrown as \(exception) on \(platform), not a step",
            message: "the page treats \(name) as a \(platform) step; \(platform) throws \(exception)"))
        continue
      }
      // Another platform's name for a step: suggest this platform's name for that step.
      let sameStep = elsewhere.first.flatMap { s -> String? in
        if case .name(let n)? = c.model.steps[s].names.first(where: { $0.platform == platform })?.form { return n }
        return nil
      }
      let suggestion = sameStep ?? c.view.closest(to: name, on: platform)
      let suggestedStep = suggestion.flatMap { c.view.steps(named: $0, platform: platform).first }
      let other = elsewhere.first.map { s in
        c.model.steps[s].names.first { $0.form == .name(name) }?.platform ?? "another platform"
      }
      let message =
        "\(name) is not a \(platform) step name" + (other.map { " (it is the \($0) name)" } ?? "")
        + (suggestion.map { "; did you mean \($0)?" } ?? "")
      result.append(
        c.finding(
          .unknownName, fact, modelLine: suggestedStep.map { c.model.steps[$0].line } ?? 1,
          modelText: suggestedStep.map { c.nameText($0, platform) } ?? "no such step", message: message))
    }
    return result
  }
}
