import ModelChecking
import SignInModel
import Testing

/// `PartialExpr` evaluates exactly as `Expr.evaluatePartially` (Kleene's three values: nil
/// where an unassigned variable decides): on hand-written edge cases and on every constraint,
/// guard and effect of the shipped models over random partial valuations.
@Suite("Three-valued compiled expressions evaluate as the expression tree does")
struct PartialExprTests {
  @Test("unknown operands, short-circuits past them, and strict comparisons")
  func handWritten() {
    let x = Expr.variable(0)
    let y = Expr.variable(1)
    let cases: [(Expr, [Int], Int?)] = [
      (.and([y, .equal(x, .constant(1))]), [0, unassigned], 0),  // a false operand after an unknown one
      (.and([y, .equal(x, .constant(1))]), [1, unassigned], nil),
      (.or([y, .equal(x, .constant(1))]), [1, unassigned], 1),
      (.or([y, .equal(x, .constant(1))]), [0, unassigned], nil),
      (.implies(y, x), [0, unassigned], nil),
      (.implies(y, x), [3, unassigned], 1),
      (.implies(x, y), [0, unassigned], 1),
      (.not(y), [0, unassigned], nil),
      (.member(x, [2, 4]), [4, unassigned], 1),
      (.member(y, [2, 4]), [4, unassigned], nil),
      // Both sides known partially, but the strict evaluation of the left reads y first.
      (.equal(.and([y, .constant(0)]), .constant(0)), [0, unassigned], nil),
      (.add(x, .constant(1)), [Int.max, 0], Int.max),
      (.and([]), [unassigned, unassigned], 1),
      (.or([]), [unassigned, unassigned], 0),
    ]
    for (e, valuation, expected) in cases {
      #expect(e.evaluatePartially(valuation) == expected, "tree: \(e) over \(valuation)")
      #expect(PartialExpr(e).evaluate(valuation) == expected, "compiled: \(e) over \(valuation)")
    }
  }

  @Test("every constraint, guard and effect of a shipped model", arguments: CompiledExprTests.files)
  func shippedModels(file: String) throws {
    let model = try ModelLoader.load(file: file)
    let system = TransitionSystem(model: model)
    var expressions = model.constraints.map(\.expr)
    for branch in system.branches {
      expressions.append(branch.guardExpr)
      expressions += branch.orderedEffects.map(\.value)
    }
    var random = SplitMix64(seed: 12)
    var compared = 0
    var unknown = 0
    for e in Set(expressions) {
      let code = PartialExpr(e)
      for _ in 0..<40 {
        let valuation = model.variables.map { variable -> Int in
          switch random.next() % 4 {
          case 0: return unassigned
          default:
            let values = variable.domain.values
            return values[Int(random.next() % UInt64(values.count))]
          }
        }
        let tree = e.evaluatePartially(valuation)
        #expect(code.evaluate(valuation) == tree, "\(file): \(e) over \(valuation)")
        compared += 1
        if tree == nil { unknown += 1 }
      }
    }
    #expect(compared > 1000)
    #expect(unknown > 100, "the valuations leave some expressions undecided")
  }
}
