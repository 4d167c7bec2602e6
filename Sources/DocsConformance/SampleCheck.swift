/// How a page's own code samples behave, judged against the page itself: a test of an earlier
/// result after an answer (`sample-stale-result`), a name read or called that nothing defines
/// (`sample-undefined-name`), Dart arms that fall into the next arm (`sample-arm-falls-through`).
/// The "model" side of these findings is the page line that shows the disagreement.
enum SampleCheck {
  static func findings(_ c: CheckContext) -> [Finding] {
    var result: [Finding] = []
    let page = c.page.fileName
    for fact in c.facts where fact.sample {
      switch fact.content {
      case .staleResult(let variable, let boundAt, let answer, let expected):
        result.append(
          Finding(
            kind: .sampleStaleResult, page: page, line: fact.line, platform: fact.platform, pageText: fact.text,
            modelFile: page, modelLine: boundAt, modelText: "\(variable) is bound here, before the answer",
            message: "the sample answers \(answer) and then tests \(variable) for \(expected); \(variable) is the "
              + "result bound at line \(boundAt), before the answer, so the test never sees the answer's next step"))
      case .undefinedName(let name, let call, let function):
        let what = call ? "calls \(name)(…)" : "reads \(name)"
        result.append(
          Finding(
            kind: .sampleUndefinedName, page: page, line: fact.line, platform: fact.platform, pageText: fact.text,
            modelFile: page, modelLine: function ?? fact.line,
            modelText: function == nil ? "the sample's top level" : "the enclosing function",
            message: "the sample \(what), which "
              + (call ? "no sample of this page defines" : "neither the function nor the sample declares")))
      case .armFallsThrough(let steps, let into, let intoLine):
        let list =
          steps.count > 3
          ? "\(steps.count) arms (\(steps[0]) … \(steps[steps.count - 1]))" : steps.joined(separator: ", ")
        result.append(
          Finding(
            kind: .sampleArmFallsThrough, page: page, line: fact.line, platform: fact.platform, pageText: fact.text,
            modelFile: page, modelLine: intoLine, modelText: "case \(into): the body every empty arm above runs",
            message: "\(list) have no statement; in Dart an empty case falls through, so "
              + (steps.count == 1 ? "it runs" : "they run") + " the body of \(into)"))
      default:
        continue
      }
    }
    return result
  }
}

/// A sample that catches an exception for a condition that a table or prose of the same platform
/// (on any page of the run) lists as a next step, or that the model has as a step there: the two
/// kinds of text tell the reader different things. The message says which side the model is on.
enum CatchCheck {
  struct Listed {
    let page: String
    let line: Int
    let name: String
  }

  static func findings(_ contexts: [CheckContext]) -> [Finding] {
    var listed: [String: [Listed]] = [:]  // platform|name
    for c in contexts {
      for fact in c.facts where !fact.sample {
        guard case .stepName(let name, let context) = fact.content, context != .code, let platform = fact.platform
        else { continue }
        listed["\(platform)|\(name)", default: []].append(Listed(page: c.page.fileName, line: fact.line, name: name))
      }
    }
    var result: [Finding] = []
    for c in contexts {
      for fact in c.facts where fact.sample {
        guard case .caughtException(let exception) = fact.content, let platform = fact.platform,
          let step = c.view.step(thrownAs: exception)
        else { continue }
        let s = c.model.steps[step]
        let stepNames = Set(
          s.names.compactMap { n -> String? in
            if case .name(let x) = n.form { return x }
            return nil
          } + [s.id, c.view.baseId(step)])
        let thrownHere = c.view.thrown(on: platform, step: step)
        let modelName: String? = s.names.first { $0.platform == platform }.flatMap {
          if case .name(let x) = $0.form { return x }
          return nil
        }
        let page = stepNames.sorted().lazy.compactMap { listed["\(platform)|\($0)"]?.first }.first
        guard modelName != nil || page != nil else { continue }
        let modelSide =
          thrownHere.map { "the model agrees with the sample: \(platform) throws \($0)" }
          ?? modelName.map { "the model agrees with the listing: \(platform) reports \($0) as a step" }
          ?? "the model does not say"
        let listing =
          page.map { "\($0.page):\($0.line) lists \($0.name) as a \(platform) next step" }
          ?? "the model has \(modelName ?? s.id) as a \(platform) step"
        result.append(
          c.finding(
            .sampleCatchesStep, fact, modelLine: s.line,
            modelText: "\(s.id): " + (thrownHere.map { "thrown as \($0) on \(platform)" } ?? "a step on \(platform)"),
            message: "the sample catches \(exception), while \(listing); \(modelSide)"))
      }
    }
    return result
  }
}
