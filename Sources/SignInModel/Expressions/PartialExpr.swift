/// An `Expr` flattened once for `Expr.evaluatePartially`, Kleene's three-valued evaluation
/// over a valuation with unassigned variables: the same result (nil where the value depends on
/// an unassigned variable), without walking the indirect tree, whose boxes are retained and
/// released at every node. The fuzzer's configuration generator prunes its search with it, and
/// `lint`'s class exploration forks a class only where a guard's value depends on it.
/// `PartialExprTests` checks it against the tree on every constraint of the shipped models.
///
/// Layout: each node starts with its operation; children are absolute offsets into `code`.
/// `constant c`, `variable i`, `not a`, `and n a1 … an`, `or n a1 … an`, `implies a b`,
/// a comparison or arithmetic `op a b`, `member a n v1 … vn`.
public struct PartialExpr: Sendable {
  @usableFromInline let code: [Int]

  @usableFromInline enum Op {
    @usableFromInline static let constant = 0
    @usableFromInline static let variable = 1
    @usableFromInline static let not = 2
    @usableFromInline static let and = 3
    @usableFromInline static let or = 4
    @usableFromInline static let implies = 5
    @usableFromInline static let equal = 6
    @usableFromInline static let notEqual = 7
    @usableFromInline static let less = 8
    @usableFromInline static let lessOrEqual = 9
    @usableFromInline static let add = 10
    @usableFromInline static let subtract = 11
    @usableFromInline static let member = 12
  }

  public init(_ expr: Expr) {
    var code: [Int] = []
    @discardableResult
    func emit(_ e: Expr) -> Int {
      let at = code.count
      switch e {
      case .constant(let c): code += [Op.constant, c]
      case .variable(let i): code += [Op.variable, i]
      case .not(let a):
        code.append(Op.not)
        emit(a)
      case .and(let xs), .or(let xs):
        let isAnd = if case .and = e { true } else { false }
        code += [isAnd ? Op.and : Op.or, xs.count] + Array(repeating: -1, count: xs.count)
        for (k, x) in xs.enumerated() { code[at + 2 + k] = emit(x) }
      case .implies(let a, let b): pair(Op.implies, a, b)
      case .equal(let a, let b): pair(Op.equal, a, b)
      case .notEqual(let a, let b): pair(Op.notEqual, a, b)
      case .less(let a, let b): pair(Op.less, a, b)
      case .lessOrEqual(let a, let b): pair(Op.lessOrEqual, a, b)
      case .add(let a, let b): pair(Op.add, a, b)
      case .subtract(let a, let b): pair(Op.subtract, a, b)
      case .member(let a, let set):
        code += [Op.member, -1, set.count] + set
        code[at + 1] = emit(a)
      }
      return at
    }
    func pair(_ op: Int, _ a: Expr, _ b: Expr) {
      let at = code.count
      code += [op, -1, -1]
      code[at + 1] = emit(a)
      code[at + 2] = emit(b)
    }
    emit(expr)
    self.code = code
  }

  /// `Expr.evaluatePartially`: the value (booleans as 0 or 1), or nil when it depends on a
  /// variable whose value is `unassigned`.
  public func evaluate(_ valuation: [Int]) -> Int? {
    let result = code.withUnsafeBufferPointer { c in
      valuation.withUnsafeBufferPointer { v in Self.partial(c, v, 0) }
    }
    return result == unassigned ? nil : result
  }

  /// `evaluate(_:)` over a valuation in place.
  public func evaluate(_ valuation: UnsafeBufferPointer<Int>) -> Int? {
    let result = code.withUnsafeBufferPointer { c in Self.partial(c, valuation, 0) }
    return result == unassigned ? nil : result
  }

  /// Three-valued value of the node at `at` (`unassigned` for unknown).
  static func partial(_ c: UnsafeBufferPointer<Int>, _ v: UnsafeBufferPointer<Int>, _ at: Int) -> Int {
    switch c[at] {
    case Op.constant: return c[at + 1]
    case Op.variable: return v[c[at + 1]]
    case Op.not:
      let a = partial(c, v, at + 1)
      return a == unassigned ? unassigned : a == 0 ? 1 : 0
    case Op.and, Op.or:
      let isAnd = c[at] == Op.and
      var unknown = false
      for k in 0..<c[at + 1] {
        let x = partial(c, v, c[at + 2 + k])
        if x == unassigned {
          unknown = true
        } else if isAnd ? x == 0 : x != 0 {
          return isAnd ? 0 : 1
        }
      }
      return unknown ? unassigned : isAnd ? 1 : 0
    case Op.implies:
      // As `or([not(a), b])`.
      let a = partial(c, v, c[at + 1])
      if a == 0 { return 1 }
      let b = partial(c, v, c[at + 2])
      if b != unassigned && b != 0 { return 1 }
      return a == unassigned || b == unassigned ? unassigned : 0
    case Op.member:
      let a = partial(c, v, c[at + 1])
      if a == unassigned { return unassigned }
      for k in 0..<c[at + 2] where c[at + 3 + k] == a { return 1 }
      return 0
    default:
      // A comparison or arithmetic: known when both sides are, and then the strict value
      // (which is unknown when a side's strict evaluation reads an unassigned variable).
      guard partial(c, v, c[at + 1]) != unassigned, partial(c, v, c[at + 2]) != unassigned else {
        return unassigned
      }
      return strict(c, v, at)
    }
  }

  /// `Expr.evaluate` of the node at `at`, `unassigned` where it throws.
  static func strict(_ c: UnsafeBufferPointer<Int>, _ v: UnsafeBufferPointer<Int>, _ at: Int) -> Int {
    let op = c[at]
    switch op {
    case Op.constant: return c[at + 1]
    case Op.variable: return v[c[at + 1]]
    case Op.not:
      let a = strict(c, v, at + 1)
      return a == unassigned ? unassigned : a == 0 ? 1 : 0
    case Op.and, Op.or:
      let isAnd = op == Op.and
      for k in 0..<c[at + 1] {
        let x = strict(c, v, c[at + 2 + k])
        if x == unassigned { return unassigned }
        if isAnd ? x == 0 : x != 0 { return isAnd ? 0 : 1 }
      }
      return isAnd ? 1 : 0
    case Op.implies:
      let a = strict(c, v, c[at + 1])
      if a == unassigned { return unassigned }
      if a == 0 { return 1 }
      let b = strict(c, v, c[at + 2])
      return b == unassigned ? unassigned : b != 0 ? 1 : 0
    case Op.member:
      let a = strict(c, v, c[at + 1])
      if a == unassigned { return unassigned }
      for k in 0..<c[at + 2] where c[at + 3 + k] == a { return 1 }
      return 0
    default:
      let a = strict(c, v, c[at + 1])
      if a == unassigned { return unassigned }
      let b = strict(c, v, c[at + 2])
      if b == unassigned { return unassigned }
      switch op {
      case Op.equal: return a == b ? 1 : 0
      case Op.notEqual: return a != b ? 1 : 0
      case Op.less: return a < b ? 1 : 0
      case Op.lessOrEqual: return a <= b ? 1 : 0
      case Op.add: return Expr.saturating(a.addingReportingOverflow(b))
      default: return Expr.saturating(a.subtractingReportingOverflow(b))
      }
    }
  }
}
