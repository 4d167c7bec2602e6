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
