import Foundation
import Yams

/// The `properties:` pass: named properties in the temporal vocabulary of `ModelProperty`,
/// their predicates type-checked in the guard language extended with the path facts.
extension ModelBuilder {
  static let propertyKeys = ModelProperty.Kind.allCases.map(\.rawValue) + ["description"]
  static let leadsToKeys = ["from", "to"]
  static let indistinguishableKeys = ["when", "left", "right", "inputs", "source"]

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
      if kind == .indistinguishable {
        if header.formatVersion < 3 {
          report(kindField.keyNode, "'indistinguishable:' needs format 3 (write 'format: 3' as the first key)")
          continue
        }
        guard let relation = readIndistinguishability(kindField.value, property: entry.key) else { continue }
        let text =
          "\(relation.leftText) ~ \(relation.rightText)"
          + (relation.sharedText.isEmpty ? "" : " when \(relation.sharedText)")
        result.append(
          ModelProperty(
            name: entry.key, kind: kind, description: description, line: line(entry.keyNode), predicate: .true,
            predicateText: text, relation: relation))
      } else if kind == .leadsTo {
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

  /// `indistinguishable: {when:, left:, right:, inputs:, source:}`: the two runs' configurations
  /// (configuration variables only) and the response pairs, `A` (the same in both) or `A ~ B`.
  func readIndistinguishability(_ node: Node, property: String) -> Indistinguishability? {
    let what = "indistinguishable of '\(property)'"
    let parts = pairs(node, what)
    checkKeys(parts, allowed: Self.indistinguishableKeys, what)
    guard let leftNode = value(parts, "left"), let rightNode = value(parts, "right") else {
      report(node, "\(what) needs left: and right: (each run's configuration), and may have when:, inputs:, source:")
      return nil
    }
    func condition(_ node: Node?, _ key: String) -> (Expr, String)? {
      guard let node else { return (.true, "") }
      guard let text = scalar(node, key), let expr = expression(node, text, in: scope, expecting: .bool) else {
        return nil
      }
      let before = diagnostics.count
      checkConfigurationOnly(expr, node, "\(key): of '\(property)'")
      return diagnostics.count == before ? (expr, text) : nil
    }
    let shared = condition(value(parts, "when"), "when")
    let left = condition(leftNode, "left")
    let right = condition(rightNode, "right")
    var inputs: [Indistinguishability.ResponsePair] = []
    if let inputsNode = value(parts, "inputs") {
      let items = sequence(inputsNode, "inputs of '\(property)'")
      if items.isEmpty, case .sequence = inputsNode { report(inputsNode, "inputs of '\(property)' is empty") }
      for item in items {
        guard let text = scalar(item, "an input") else { continue }
        let names = text.components(separatedBy: "~").map { $0.trimmingCharacters(in: .whitespaces) }
        guard names.count <= 2, !names.contains(where: \.isEmpty) else {
          report(item, "an input is RESPONSE (the same in both runs) or LEFT ~ RIGHT, not '\(text)'")
          continue
        }
        let indices = names.compactMap { name -> Int? in
          if let index = responseIndex[name] { return index }
          report(item, "unknown response '\(name)'\(suggestion(name, responses.map(\.name)))")
          return nil
        }
        guard indices.count == names.count else { continue }
        let pair = Indistinguishability.ResponsePair(left: indices[0], right: indices[indices.count - 1])
        if inputs.contains(pair) {
          report(item, "the input '\(text)' is listed twice")
          continue
        }
        // A pair no step accepts together would never be compared: a check that cannot fail.
        let together = steps.contains { step in
          !step.isTerminal && step.responses.contains { $0.response == pair.left }
            && step.responses.contains { $0.response == pair.right }
        }
        if !together {
          report(
            item, "no step accepts both '\(names[0])' and '\(names[names.count - 1])': this input is never compared")
          continue
        }
        inputs.append(pair)
      }
    } else {
      inputs = responses.indices.map { Indistinguishability.ResponsePair(left: $0, right: $0) }
    }
    guard let shared, let left, let right else { return nil }
    let source = value(parts, "source").flatMap { scalar($0, "source") } ?? ""
    let differing = Array(Set(left.0.variables + right.0.variables)).sorted()
    if differing.isEmpty {
      report(leftNode, "left: and right: of '\(property)' read no variable: the two runs would be the same run")
      return nil
    }
    return Indistinguishability(
      shared: shared.0, sharedText: shared.1, left: left.0, leftText: left.1, right: right.0, rightText: right.1,
      inputs: inputs, differing: differing, source: source)
  }
}
