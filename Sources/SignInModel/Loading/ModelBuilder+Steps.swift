import Yams

/// The step passes: the `signIn` entry, every step with its platform names, offers,
/// responses and notes.
extension ModelBuilder {
  /// The entry: the responses to the `signIn` call.
  func buildEntry(_ top: [Field], root: Node) {
    let entryNode = value(top, "signIn")
    if entryNode == nil { report(root, "missing 'signIn:' (the responses to the signIn call)") }
    let entryItems = pairs(entryNode, "signIn")
    checkKeys(entryItems, allowed: ["summary", "responses", "notes"], "signIn")
    let entryResponses = stepResponses(value(entryItems, "responses"), scope: scope, defaults: [], without: [])
    if entryNode != nil && entryResponses.isEmpty { report(entryNode, "signIn has no responses") }
    steps.append(
      Step(
        id: Self.entryStepID,
        summary: value(entryItems, "summary").flatMap { scalar($0, "summary") } ?? "the signIn call",
        kind: .entry, isSignedIn: false, names: [], offers: nil, responses: entryResponses,
        notes: notes(value(entryItems, "notes")), line: line(entryNode)))
  }

  /// Every step after the entry; the model needs a step that ends signed in.
  func buildSteps(_ stepItems: [Field], top: [Field]) {
    for item in stepItems where item.key != Self.entryStepID {
      steps.append(step(item, defaults: defaultResponses))
    }
    if !steps.contains(where: { $0.kind == .signedIn }) && value(top, "steps") != nil {
      report(value(top, "steps"), "no step has 'ends: signedIn'; the model needs a done step")
    }
  }

  /// A note's `line: N` or `lines: A-B` (also `A..B` or `[A, B]`): lines of the page it names.
  func pageLines(_ fields: [Field], note: Node) -> ClosedRange<Int>? {
    if let lineNode = value(fields, "line"), let text = scalar(lineNode, "line") {
      guard let n = Int(text), n >= 1 else {
        report(lineNode, "a note's 'line:' must be a line number of its page, not '\(text)'")
        return nil
      }
      return n...n
    }
    guard let linesNode = value(fields, "lines") else { return nil }
    var bounds: [Int?] = []
    if case .sequence = linesNode {
      bounds = sequence(linesNode, "lines").map { scalar($0, "a line").flatMap { Int($0) } }
    } else if let text = scalar(linesNode, "lines") {
      let separator = text.contains("..") ? ".." : "-"
      bounds = text.components(separatedBy: separator).map { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
    guard bounds.count == 2, let lo = bounds[0], let hi = bounds[1], lo >= 1, lo <= hi else {
      report(linesNode, "a note's 'lines:' must be FIRST-LAST (e.g. 120-134) with FIRST <= LAST")
      return nil
    }
    return lo...hi
  }

  func responseNumber(_ name: String, _ node: Node) -> Int? {
    if let r = responseIndex[name] { return r }
    report(node, "unknown response '\(name)'\(suggestion(name, Array(responseIndex.keys)))")
    return nil
  }

  func notes(_ node: Node?) -> [SourceNote] {
    sequence(node, "notes").compactMap { n in
      let fields = pairs(n, "a note")
      checkKeys(fields, allowed: ["source", "platform", "text", "page", "line", "lines", "kind"], "a note")
      guard let text = value(fields, "text").flatMap({ scalar($0, "text") }) else {
        report(n, "a note needs 'text:'")
        return nil
      }
      let platform = value(fields, "platform").flatMap { scalar($0, "platform") }
      if let platform, !platforms.contains(platform) {
        report(n, "unknown platform '\(platform)'\(suggestion(platform, platforms))")
      }
      return SourceNote(
        source: value(fields, "source").flatMap { scalar($0, "source") } ?? "", platform: platform, text: text,
        page: value(fields, "page").flatMap { scalar($0, "page") }, pageLines: pageLines(fields, note: n),
        kind: value(fields, "kind").flatMap { scalar($0, "kind") }, line: line(n))
    }
  }

  func stepResponses(_ node: Node?, scope: ExprScope, defaults: [(Int, [Rule])], without: [String]) -> [StepResponse] {
    var result: [StepResponse] = []
    for item in pairs(node, "responses") {
      guard let r = responseNumber(item.key, item.keyNode) else { continue }
      let stepRules = rules(item.value, scope: scope, routeContext: nil)
      result.append(StepResponse(response: r, rules: stepRules, inherited: false))
    }
    for (r, defaultRules) in defaults where !result.contains(where: { $0.response == r }) {
      if let name = responseIndex.first(where: { $0.value == r })?.key, without.contains(name) { continue }
      result.append(StepResponse(response: r, rules: defaultRules, inherited: true))
    }
    return result
  }

  func step(_ item: Field, defaults: [(Int, [Rule])]) -> Step {
    let fields = pairs(item.value, "step '\(item.key)'")
    checkKeys(fields, allowed: Self.stepKeys, "step '\(item.key)'")
    var kind = StepKind.challenge
    if let endsNode = value(fields, "ends"), let ends = scalar(endsNode, "ends") {
      switch ends {
      case "signedIn": kind = .signedIn
      case "restart": kind = .restart
      default:
        report(
          endsNode, "'ends:' must be signedIn or restart, not '\(ends)'\(suggestion(ends, ["signedIn", "restart"]))")
      }
    }
    let isSignedIn = bool(value(fields, "isSignedIn"), "isSignedIn", default: kind == .signedIn)

    let names = platformNames(value(fields, "names"), step: item.key)
    let (offers, stepScope) = offers(value(fields, "offers"), step: item.key)

    var responses: [StepResponse] = []
    if kind == .challenge {
      let inherit = bool(value(fields, "inherit"), "inherit", default: true)
      let without = sequence(value(fields, "without"), "without").compactMap { n -> String? in
        guard let name = scalar(n, "a response") else { return nil }
        _ = responseNumber(name, n)
        return name
      }
      responses = stepResponses(
        value(fields, "responses"), scope: stepScope, defaults: inherit ? defaults : [], without: without)
      if responses.isEmpty {
        report(item.keyNode, "step '\(item.key)' accepts no response; a step that ends the flow needs 'ends:'")
      }
    } else if let r = value(fields, "responses") {
      report(r, "step '\(item.key)' ends the flow and cannot have responses")
    }
    return Step(
      id: item.key, summary: value(fields, "summary").flatMap { scalar($0, "summary") } ?? "", kind: kind,
      isSignedIn: isSignedIn, names: names, offers: offers, responses: responses,
      notes: notes(value(fields, "notes")), line: line(item.keyNode),
      facts: stepFacts(fields, step: item.key, offers: offers))
  }

  /// What each platform calls a step: a name, `{error: EXCEPTION}` or `{absent: REASON}`.
  func platformNames(_ node: Node?, step id: String) -> [PlatformName] {
    var names: [PlatformName] = []
    for entry in pairs(node, "names of '\(id)'") {
      if !platforms.contains(entry.key) {
        report(
          entry.keyNode,
          "unknown platform '\(entry.key)'\(suggestion(entry.key, platforms)); declare it under 'platforms:'")
        continue
      }
      if case .mapping = entry.value {
        let form = pairs(entry.value, "the \(entry.key) name of '\(id)'")
        checkKeys(form, allowed: ["error", "absent"], "the \(entry.key) name of '\(id)'")
        if let e = value(form, "error").flatMap({ scalar($0, "error") }) {
          names.append(PlatformName(platform: entry.key, form: .error(e)))
        } else if let a = value(form, "absent").flatMap({ scalar($0, "absent") }) {
          names.append(PlatformName(platform: entry.key, form: .absent(a)))
        } else {
          report(entry.value, "a platform name is a name, {error: EXCEPTION} or {absent: REASON}")
        }
      } else if let n = scalar(entry.value, "the \(entry.key) name") {
        names.append(PlatformName(platform: entry.key, form: .name(n)))
      }
    }

    return names
  }

  /// What a selection step offers (`offers: {from: SET, when: {OPTION: expr}}`), and the scope
  /// its rules are read in, where `offered(OPTION)` stands for the option's condition.
  func offers(_ node: Node?, step id: String) -> (Offers?, ExprScope) {
    var offers: Offers?
    var stepScope = scope
    if let offersNode = node {
      let offerFields = pairs(offersNode, "offers of '\(id)'")
      checkKeys(offerFields, allowed: ["from", "when"], "offers")
      if let fromNode = value(offerFields, "from"), let setName = scalar(fromNode, "from") {
        if let setIndex = optionSets.firstIndex(where: { $0.name == setName }) {
          var conditions: [(Int, Expr)] = []
          var offered: [String: TypedExpr] = [:]
          for option in pairs(value(offerFields, "when"), "offers.when") {
            guard let o = optionSets[setIndex].options.firstIndex(where: { $0.name == option.key }) else {
              report(
                option.keyNode,
                "option set '\(setName)' has no option '\(option.key)'"
                  + suggestion(option.key, optionSets[setIndex].options.map(\.name)))
              continue
            }
            guard let text = scalar(option.value, "offer condition"),
              let typed = typedExpression(option.value, text, in: scope, expecting: .bool)
            else { continue }
            conditions.append((o, typed.expr))
            offered[option.key] = typed
          }
          for option in optionSets[setIndex].options where offered[option.name] == nil {
            offered[option.name] = .constant(false)
          }
          offers = Offers(optionSet: setIndex, conditions: conditions)
          stepScope.offered = offered
        } else {
          report(fromNode, "unknown option set '\(setName)'\(suggestion(setName, optionSets.map(\.name)))")
        }
      } else {
        report(offersNode, "offers needs 'from: OPTION_SET'")
      }
    }

    return (offers, stepScope)
  }
}
