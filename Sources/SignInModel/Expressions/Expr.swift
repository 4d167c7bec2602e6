/// The type of an expression in the guard language.
public enum ExprType: Hashable, Sendable, CustomStringConvertible {
  case bool
  case int
  /// An enumeration, identified by its value names.
  case enumeration([String])

  public var description: String {
    switch self {
    case .bool: return "bool"
    case .int: return "int"
    case .enumeration(let names): return "one of [" + names.joined(separator: ", ") + "]"
    }
  }
}

/// A type-checked guard or update expression over the model's variables.
///
/// Definitions and `offered(X)` are expanded when the model is loaded, so an `Expr`
/// only mentions variables by index and constants; both the explicit engine and the
/// Z3 encoder read this one form.
public indirect enum Expr: Hashable, Sendable {
  case constant(Int)
  /// The variable at this index of `SignInModel.variables`.
  case variable(Int)
  case not(Expr)
  case and([Expr])
  case or([Expr])
  case implies(Expr, Expr)
  case equal(Expr, Expr)
  case notEqual(Expr, Expr)
  case less(Expr, Expr)
  case lessOrEqual(Expr, Expr)
  case add(Expr, Expr)
  case subtract(Expr, Expr)
  /// `e in [v1, v2]`: membership in a list of constants.
  case member(Expr, [Int])

  public static let `true` = Expr.constant(1)
  public static let `false` = Expr.constant(0)

  /// The indices of the variables this expression reads, in first-read order.
  public var variables: [Int] {
    var seen: [Int] = []
    func visit(_ e: Expr) {
      switch e {
      case .constant: break
      case .variable(let i): if !seen.contains(i) { seen.append(i) }
      case .not(let a): visit(a)
      case .and(let xs), .or(let xs): xs.forEach(visit)
      case .implies(let a, let b), .equal(let a, let b), .notEqual(let a, let b),
        .less(let a, let b), .lessOrEqual(let a, let b), .add(let a, let b), .subtract(let a, let b):
        visit(a)
        visit(b)
      case .member(let a, _): visit(a)
      }
    }
    visit(self)
    return seen
  }
}

/// Thrown by evaluation when it reads a configuration variable that the current
/// (partial) valuation has not fixed yet; the explicit engine then forks on it.
public struct UnassignedVariable: Error, Sendable {
  public let index: Int
  @inlinable public init(index: Int) { self.index = index }
}

/// The marker for "not fixed yet" in a valuation.
public let unassigned = Int.min

extension Expr {
  /// Evaluates the expression; booleans come back as 0 or 1.
  /// - Throws: `UnassignedVariable` when it reads a variable whose value is `unassigned`.
  @inlinable
  public func evaluate(_ valuation: [Int]) throws(UnassignedVariable) -> Int {
    switch self {
    case .constant(let c): return c
    case .variable(let i):
      let v = valuation[i]
      if v == unassigned { throw UnassignedVariable(index: i) }
      return v
    case .not(let a): return try a.evaluate(valuation) == 0 ? 1 : 0
    case .and(let xs):
      for x in xs where try x.evaluate(valuation) == 0 { return 0 }
      return 1
    case .or(let xs):
      for x in xs where try x.evaluate(valuation) != 0 { return 1 }
      return 0
    case .implies(let a, let b):
      if try a.evaluate(valuation) == 0 { return 1 }
      return try b.evaluate(valuation) != 0 ? 1 : 0
    case .equal(let a, let b): return try a.evaluate(valuation) == b.evaluate(valuation) ? 1 : 0
    case .notEqual(let a, let b): return try a.evaluate(valuation) != b.evaluate(valuation) ? 1 : 0
    case .less(let a, let b): return try a.evaluate(valuation) < b.evaluate(valuation) ? 1 : 0
    case .lessOrEqual(let a, let b): return try a.evaluate(valuation) <= b.evaluate(valuation) ? 1 : 0
    case .add(let a, let b):
      return Expr.saturating(try a.evaluate(valuation).addingReportingOverflow(b.evaluate(valuation)))
    case .subtract(let a, let b):
      return Expr.saturating(try a.evaluate(valuation).subtractingReportingOverflow(b.evaluate(valuation)))
    case .member(let a, let set): return set.contains(try a.evaluate(valuation)) ? 1 : 0
    }
  }

  /// The loader keeps every expression's values (over the declared domains) within
  /// `ModelLimits.integers`, so this never saturates on in-domain states; only a value carried
  /// out of its domain through several routes could, and it is then outside every domain, which
  /// `staysInDomain` reports. Saturation stops short of `Int.min`, the `unassigned` marker.
  @inlinable
  static func saturating(_ result: (partialValue: Int, overflow: Bool)) -> Int {
    guard result.overflow else { return result.partialValue == unassigned ? unassigned + 1 : result.partialValue }
    return result.partialValue < 0 ? Int.max : unassigned + 1
  }

  /// `evaluate(_:) != 0`.
  @inlinable
  public func holds(_ valuation: [Int]) throws(UnassignedVariable) -> Bool {
    try evaluate(valuation) != 0
  }
}

extension Expr {
  /// Kleene three-valued evaluation: `nil` when the value depends on unassigned variables.
  public func evaluatePartially(_ valuation: [Int]) -> Int? {
    switch self {
    case .constant(let c): return c
    case .variable(let i): return valuation[i] == unassigned ? nil : valuation[i]
    case .not(let a): return a.evaluatePartially(valuation).map { $0 == 0 ? 1 : 0 }
    case .and(let xs):
      var unknown = false
      for x in xs {
        guard let v = x.evaluatePartially(valuation) else {
          unknown = true
          continue
        }
        if v == 0 { return 0 }
      }
      return unknown ? nil : 1
    case .or(let xs):
      var unknown = false
      for x in xs {
        guard let v = x.evaluatePartially(valuation) else {
          unknown = true
          continue
        }
        if v != 0 { return 1 }
      }
      return unknown ? nil : 0
    case .implies(let a, let b):
      return Expr.or([.not(a), b]).evaluatePartially(valuation)
    case .member(let a, let set):
      return a.evaluatePartially(valuation).map { set.contains($0) ? 1 : 0 }
    case .equal(let a, let b), .notEqual(let a, let b), .less(let a, let b), .lessOrEqual(let a, let b),
      .add(let a, let b), .subtract(let a, let b):
      guard a.evaluatePartially(valuation) != nil, b.evaluatePartially(valuation) != nil else { return nil }
      return try? evaluate(valuation)
    }
  }
}

extension Expr {
  /// The expression with each variable in `replacements` replaced by its expression.
  public func substituting(_ replacements: [Int: Expr]) -> Expr {
    if replacements.isEmpty { return self }
    switch self {
    case .constant: return self
    case .variable(let i): return replacements[i] ?? self
    case .not(let a): return .not(a.substituting(replacements))
    case .and(let xs): return .and(xs.map { $0.substituting(replacements) })
    case .or(let xs): return .or(xs.map { $0.substituting(replacements) })
    case .implies(let a, let b): return .implies(a.substituting(replacements), b.substituting(replacements))
    case .equal(let a, let b): return .equal(a.substituting(replacements), b.substituting(replacements))
    case .notEqual(let a, let b): return .notEqual(a.substituting(replacements), b.substituting(replacements))
    case .less(let a, let b): return .less(a.substituting(replacements), b.substituting(replacements))
    case .lessOrEqual(let a, let b): return .lessOrEqual(a.substituting(replacements), b.substituting(replacements))
    case .add(let a, let b): return .add(a.substituting(replacements), b.substituting(replacements))
    case .subtract(let a, let b): return .subtract(a.substituting(replacements), b.substituting(replacements))
    case .member(let a, let set): return .member(a.substituting(replacements), set)
    }
  }
}
