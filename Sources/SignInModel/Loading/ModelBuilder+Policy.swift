import Foundation
import Yams

/// The `policy:` pass (format 3): the security policy, over configuration and flow variables
/// and the `verified.*` flags only. A definition is refused by name: the policy is the rules'
/// judge and must not move when a definition they read is edited.
extension ModelBuilder {
  static let policyKeys = ["mfa"]
  static let mfaPolicyKeys = ["required", "source", "exemptions"]
  static let exemptionKeys = ["when", "source"]

  /// The scope of policy conditions: the model's variables and the `verified.*` aliases, no definitions.
  var policyScope: ExprScope {
    var scope = ExprScope(variables: variables, variableIndex: variableIndex)
    for (alias, name) in PathFacts.verifiedAliases {
      if let index = variableIndex[name] { scope.variableIndex[alias] = index }
    }
    return scope
  }

  func readPolicy(_ top: [Field]) -> SecurityPolicy? {
    guard let node = value(top, "policy") else { return nil }
    if header.formatVersion < 3 {
      report(node, "'policy:' needs format 3 (write 'format: 3' as the first key)")
      return nil
    }
    let fields = pairs(node, "policy")
    checkKeys(fields, allowed: Self.policyKeys, "policy")
    if definitions["mfaRequired"] != nil {
      report(
        node,
        "the model states both policy: and the definition mfaRequired; noFactorSkipped reads the policy, "
          + "so the definition would be ignored: remove it (or rename it if guards use it)")
    }
    guard let mfaNode = value(fields, "mfa") else {
      if !fields.isEmpty || isEmptyMapping(node) { report(node, "policy: needs mfa: {required: EXPR, source: TEXT}") }
      return nil
    }
    let mfa = pairs(mfaNode, "policy mfa")
    checkKeys(mfa, allowed: Self.mfaPolicyKeys, "policy mfa")
    guard let requiredNode = value(mfa, "required") else {
      report(mfaNode, "policy mfa: needs required: (when done needs an MFA factor)")
      return nil
    }
    guard let source = policySource(mfa, mfaNode, "policy mfa") else { return nil }
    guard let required = policyClause("required", requiredNode, source: source) else { return nil }
    var exemptions: [PolicyClause] = []
    for item in pairs(value(mfa, "exemptions"), "policy mfa exemptions") {
      let what = "exemption '\(item.key)'"
      if item.key.trimmingCharacters(in: .whitespaces).isEmpty {
        report(item.keyNode, "an exemption needs a name (the key before when: and source:)")
        continue
      }
      let parts = pairs(item.value, what)
      checkKeys(parts, allowed: Self.exemptionKeys, what)
      guard let whenNode = value(parts, "when") else {
        report(item.value, "\(what) needs when: (the condition) and source: (where it comes from)")
        continue
      }
      guard let source = policySource(parts, item.value, what),
        let clause = policyClause(item.key, whenNode, source: source, line: line(item.keyNode))
      else { continue }
      exemptions.append(clause)
    }
    return SecurityPolicy(mfaRequired: required, exemptions: exemptions)
  }

  private func isEmptyMapping(_ node: Node) -> Bool {
    if case .mapping(let m) = node { return m.isEmpty }
    return false
  }

  private func policySource(_ fields: [Field], _ node: Node, _ what: String) -> String? {
    guard let text = scalar(value(fields, "source"), "source"), !text.isEmpty else {
      report(node, "\(what) needs source: (a seed page, the reference, a client's code or test)")
      return nil
    }
    return text
  }

  /// One condition of the policy: refused when it names a definition, else type-checked.
  private func policyClause(_ name: String, _ node: Node, source: String, line clauseLine: Int? = nil) -> PolicyClause?
  {
    guard let text = scalar(node, name) else { return nil }
    let words = Definition.names(in: text)
    if words.contains(where: poisoned.contains) { return nil }  // its definition's error is reported once
    if let first = words.first(where: { definitions[$0] != nil }) {
      report(
        node,
        "the policy reads the definition '\(first)'; state it over configuration and flow variables "
          + "(a policy that reads the rules' definitions moves with them when one is edited)")
      return nil
    }
    guard let expr = expression(node, text, in: policyScope, expecting: .bool) else { return nil }
    return PolicyClause(name: name, expr: expr, text: text, source: source, line: clauseLine ?? line(node))
  }
}
