import Yams

/// The `lint:` pass: acknowledged lint warnings, plus what `signin-spec lint` needs from the
/// file itself — the definitions as written with their uses, and the lines of declarations.
extension ModelBuilder {
  struct LintSection {
    var definitions: [Definition] = []
    var acknowledgements: [LintAcknowledgement] = []
    var lines = DeclarationLines()
  }

  static let lintKeys = ["rule", "target", "reason"]

  func readLintSection(_ top: [Field]) -> LintSection {
    var section = LintSection()
    section.acknowledgements = lintAcknowledgements(value(top, "lint"))
    section.definitions = writtenDefinitions(top)
    for item in pairs(value(top, "responses"), "responses") {
      section.lines.lines["response:\(item.key)"] = line(item.keyNode)
    }
    for item in pairs(value(top, "routes"), "routes") { section.lines.lines["route:\(item.key)"] = line(item.keyNode) }
    for set in pairs(value(top, "options"), "options") {
      section.lines.lines["optionSet:\(set.key)"] = line(set.keyNode)
      guard case .mapping = set.value else { continue }
      for option in pairs(set.value, "option set '\(set.key)'") {
        section.lines.lines["option:\(set.key).\(option.key)"] = line(option.keyNode)
      }
    }
    for (i, node) in sequence(value(top, "constraints"), "constraints").enumerated() {
      section.lines.lines["constraint:\(i)"] = line(node)
    }
    if let node = value(top, "lint") { section.lines.lines["lint"] = line(node) }
    return section
  }

  private func lintAcknowledgements(_ node: Node?) -> [LintAcknowledgement] {
    var result: [LintAcknowledgement] = []
    for entry in sequence(node, "lint") {
      let fields = pairs(entry, "a lint: entry")
      checkKeys(fields, allowed: Self.lintKeys, "a lint: entry")
      guard let ruleNode = value(fields, "rule"), let rule = scalar(ruleNode, "rule") else {
        report(entry, "a lint: entry needs rule:, target: and reason:")
        continue
      }
      if !LintAcknowledgement.knownRules.contains(rule) {
        report(ruleNode, "unknown lint rule '\(rule)'\(suggestion(rule, LintAcknowledgement.knownRules))")
        continue
      }
      guard let target = scalar(value(fields, "target"), "target"), !target.isEmpty else {
        report(entry, "the lint: entry for '\(rule)' needs a target: (the warning's target, as lint prints it)")
        continue
      }
      guard let reason = scalar(value(fields, "reason"), "reason"), !reason.isEmpty else {
        report(entry, "the lint: entry for '\(rule)' needs a reason: (why the model means it)")
        continue
      }
      result.append(LintAcknowledgement(rule: rule, target: target, reason: reason, line: line(entry)))
    }
    return result
  }

  /// The definitions in file order, each with the number of expressions that name it.
  private func writtenDefinitions(_ top: [Field]) -> [Definition] {
    let items = pairs(value(top, "definitions"), "definitions").compactMap { item -> (String, String, Int)? in
      guard case .scalar(let s) = item.value else { return nil }
      return (item.key, s.string, line(item.keyNode))
    }
    var texts: [(owner: String?, text: String)] = items.map { ($0.0, $0.1) }
    for key in ["signIn", "steps", "routes", "defaults", "options", "constraints"] {
      collectExpressions(value(top, key), expressionContext: key == "options" || key == "constraints", into: &texts)
    }
    var uses: [String: Int] = [:]
    for (owner, text) in texts {
      for word in Definition.names(in: text) where word != owner { uses[word, default: 0] += 1 }
    }
    return items.map { Definition(name: $0.0, text: $0.1, line: $0.2, uses: uses[$0.0] ?? 0) }
  }

  private func collectExpressions(
    _ node: Node?, expressionContext: Bool, into texts: inout [(owner: String?, text: String)]
  ) {
    guard let node else { return }
    switch node {
    case .scalar(let s): if expressionContext { texts.append((nil, s.string)) }
    case .sequence(let items):
      for item in items { collectExpressions(item, expressionContext: expressionContext, into: &texts) }
    case .mapping(let mapping):
      for (key, value) in mapping {
        let isExpression = expressionContext || key.string == "when" || key.string == "set"
        collectExpressions(value, expressionContext: isExpression, into: &texts)
      }
    default: break
    }
  }
}
