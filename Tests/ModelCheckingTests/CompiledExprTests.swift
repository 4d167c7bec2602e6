import ModelChecking
import SignInModel
import Testing

/// `CompiledExpr` evaluates exactly as `Expr.evaluate`: the same value, and the same first
/// unassigned variable when it stops, on every guard, effect and property predicate of the
/// shipped models over random valuations (assigned, unassigned and far out of domain).
@Suite("Compiled expressions evaluate as the expression tree does")
struct CompiledExprTests {
  static let files = ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"]

  /// The value, or the index of the unassigned variable the evaluation stopped at.
  static func outcome(_ evaluate: () throws(UnassignedVariable) -> Int) -> Result<Int, UnassignedVariable> {
    do { return .success(try evaluate()) } catch { return .failure(error) }
  }

  static func same(_ e: Expr, _ valuation: [Int]) -> Bool {
    let tree = outcome { () throws(UnassignedVariable) in try e.evaluate(valuation) }
    let code = outcome { () throws(UnassignedVariable) in try CompiledExpr(e).evaluate(valuation) }
    switch (tree, code) {
    case (.success(let a), .success(let b)): return a == b
    case (.failure(let a), .failure(let b)): return a.index == b.index
    default: return false
    }
  }

  @Test("short-circuits, saturation and the first unassigned variable")
  func handWritten() {
    let x = Expr.variable(0)
    let y = Expr.variable(1)
    let cases: [(Expr, [Int])] = [
      (.and([.equal(x, .constant(1)), .less(y, .constant(3))]), [0, unassigned]),  // stops before y
      (.and([.equal(x, .constant(1)), .less(y, .constant(3))]), [1, unassigned]),  // reads y
      (.or([.equal(x, .constant(1)), y]), [1, unassigned]),
      (.or([.equal(x, .constant(1)), y]), [0, 5]),  // normalised to 1
      (.implies(x, y), [0, unassigned]),
      (.implies(x, y), [2, 7]),
      (.add(x, y), [Int.max, 1]),  // saturates
      (.subtract(x, y), [unassigned + 1, 1]),
      (.add(x, y), [unassigned + 1, -1]),
      (.member(.add(x, .constant(1)), [2, 4]), [3, 0]),
      (.not(.and([])), [0, 0]),
      (.or([]), [0, 0]),
      (.notEqual(y, x), [unassigned, unassigned]),  // y first
    ]
    for (e, valuation) in cases { #expect(Self.same(e, valuation), "\(e) over \(valuation)") }
  }

  @Test("every expression of the transition system", arguments: files)
  func shippedModels(file: String) throws {
    let model = try ModelLoader.load(file: file)
    let system = TransitionSystem(model: model)
    var expressions: [Expr] = []
    for branch in system.branches {
      expressions.append(branch.guardExpr)
      expressions += branch.orderedEffects.map(\.value)
    }
    func alternatives(_ d: TransitionSystem.Decision) {
      for a in d.alternatives {
        expressions.append(a.guardExpr)
        if case .decision(let sub) = a.next { alternatives(sub) }
      }
    }
    for perStep in system.decisions { perStep.forEach(alternatives) }
    for check in system.propertyChecks {
      expressions.append(check.predicate.initial)
      expressions += check.predicate.afterBranch
    }
    expressions +=
      system.stateChecks.flatMap { $0.map(\.condition) } + system.branchChecks.flatMap { $0.map(\.condition) }
    var random = SplitMix64(seed: 11)
    var compared = 0
    for e in Set(expressions) {
      let code = CompiledExpr(e)
      for _ in 0..<40 {
        let valuation = model.variables.map { variable -> Int in
          switch random.next() % 10 {
          case 0: return unassigned
          case 1: return Int(truncatingIfNeeded: random.next())
          default:
            let values = variable.domain.values
            return values[Int(random.next() % UInt64(values.count))]
          }
        }
        let tree = Self.outcome { () throws(UnassignedVariable) in try e.evaluate(valuation) }
        let compiled = Self.outcome { () throws(UnassignedVariable) in try code.evaluate(valuation) }
        switch (tree, compiled) {
        case (.success(let a), .success(let b)): #expect(a == b)
        case (.failure(let a), .failure(let b)): #expect(a.index == b.index)
        default: Issue.record("\(file): \(e) differs over \(valuation): \(tree) vs \(compiled)")
        }
        compared += 1
      }
    }
    #expect(compared > 1000)
  }
}
