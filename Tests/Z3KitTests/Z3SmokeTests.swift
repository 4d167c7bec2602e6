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
  func satisfiable() {
    let context = Z3Context(timeoutMilliseconds: 5_000)
    let x = context.intConstant("x")
    let solver = Z3Solver(context)
    solver.assert(x > context.int(2) && x < context.int(4))
    #expect(solver.check() == .satisfiable)
    #expect(solver.integerValue(of: x) == 3)
  }

  @Test("x > 3 and x < 4 has no integer solution")
  func unsatisfiable() {
    let context = Z3Context()
    let x = context.intConstant("x")
    let solver = Z3Solver(context)
    solver.assert(x > context.int(3) && x < context.int(4))
    #expect(solver.check() == .unsatisfiable)
    #expect(context.lastError == nil)
  }
}
