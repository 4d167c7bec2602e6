/// The names an expression may use at one place in a model file.
struct ExprScope {
  var variables: [Variable]
  var variableIndex: [String: Int]
  /// Type-checked definitions, expanded wherever they are named.
  var definitions: [String: TypedExpr] = [:]
  /// The current step's offer expressions, by option name; nil where `offered(X)` is not allowed.
  var offered: [String: TypedExpr]? = nil
  /// Constraints and configuration-level definitions may only read configuration variables.
  var allowFlowVariables = true

  /// The values a variable can hold: `0...1`, an enumeration's indices, or its range.
  func bounds(of variable: Variable) -> ClosedRange<Int> {
    switch variable.domain {
    case .bool: return 0...1
    case .range(let r): return r
    case .enumeration(let names): return 0...max(0, names.count - 1)
    }
  }

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
    let typed = try resolve(syntax)
    if typed.type != expected {
      throw ExpressionError(message: "expected a \(expected) expression but this is \(typed.type)", offset: 0)
    }
    return typed.expr
  }

  func checkAny(_ text: String) throws(ExpressionError) -> TypedExpr {
    try resolve(try ExprParser.parse(text))
  }

  /// Wraps `expr` over `parts` and checks the limits: depth, size, and (for integers) its bounds.
  private func make(
    _ expr: Expr, _ type: ExprType, _ parts: [TypedExpr], bounds: ClosedRange<Int>? = nil, at: Int
  ) throws(ExpressionError) -> TypedExpr {
    let depth = 1 + (parts.map(\.depth).max() ?? 0)
    let size = parts.reduce(1) { $0 + $1.size }
    if depth > ModelLimits.maxExpressionDepth {
      throw ExpressionError(
        message: "with its definitions expanded this expression nests \(depth) levels deep; the limit is "
          + "\(ModelLimits.maxExpressionDepth)", offset: at)
    }
    if size > ModelLimits.maxExpressionNodes {
      throw ExpressionError(
        message: "with its definitions expanded this expression has \(size) nodes; the limit is "
          + "\(ModelLimits.maxExpressionNodes)", offset: at)
    }
    let range = bounds ?? 0...1
    if !ModelLimits.integers.contains(range.lowerBound) || !ModelLimits.integers.contains(range.upperBound) {
      throw ExpressionError(
        message:
          "this can reach \(ModelLimits.integers.contains(range.upperBound) ? range.lowerBound : range.upperBound) "
          + "with the declared domains, outside \(ModelLimits.integers.lowerBound)..."
          + "\(ModelLimits.integers.upperBound), the range of integers in a model", offset: at)
    }
    return TypedExpr(expr: expr, type: type, bounds: range, depth: depth, size: size)
  }

  private func unknownName(_ name: String, at: Int, extra: [String] = []) -> ExpressionError {
    let suggestion = Suggestions.closest(to: name, among: scope.knownNames + extra)
    return ExpressionError(
      message: "unknown name '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), offset: at)
  }

  private func resolve(_ syntax: ExprSyntax) throws(ExpressionError) -> TypedExpr {
    switch syntax {
    case .integer(let v, let at): return try make(.constant(v), .int, [], bounds: v...v, at: at)
    case .boolean(let b, let at): return try make(.constant(b ? 1 : 0), .bool, [], at: at)
    case .name(let name, let at):
      if let index = scope.variableIndex[name] {
        let variable = scope.variables[index]
        if variable.scope == .flow && !scope.allowFlowVariables {
          throw ExpressionError(
            message: "'\(name)' is a flow variable; only configuration variables may be read here", offset: at)
        }
        return try make(.variable(index), scope.type(of: variable), [], bounds: scope.bounds(of: variable), at: at)
      }
      if let definition = scope.definitions[name] { return definition }
      throw unknownName(name, at: at)
    case .call(let function, let argument, let at):
      guard function == "offered" else {
        throw ExpressionError(
          message: "unknown function '\(function)'; the only function is offered(OPTION)", offset: at)
      }
      guard let offered = scope.offered else {
        throw ExpressionError(
          message: "offered(\(argument)) is only allowed in the responses of a step that declares 'offers'", offset: at)
      }
      guard let expr = offered[argument] else {
        let suggestion = Suggestions.closest(to: argument, among: Array(offered.keys))
        throw ExpressionError(
          message: "this step offers no option '\(argument)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
          offset: at)
      }
      return expr
    case .unary(_, let operand, let at):
      let a = try resolve(operand)
      guard a.type == .bool else {
        throw ExpressionError(message: "'!' needs a bool operand, not \(a.type)", offset: at)
      }
      return try make(.not(a.expr), .bool, [a], at: at)
    case .member(let subject, let names, let at):
      let a = try resolve(subject)
      guard case .enumeration(let values) = a.type else {
        throw ExpressionError(message: "'in [...]' needs an enumeration on its left, not \(a.type)", offset: at)
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
      return try make(.member(a.expr, indices), .bool, [a], at: at)
    case .binary(let op, let lhs, let rhs, let at):
      switch op {
      case "&&", "||", "=>":
        let a = try resolve(lhs)
        let b = try resolve(rhs)
        guard a.type == .bool, b.type == .bool else {
          throw ExpressionError(message: "'\(op)' needs bool operands, not \(a.type) and \(b.type)", offset: at)
        }
        switch op {
        case "&&": return try make(.and(flatten(a.expr, b.expr, and: true)), .bool, [a, b], at: at)
        case "||": return try make(.or(flatten(a.expr, b.expr, and: false)), .bool, [a, b], at: at)
        default: return try make(.implies(a.expr, b.expr), .bool, [a, b], at: at)
        }
      case "==", "!=":
        let (a, b) = try resolveComparison(lhs, rhs, at: at)
        return try make(op == "==" ? .equal(a.expr, b.expr) : .notEqual(a.expr, b.expr), .bool, [a, b], at: at)
      case "<", "<=", ">", ">=":
        let a = try resolve(lhs)
        let b = try resolve(rhs)
        guard a.type == .int, b.type == .int else {
          throw ExpressionError(message: "'\(op)' compares integers, not \(a.type) and \(b.type)", offset: at)
        }
        switch op {
        case "<": return try make(.less(a.expr, b.expr), .bool, [a, b], at: at)
        case "<=": return try make(.lessOrEqual(a.expr, b.expr), .bool, [a, b], at: at)
        case ">": return try make(.less(b.expr, a.expr), .bool, [a, b], at: at)
        default: return try make(.lessOrEqual(b.expr, a.expr), .bool, [a, b], at: at)
        }
      default:  // + and -: bounds from the operands' bounds (each within 32 bits, so no overflow here)
        let a = try resolve(lhs)
        let b = try resolve(rhs)
        guard a.type == .int, b.type == .int else {
          throw ExpressionError(message: "'\(op)' needs integer operands, not \(a.type) and \(b.type)", offset: at)
        }
        let x = a.bounds
        let y = b.bounds
        if op == "+" {
          let range = (x.lowerBound + y.lowerBound)...(x.upperBound + y.upperBound)
          return try make(.add(a.expr, b.expr), .int, [a, b], bounds: range, at: at)
        }
        let range = (x.lowerBound - y.upperBound)...(x.upperBound - y.lowerBound)
        return try make(.subtract(a.expr, b.expr), .int, [a, b], bounds: range, at: at)
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
  private func resolveComparison(
    _ lhs: ExprSyntax, _ rhs: ExprSyntax, at: Int
  ) throws(ExpressionError) -> (TypedExpr, TypedExpr) {
    func isUnresolvedName(_ s: ExprSyntax) -> String? {
      if case .name(let n, _) = s, scope.variableIndex[n] == nil, scope.definitions[n] == nil { return n }
      return nil
    }
    if let literal = isUnresolvedName(rhs), isUnresolvedName(lhs) == nil {
      let a = try resolve(lhs)
      return (a, try literalValue(literal, for: a.type, at: rhs.offset))
    }
    if let literal = isUnresolvedName(lhs), isUnresolvedName(rhs) == nil {
      let b = try resolve(rhs)
      return (try literalValue(literal, for: b.type, at: lhs.offset), b)
    }
    let a = try resolve(lhs)
    let b = try resolve(rhs)
    guard a.type == b.type else {
      throw ExpressionError(message: "cannot compare \(a.type) with \(b.type)", offset: at)
    }
    return (a, b)
  }

  private func literalValue(_ name: String, for type: ExprType, at: Int) throws(ExpressionError) -> TypedExpr {
    guard case .enumeration(let values) = type else { throw unknownName(name, at: at) }
    guard let index = values.firstIndex(of: name) else {
      let suggestion = Suggestions.closest(to: name, among: values)
      throw ExpressionError(
        message: "'\(name)' is not one of [\(values.joined(separator: ", "))]"
          + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), offset: at)
    }
    return try make(.constant(index), type, [], bounds: index...index, at: at)
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
    let a = Array(a)
    let b = Array(b)
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
