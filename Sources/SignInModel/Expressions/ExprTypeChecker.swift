/// The names an expression may use at one place in a model file.
struct ExprScope {
  var variables: [Variable]
  var variableIndex: [String: Int]
  /// Type-checked definitions, expanded wherever they are named.
  var definitions: [String: (Expr, ExprType)] = [:]
  /// The current step's offer expressions, by option name; nil where `offered(X)` is not allowed.
  var offered: [String: Expr]? = nil
  /// Constraints and configuration-level definitions may only read configuration variables.
  var allowFlowVariables = true

  func type(of variable: Variable) -> ExprType {
    switch variable.domain {
    case .bool: return .bool
    case .range: return .int
    case .enumeration(let names): return .enumeration(names)
    }
  }

  var knownNames: [String] { Array(variableIndex.keys) + Array(definitions.keys) }
}

/// Resolves names in an `ExprSyntax`, checks types, and produces an `Expr`.
struct ExprTypeChecker {
  let scope: ExprScope

  func check(_ text: String, expecting expected: ExprType) throws(ExpressionError) -> Expr {
    let syntax = try ExprParser.parse(text)
    let (expr, type) = try resolve(syntax)
    if type != expected {
      throw ExpressionError(message: "expected a \(expected) expression but this is \(type)", offset: 0)
    }
    return expr
  }

  func checkAny(_ text: String) throws(ExpressionError) -> (Expr, ExprType) {
    try resolve(try ExprParser.parse(text))
  }

  private func unknownName(_ name: String, at: Int, extra: [String] = []) -> ExpressionError {
    let suggestion = Suggestions.closest(to: name, among: scope.knownNames + extra)
    return ExpressionError(
      message: "unknown name '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), offset: at)
  }

  private func resolve(_ syntax: ExprSyntax) throws(ExpressionError) -> (Expr, ExprType) {
    switch syntax {
    case .integer(let v, _): return (.constant(v), .int)
    case .boolean(let b, _): return (.constant(b ? 1 : 0), .bool)
    case .name(let name, let at):
      if let index = scope.variableIndex[name] {
        let variable = scope.variables[index]
        if variable.scope == .flow && !scope.allowFlowVariables {
          throw ExpressionError(
            message: "'\(name)' is a flow variable; only configuration variables may be read here", offset: at)
        }
        return (.variable(index), scope.type(of: variable))
      }
      if let definition = scope.definitions[name] { return definition }
      throw unknownName(name, at: at)
    case .call(let function, let argument, let at):
      guard function == "offered" else {
        throw ExpressionError(message: "unknown function '\(function)'; the only function is offered(OPTION)", offset: at)
      }
      guard let offered = scope.offered else {
        throw ExpressionError(message: "offered(\(argument)) is only allowed in the responses of a step that declares 'offers'", offset: at)
      }
      guard let expr = offered[argument] else {
        let suggestion = Suggestions.closest(to: argument, among: Array(offered.keys))
        throw ExpressionError(
          message: "this step offers no option '\(argument)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
          offset: at)
      }
      return (expr, .bool)
    case .unary(_, let operand, let at):
      let (e, t) = try resolve(operand)
      guard t == .bool else { throw ExpressionError(message: "'!' needs a bool operand, not \(t)", offset: at) }
      return (.not(e), .bool)
    case .member(let subject, let names, let at):
      let (e, t) = try resolve(subject)
      guard case .enumeration(let values) = t else {
        throw ExpressionError(message: "'in [...]' needs an enumeration on its left, not \(t)", offset: at)
      }
      var indices: [Int] = []
      for (name, offset) in names {
        guard let i = values.firstIndex(of: name) else {
          let suggestion = Suggestions.closest(to: name, among: values)
          throw ExpressionError(
            message: "'\(name)' is not one of [\(values.joined(separator: ", "))]"
              + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), offset: offset)
        }
        indices.append(i)
      }
      return (.member(e, indices), .bool)
    case .binary(let op, let lhs, let rhs, let at):
      switch op {
      case "&&", "||", "=>":
        let (a, ta) = try resolve(lhs)
        let (b, tb) = try resolve(rhs)
        guard ta == .bool, tb == .bool else {
          throw ExpressionError(message: "'\(op)' needs bool operands, not \(ta) and \(tb)", offset: at)
        }
        switch op {
        case "&&": return (.and(flatten(a, b, and: true)), .bool)
        case "||": return (.or(flatten(a, b, and: false)), .bool)
        default: return (.implies(a, b), .bool)
        }
      case "==", "!=":
        let (a, b) = try resolveComparison(lhs, rhs, at: at)
        return (op == "==" ? .equal(a, b) : .notEqual(a, b), .bool)
      case "<", "<=", ">", ">=":
        let (a, ta) = try resolve(lhs)
        let (b, tb) = try resolve(rhs)
        guard ta == .int, tb == .int else {
          throw ExpressionError(message: "'\(op)' compares integers, not \(ta) and \(tb)", offset: at)
        }
        switch op {
        case "<": return (.less(a, b), .bool)
        case "<=": return (.lessOrEqual(a, b), .bool)
        case ">": return (.less(b, a), .bool)
        default: return (.lessOrEqual(b, a), .bool)
        }
      default:  // + and -
        let (a, ta) = try resolve(lhs)
        let (b, tb) = try resolve(rhs)
        guard ta == .int, tb == .int else {
          throw ExpressionError(message: "'\(op)' needs integer operands, not \(ta) and \(tb)", offset: at)
        }
        return (op == "+" ? .add(a, b) : .subtract(a, b), .int)
      }
    }
  }

  private func flatten(_ a: Expr, _ b: Expr, and: Bool) -> [Expr] {
    func parts(_ e: Expr) -> [Expr] {
      switch e {
      case .and(let xs) where and: return xs
      case .or(let xs) where !and: return xs
      default: return [e]
      }
    }
    return parts(a) + parts(b)
  }

  /// Equality allows a bare value name on one side when the other side is an enumeration.
  private func resolveComparison(_ lhs: ExprSyntax, _ rhs: ExprSyntax, at: Int) throws(ExpressionError) -> (Expr, Expr) {
    func isUnresolvedName(_ s: ExprSyntax) -> String? {
      if case .name(let n, _) = s, scope.variableIndex[n] == nil, scope.definitions[n] == nil { return n }
      return nil
    }
    if let literal = isUnresolvedName(rhs), isUnresolvedName(lhs) == nil {
      let (a, ta) = try resolve(lhs)
      return (a, try literalValue(literal, for: ta, at: rhs.offset))
    }
    if let literal = isUnresolvedName(lhs), isUnresolvedName(rhs) == nil {
      let (b, tb) = try resolve(rhs)
      return (try literalValue(literal, for: tb, at: lhs.offset), b)
    }
    let (a, ta) = try resolve(lhs)
    let (b, tb) = try resolve(rhs)
    guard ta == tb else {
      throw ExpressionError(message: "cannot compare \(ta) with \(tb)", offset: at)
    }
    return (a, b)
  }

  private func literalValue(_ name: String, for type: ExprType, at: Int) throws(ExpressionError) -> Expr {
    guard case .enumeration(let values) = type else { throw unknownName(name, at: at) }
    guard let index = values.firstIndex(of: name) else {
      let suggestion = Suggestions.closest(to: name, among: values)
      throw ExpressionError(
        message: "'\(name)' is not one of [\(values.joined(separator: ", "))]"
          + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), offset: at)
    }
    return .constant(index)
  }
}

/// "Did you mean …?" suggestions by edit distance.
public enum Suggestions {
  /// The candidate closest to `name`, if it is close enough to be a plausible typo.
  public static func closest(to name: String, among candidates: [String]) -> String? {
    let lowered = name.lowercased()
    var best: (String, Int)? = nil
    for candidate in candidates.sorted() {
      let d = distance(lowered, candidate.lowercased())
      if best == nil || d < best!.1 { best = (candidate, d) }
    }
    guard let (candidate, d) = best else { return nil }
    let limit = max(2, min(name.count, candidate.count) / 3)
    if d <= limit { return candidate }
    // A prefix or containment match (e.g. `confirmSignInWithSMSCode` vs `confirmSignInWithSMSMFACode`).
    let c = candidate.lowercased()
    if lowered.count >= 4 && (c.hasPrefix(lowered) || c.contains(lowered) || lowered.contains(c)) { return candidate }
    return nil
  }

  /// Levenshtein distance.
  public static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
