import SignInModel

/// What every comparison reads: one page, its facts, and the model it is checked against.
struct CheckContext {
  let page: DocPage
  let facts: [DocFact]
  let view: ModelView
  var model: SignInModel { view.model }

  func finding(
    _ kind: FindingKind, _ fact: DocFact, modelLine: Int, modelText: String, message: String
  ) -> Finding {
    Finding(
      kind: kind, page: page.fileName, line: fact.line, platform: fact.platform, pageText: fact.text,
      modelFile: model.file, modelLine: modelLine, modelText: modelText, message: message)
  }

  /// The steps a fact's name denotes on its platform (any platform when the line has none).
  func steps(_ name: String, _ fact: DocFact) -> [Int] {
    view.steps(named: name, platform: fact.platform)
  }

  func nameText(_ step: Int, _ platform: String?) -> String {
    "\(model.steps[step].id) (\(platform.map { "\($0): " + model.displayName(ofStep: step, platform: $0) } ?? "any"))"
  }
}
