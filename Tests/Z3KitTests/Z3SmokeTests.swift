import Testing
import Z3Kit

@Suite("Z3 through its C API")
struct Z3SmokeTests {
  @Test("the linked library is Debian's Z3 4.8 or newer")
  func version() {
    let parts = z3Version().split(separator: ".").compactMap { Int($0) }
    #expect(parts.count == 4)
    #expect(parts[0] > 4 || (parts[0] == 4 && parts[1] >= 8))
  }

  @Test("2 < x < 4 is satisfiable with x = 3")
  func satisfiable() throws {
    let context = try Z3Context(timeoutMilliseconds: 5_000)
    let x = context.intConstant("x")
    let solver = try Z3Solver(context)
    solver.assert(x > context.int(2) && x < context.int(4))
    #expect(try solver.check() == .satisfiable)
    #expect(solver.integerValue(of: x) == 3)
  }

  @Test("x > 3 and x < 4 has no integer solution")
  func unsatisfiable() throws {
    let context = try Z3Context()
    let x = context.intConstant("x")
    let solver = try Z3Solver(context)
    solver.assert(x > context.int(3) && x < context.int(4))
    #expect(try solver.check() == .unsatisfiable)
    #expect(context.lastError == nil)
  }

  @Test("a Z3 error (adding a boolean to an integer) is thrown by the next query, not a crash")
  func errorsAreThrown() throws {
    let context = try Z3Context()
    let solver = try Z3Solver(context)
    let wrong = context.add(context.bool(true), context.int(1))
    solver.assert(context.equal(wrong, context.int(2)))
    #expect(throws: Z3Error.self) { try solver.check() }
    // The error is reported once; the context stays usable.
    let fresh = try Z3Solver(context)
    fresh.assert(context.intConstant("y") > context.int(0))
    #expect(try fresh.check() == .satisfiable)
  }
}

/// `propagatingEqualities`, which keeps the backward fixpoint's sets small on long chains.
@Suite("Equalities propagated within conjunctions")
struct EqualityPropagationTests {
  /// `n = c` beside the k bounds a chain of k guarded calls leaves: `n < 50, n < 49, …`.
  static func chainLayer(_ context: Z3Context, k: Int) -> Z3Term {
    let n = context.intConstant("n")
    let bounds = (0..<k).flatMap { i in
      [context.less(n, context.int(50 - i)), context.lessOrEqual(context.int(-1000 - i), n)]
    }
    return context.and(bounds + [context.equal(n, context.int(50 - k))])
  }

  @Test("the bounds an equality implies disappear, whatever the chain's length")
  func collapses() throws {
    let context = try Z3Context()
    for k in [1, 10, 200] {
      let tidy = context.simplify(context.propagatingEqualities(context.simplify(Self.chainLayer(context, k: k))))
      // Z3 writes a negative numeral as a negation: (- 150).
      let c = 50 - k
      #expect(tidy.description == "(= n \(c < 0 ? "(- \(-c))" : "\(c)"))")
    }
  }

  @Test("the result is equivalent: Z3 finds no valuation where they differ, under an or and a not")
  func equivalent() throws {
    let context = try Z3Context()
    let n = context.intConstant("n")
    let m = context.intConstant("m")
    let formula = context.or([
      Self.chainLayer(context, k: 5),
      context.not(
        context.and([context.equal(m, context.int(3)), context.less(m, n), context.equal(n, context.int(2))])),
      context.and([context.equal(n, context.int(1)), context.equal(n, context.int(2))]),
    ])
    let solver = try Z3Solver(context)
    solver.assert(context.not(context.equal(formula, context.propagatingEqualities(formula))))
    #expect(try solver.check() == .unsatisfiable)
  }
}
