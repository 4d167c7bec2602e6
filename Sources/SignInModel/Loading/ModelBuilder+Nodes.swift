import Yams

/// Reading YAML nodes, with every problem reported at the node's line and column.
extension ModelBuilder {
  func report(_ node: Node?, _ message: String, offset: Int = 0) {
    let mark = node?.mark
    var column = mark?.column ?? 0
    if column > 0 {
      // Quoted scalars start one column before their text.
      let quoted = node?.scalar.map { $0.style == .doubleQuoted || $0.style == .singleQuoted } ?? false
      column += offset + (quoted ? 1 : 0)
    }
    diagnostics.append(ModelDiagnostic(file: file, line: mark?.line ?? 0, column: column, message: message))
  }

  func line(_ node: Node?) -> Int { node?.mark?.line ?? 0 }

  func suggestion(_ name: String, _ candidates: [String]) -> String {
    Suggestions.closest(to: name, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
  }

  /// The pairs of a mapping node, with duplicate keys reported.
  func pairs(_ node: Node?, _ what: String) -> [Field] {
    guard let node else { return [] }
    guard case .mapping(let mapping) = node else {
      report(node, "\(what) must be a mapping (name: value, …)")
      return []
    }
    var seen: [String: Int] = [:]
    var result: [(String, Node, Node)] = []
    for (key, value) in mapping {
      guard let name = key.string else {
        report(key, "\(what): keys must be plain names")
        continue
      }
      if let first = seen[name] {
        report(key, "duplicate name '\(name)' in \(what) (first at line \(first))")
        continue
      }
      seen[name] = line(key)
      result.append((name, key, value))
    }
    return result
  }

  func scalar(_ node: Node?, _ what: String) -> String? {
    guard let node else { return nil }
    guard case .scalar(let s) = node else {
      report(node, "\(what) must be a single value")
      return nil
    }
    return s.string
  }

  func sequence(_ node: Node?, _ what: String) -> [Node] {
    guard let node else { return [] }
    guard case .sequence(let s) = node else {
      report(node, "\(what) must be a list")
      return []
    }
    return Array(s)
  }

  func checkKeys(_ items: [Field], allowed: [String], _ what: String) {
    for item in items where !allowed.contains(item.key) {
      report(item.keyNode, "unknown key '\(item.key)' in \(what)\(suggestion(item.key, allowed))")
    }
  }

  func value(_ items: [Field], _ key: String) -> Node? {
    items.first { $0.key == key }?.value
  }

  func bool(_ node: Node?, _ what: String, default fallback: Bool) -> Bool {
    guard let node, let text = scalar(node, what) else { return fallback }
    switch text {
    case "true", "yes": return true
    case "false", "no": return false
    default:
      report(node, "\(what) must be true or false, not '\(text)'")
      return fallback
    }
  }

  // MARK: - Expressions

  var scope: ExprScope {
    ExprScope(variables: variables, variableIndex: variableIndex, definitions: definitions)
  }

  func expression(_ node: Node?, _ text: String, in scope: ExprScope, expecting type: ExprType) -> Expr? {
    do {
      return try ExprTypeChecker(scope: scope).check(text, expecting: type)
    } catch {
      if !isCascade(error) { report(node, "in '\(text)': \(error.message)", offset: error.offset) }
      return nil
    }
  }

  /// An unknown-name error about a variable whose declaration was already reported.
  func isCascade(_ error: ExpressionError) -> Bool {
    poisoned.contains { error.message.hasPrefix("unknown name '\($0)'") }
  }
}
