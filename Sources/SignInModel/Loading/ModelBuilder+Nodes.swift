import Yams

/// Reading YAML nodes, with every problem reported at the node's line and column.
extension ModelBuilder {
  func report(_ node: Node?, _ message: String, offset: Int = 0) {
    guard let mark = node?.mark else {
      diagnostics.append(ModelDiagnostic(file: file, line: 1, column: 0, message: message))
      return
    }
    var place = (line: mark.line, column: mark.column)
    if let scalar = node?.scalar, let source {
      place = source.position(of: offset, in: scalar, at: mark)
    } else if mark.column > 0 {
      place.column += offset
    }
    diagnostics.append(ModelDiagnostic(file: file, line: max(1, place.line), column: place.column, message: message))
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
    typedExpression(node, text, in: scope, expecting: type)?.expr
  }

  func typedExpression(_ node: Node?, _ text: String, in scope: ExprScope, expecting type: ExprType) -> TypedExpr? {
    do throws(ExpressionError) {
      let typed = try ExprTypeChecker(scope: scope).checkAny(text)
      if typed.type != type {
        throw ExpressionError(message: "expected a \(type) expression but this is \(typed.type)", offset: 0)
      }
      return typed
    } catch {
      let flat = String(text.map { $0.isNewline ? " " : $0 })
      let shown = flat.count > 80 ? String(flat.prefix(80)) + "…" : flat
      if !isCascade(error) { report(node, "in '\(shown)': \(error.message)", offset: error.offset) }
      return nil
    }
  }

  /// An unknown-name error about a variable whose declaration was already reported.
  func isCascade(_ error: ExpressionError) -> Bool {
    poisoned.contains { error.message.hasPrefix("unknown name '\($0)'") }
  }
}
