/// A section about one step that tells the reader to expect an exception the model gives to
/// a different step ("If you receive a UserNotConfirmedException … a new password").
enum ExceptionCheck {
  static func findings(_ c: CheckContext) -> [Finding] {
    var result: [Finding] = []
    for fact in c.facts {
      guard case .exception(let name, let section) = fact.content,
        let heading = c.view.step(forHeading: section), let thrown = c.view.step(thrownAs: name),
        c.view.baseId(heading) != c.view.baseId(thrown)
      else { continue }
      let step = c.model.steps[thrown]
      result.append(
        c.finding(
          .stepOrException, fact, modelLine: step.line,
          modelText: "\(name) is \(step.id): \(step.summary)",
          message: "the page ties \(name) to \(c.model.steps[heading].id); in the model it leads to \(step.id)"))
    }
    return result
  }
}
