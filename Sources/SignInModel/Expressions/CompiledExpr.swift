/// An `Expr` flattened once into postfix code with short-circuit jumps, evaluated over a
/// valuation with a stack on the machine stack: no allocation and no reference counting per
/// node, where walking the indirect `Expr` retains and releases every box it passes. The
/// explicit search, the oracle (`ModelSimulator`) and `diff`'s exploration evaluate guards,
/// effects and property predicates this way; the result and the variable an evaluation
/// stops at are the same as `Expr.evaluate` (same order, same short-circuits, same
/// saturation), which `CompiledExprTests` checks on every expression of the shipped models.
public struct CompiledExpr: Sendable {
  @usableFromInline let code: [Int]
  @usableFromInline let stackSize: Int
  /// The same expression flattened for Kleene's three-valued evaluation, for a caller that goes
  /// on where the strict evaluation stops at an unassigned variable (the explicit search's
  /// classes: `FlowGraph.threeValued`).
  public let threeValued: PartialExpr

  @usableFromInline enum Op {
    @usableFromInline static let constant = 0
    @usableFromInline static let variable = 1
    @usableFromInline static let not = 2
    @usableFromInline static let equal = 3
    @usableFromInline static let notEqual = 4
    @usableFromInline static let less = 5
    @usableFromInline static let lessOrEqual = 6
    @usableFromInline static let add = 7
    @usableFromInline static let subtract = 8
    /// `member n v1 … vn`: the top becomes 1 when it is one of the n values.
    @usableFromInline static let member = 9
    /// `and`: a zero on top stays and jumps to the target; otherwise it is popped.
    @usableFromInline static let jumpIfZero = 10
    /// `or`: a non-zero on top becomes 1 and jumps to the target; otherwise it is popped.
    @usableFromInline static let jumpIfNonZero = 11
    /// The top becomes 1 when non-zero.
    @usableFromInline static let bool = 12
    /// `implies`: a zero on top becomes 1 and jumps to the target; otherwise it is popped.
    @usableFromInline static let jumpIfZeroToOne = 13
    /// `variableEquals v c`: pushes 1 when variable v is c (most guards compare a variable with
    /// a constant: one instruction instead of three).
    @usableFromInline static let variableEquals = 14
    /// `variableNotEquals v c`: pushes 1 when variable v is not c.
    @usableFromInline static let variableNotEquals = 15
    /// `variableMember v n v1 … vn`: pushes 1 when variable v is one of the n values.
    @usableFromInline static let variableMember = 16
  }

  public init(_ expr: Expr) {
    var code: [Int] = []
    var depth = 0
    var maxDepth = 1
    func push() {
      depth += 1
      maxDepth = max(maxDepth, depth)
    }
    func binary(_ a: Expr, _ b: Expr, _ op: Int) {
      emit(a)
      emit(b)
      code.append(op)
      depth -= 1
    }
    /// Each operand but the last leaves its value, which the jump either keeps (jumping to
    /// the end) or pops; the last is normalised to 0 or 1.
    func chain(_ xs: [Expr], jump: Int) {
      var patches: [Int] = []
      for (k, x) in xs.enumerated() {
        emit(x)
        if k < xs.count - 1 {
          code.append(jump)
          code.append(-1)
          patches.append(code.count - 1)
          depth -= 1
        } else {
          code.append(Op.bool)
        }
      }
      for p in patches { code[p] = code.count }
    }
    func emit(_ e: Expr) {
      switch e {
      case .constant(let c):
        code += [Op.constant, c]
        push()
      case .variable(let i):
        code += [Op.variable, i]
        push()
      case .not(let a):
        emit(a)
        code.append(Op.not)
      case .and(let xs):
        if xs.isEmpty {
          code += [Op.constant, 1]
          push()
        } else {
          chain(xs, jump: Op.jumpIfZero)
        }
      case .or(let xs):
        if xs.isEmpty {
          code += [Op.constant, 0]
          push()
        } else {
          chain(xs, jump: Op.jumpIfNonZero)
        }
      case .implies(let a, let b):
        emit(a)
        code += [Op.jumpIfZeroToOne, -1]
        let patch = code.count - 1
        depth -= 1
        emit(b)
        code.append(Op.bool)
        code[patch] = code.count
      case .equal(.variable(let i), .constant(let c)), .equal(.constant(let c), .variable(let i)):
        code += [Op.variableEquals, i, c]
        push()
      case .notEqual(.variable(let i), .constant(let c)), .notEqual(.constant(let c), .variable(let i)):
        code += [Op.variableNotEquals, i, c]
        push()
      case .member(.variable(let i), let set):
        code += [Op.variableMember, i, set.count] + set
        push()
      case .equal(let a, let b): binary(a, b, Op.equal)
      case .notEqual(let a, let b): binary(a, b, Op.notEqual)
      case .less(let a, let b): binary(a, b, Op.less)
      case .lessOrEqual(let a, let b): binary(a, b, Op.lessOrEqual)
      case .add(let a, let b): binary(a, b, Op.add)
      case .subtract(let a, let b): binary(a, b, Op.subtract)
      case .member(let a, let set):
        emit(a)
        code += [Op.member, set.count] + set
      }
    }
    emit(expr)
    self.code = code
    stackSize = maxDepth
    threeValued = PartialExpr(expr)
  }

  /// `Expr.evaluate`: booleans come back as 0 or 1.
  /// - Throws: `UnassignedVariable` for the first unassigned variable the evaluation reads.
  @inlinable
  public func evaluate(_ valuation: [Int]) throws(UnassignedVariable) -> Int {
    // A lone constant or variable (most effects) needs no stack.
    if code.count == 2 {
      if code[0] == Op.constant { return code[1] }
      let v = valuation[code[1]]
      if v == unassigned { throw UnassignedVariable(index: code[1]) }
      return v
    }
    var missing = -1
    let result = code.withUnsafeBufferPointer { c in
      valuation.withUnsafeBufferPointer { v in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: stackSize) { stack in
          Self.run(c, v, stack.baseAddress!, &missing)
        }
      }
    }
    if missing >= 0 { throw UnassignedVariable(index: missing) }
    return result
  }

  /// `evaluate(_:) != 0`.
  @inlinable
  public func holds(_ valuation: [Int]) throws(UnassignedVariable) -> Bool {
    try evaluate(valuation) != 0
  }

  /// The postfix code and the stack it needs, for a table that keeps many expressions in one
  /// array (`TransitionSystem`'s decision table) and runs them with `run(code:valuation:stack:missing:)`.
  public var instructions: [Int] { code }
  public var stackDepth: Int { stackSize }

  /// Runs `instructions` (rebased to start at 0) over `valuation`, with a stack of at least
  /// `stackDepth`: the value, or 0 with `missing` set to the first unassigned variable read.
  @inlinable
  public static func run(
    code: UnsafeBufferPointer<Int>, valuation: UnsafeBufferPointer<Int>, stack: UnsafeMutablePointer<Int>,
    missing: inout Int
  ) -> Int {
    run(code, valuation, stack, &missing)
  }

  @inlinable
  static func run(
    _ c: UnsafeBufferPointer<Int>, _ v: UnsafeBufferPointer<Int>, _ stack: UnsafeMutablePointer<Int>,
    _ missing: inout Int
  ) -> Int {
    var pc = 0
    var top = -1
    while pc < c.count {
      switch c[pc] {
      case Op.constant:
        top += 1
        stack[top] = c[pc + 1]
        pc += 2
      case Op.variable, Op.variableEquals, Op.variableNotEquals, Op.variableMember:
        let value = v[c[pc + 1]]
        if value == unassigned {
          missing = c[pc + 1]
          return 0
        }
        top += 1
        switch c[pc] {
        case Op.variable:
          stack[top] = value
          pc += 2
        case Op.variableMember:
          stack[top] = isMember(value, c, at: pc + 2)
          pc += 3 + c[pc + 2]
        default:
          stack[top] = (value == c[pc + 2]) == (c[pc] == Op.variableEquals) ? 1 : 0
          pc += 3
        }
      case Op.not:
        stack[top] = stack[top] == 0 ? 1 : 0
        pc += 1
      case Op.equal:
        top -= 1
        stack[top] = stack[top] == stack[top + 1] ? 1 : 0
        pc += 1
      case Op.notEqual:
        top -= 1
        stack[top] = stack[top] != stack[top + 1] ? 1 : 0
        pc += 1
      case Op.less:
        top -= 1
        stack[top] = stack[top] < stack[top + 1] ? 1 : 0
        pc += 1
      case Op.lessOrEqual:
        top -= 1
        stack[top] = stack[top] <= stack[top + 1] ? 1 : 0
        pc += 1
      case Op.add:
        top -= 1
        stack[top] = Expr.saturating(stack[top].addingReportingOverflow(stack[top + 1]))
        pc += 1
      case Op.subtract:
        top -= 1
        stack[top] = Expr.saturating(stack[top].subtractingReportingOverflow(stack[top + 1]))
        pc += 1
      case Op.member:
        stack[top] = isMember(stack[top], c, at: pc + 1)
        pc += 2 + c[pc + 1]
      case Op.jumpIfZero:
        if stack[top] == 0 {
          pc = c[pc + 1]
        } else {
          top -= 1
          pc += 2
        }
      case Op.jumpIfNonZero:
        if stack[top] != 0 {
          stack[top] = 1
          pc = c[pc + 1]
        } else {
          top -= 1
          pc += 2
        }
      case Op.jumpIfZeroToOne:
        if stack[top] == 0 {
          stack[top] = 1
          pc = c[pc + 1]
        } else {
          top -= 1
          pc += 2
        }
      default:  // Op.bool
        stack[top] = stack[top] != 0 ? 1 : 0
        pc += 1
      }
    }
    return stack[top]
  }

  /// 1 when `value` is one of the n values that follow the count n at `c[at]`, else 0.
  @inlinable
  static func isMember(_ value: Int, _ c: UnsafeBufferPointer<Int>, at: Int) -> Int {
    for k in 0..<c[at] where c[at + 1 + k] == value { return 1 }
    return 0
  }
}
