import Yams

/// The `properties:` pass: named properties in the temporal vocabulary of `ModelProperty`,
/// their predicates type-checked in the guard language extended with the path facts.
extension ModelBuilder {
  static let propertyKeys = ModelProperty.Kind.allCases.map(\.rawValue) + ["description"]
  static let leadsToKeys = ["from", "to"]

  /// The scope of a property's predicates: every variable and definition, the path facts,
  /// and the `verified.*` aliases of the verification flags.
  var propertyScope: ExprScope {
    var scope = self.scope
    let facts = PathFacts.variables(
      steps: steps.map(\.id), responses: responses.map(\.name))
    for (k, variable) in facts.enumerated() {
      scope.variableIndex[variable.name] = variables.count + k
    }
    scope.variables += facts
    for (alias, name) in PathFacts.verifiedAliases {
      if let index = variableIndex[name] { scope.variableIndex[alias] = index }
    }
    return scope
  }

  func readProperties(_ top: [Field], builtinNames: [String]) -> [ModelProperty] {
    let entries = pairs(value(top, "properties"), "properties")
    guard !entries.isEmpty else { return [] }
    if header.formatVersion < 2, let node = value(top, "properties") {
      report(node, "'properties:' needs format 2 (add 'format: 2' as the first key)")
      return []
    }
    let scope = propertyScope
    var result: [ModelProperty] = []
    for entry in entries {
      if builtinNames.contains(entry.key) {
        report(entry.keyNode, "property '\(entry.key)' has the name of a built-in invariant; choose another name")
        continue
      }
      let fields = pairs(entry.value, "property '\(entry.key)'")
      checkKeys(fields, allowed: Self.propertyKeys, "property '\(entry.key)'")
      let kinds = fields.filter { ModelProperty.Kind(rawValue: $0.key) != nil }
      guard kinds.count == 1, let kindField = kinds.first, let kind = ModelProperty.Kind(rawValue: kindField.key)
      else {
        if case .mapping = entry.value {
          let list = ModelProperty.Kind.allCases.map(\.rawValue).joined(separator: ", ")
          report(entry.value, "property '\(entry.key)' needs exactly one of \(list)")
        } else if fields.isEmpty {
          report(entry.value, "property '\(entry.key)' must be a mapping such as {never: EXPR, description: …}")
        }
        continue
      }
      let description = value(fields, "description").flatMap { scalar($0, "description") } ?? ""
      if kind == .leadsTo {
        let parts = pairs(kindField.value, "leadsTo of '\(entry.key)'")
        checkKeys(parts, allowed: Self.leadsToKeys, "leadsTo of '\(entry.key)'")
        guard let fromNode = value(parts, "from"), let toNode = value(parts, "to") else {
          if !parts.isEmpty { report(kindField.value, "leadsTo needs from: and to:") }
          continue
        }
        guard let fromText = scalar(fromNode, "from"), let toText = scalar(toNode, "to") else { continue }
        let from = expression(fromNode, fromText, in: scope, expecting: .bool)
        let to = expression(toNode, toText, in: scope, expecting: .bool)
        guard let from, let to else { continue }
        result.append(
          ModelProperty(
            name: entry.key, kind: kind, description: description, line: line(entry.keyNode), predicate: from,
            predicateText: fromText, target: to, targetText: toText))
      } else {
        guard let text = scalar(kindField.value, kind.rawValue),
          let expr = expression(kindField.value, text, in: scope, expecting: .bool)
        else { continue }
        result.append(
          ModelProperty(
            name: entry.key, kind: kind, description: description, line: line(entry.keyNode), predicate: expr,
            predicateText: text))
      }
    }
    return result
  }
}
