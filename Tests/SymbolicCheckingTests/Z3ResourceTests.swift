import Foundation
import SignInModel
import SymbolicChecking
import Testing
import Z3Kit

@Suite("Z3 resources")
struct Z3ResourceTests {
  static let childVariable = "SIGNIN_SPEC_MEMORY_CHILD"

  /// Runs `count` small Z3 queries, each in a new context, and drops everything.
  static func queries(_ count: Int) throws {
    for i in 0..<count {
      let context = try Z3Context(timeoutMilliseconds: 1_000)
      let x = context.intConstant("x")
      let y = context.intConstant("y")
      let solver = try Z3Solver(context)
      solver.assert(context.and([x < y, y < context.int(i % 7), context.int(0) < x]))
      _ = try solver.check()
      _ = context.simplify(context.or([x == y, context.not(x == y)]))
    }
  }

  /// The measurement itself. It only runs inside the child process the next test starts,
  /// because the other suites use Z3 concurrently and would move the process-wide count.
  @Test(
    "(child process) Z3's allocated bytes return to the same level after 1,000 more queries",
    .enabled(if: ProcessInfo.processInfo.environment["SIGNIN_SPEC_MEMORY_CHILD"] == "1"))
  func measureInIsolation() throws {
    // Z3's own allocation count, not RSS: it does not depend on the system allocator keeping
    // freed pages, so a leak of even one context per query (tens of KB) shows as growth.
    try Self.queries(100)
    let warm = z3AllocatedBytes()
    try Self.queries(1_000)
    let middle = z3AllocatedBytes()
    try Self.queries(1_000)
    let after = z3AllocatedBytes()
    print("Z3 allocated bytes after 100 / 1,100 / 2,100 queries: \(warm) / \(middle) / \(after)")
    #expect(after <= middle + 64 * 1024, "Z3's allocations grew from \(middle) to \(after) bytes over 1,000 queries")
    #expect(middle <= warm + 64 * 1024, "Z3's allocations grew from \(warm) to \(middle) bytes over 1,000 queries")
  }

  @Test("thousands of queries do not grow memory (reference counts are balanced), measured in a separate process")
  func noGrowth() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--testing-library", "swift-testing", "--filter", "Z3ResourceTests/measureInIsolation"]
    var environment = ProcessInfo.processInfo.environment
    environment[Self.childVariable] = "1"
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(
      output.contains("Z3 allocated bytes after 100 / 1,100 / 2,100 queries"),
      "the child did not measure:\n\(output)")
    #expect(process.terminationStatus == 0, "\(output)")
  }

  @Test("a query that runs out of its resource limit reports unknown, never proven (same on any machine)")
  func resourceLimit() throws {
    let model = try ModelLoader.load(file: "models/2024-flutter.yaml")
    // Spacer's fixedpoint queries have no `rlimit` in Z3; its time limit is the --timeout path.
    for engine in [SymbolicChecker.Engine.fixpoint] {
      let checker = SymbolicChecker(model: model, engine: engine, resourceLimit: 1)
      let report = checker.prove(invariants: [.offersAreUsable])
      guard case .unknown(let reason)? = report.results.first?.verdict else {
        Issue.record("\(engine): expected unknown, got \(String(describing: report.results.first?.verdict))")
        continue
      }
      #expect(reason.contains("resource limit"), "\(engine): \(reason)")
    }
  }

  @Test("one Z3 query past a tiny resource limit answers unknown with Z3's reason")
  func solverResourceLimit() throws {
    let context = try Z3Context(resourceLimit: 1)
    // 40 integers strictly increasing from above 0 to below 40: unsatisfiable, but only after
    // arithmetic reasoning that needs far more than one unit of work.
    let xs = (0..<40).map { context.intConstant("x\($0)") }
    let solver = try Z3Solver(context)
    let chain = zip(xs, xs.dropFirst()).map { $0 < $1 }
    solver.assert(context.and(chain + [context.int(0) < xs[0], xs[39] < context.int(40)]))
    guard case .unknown(let reason) = try solver.check() else {
      Issue.record("expected unknown")
      return
    }
    #expect(reason.contains("resource limit") || reason.contains("canceled"), "\(reason)")
  }
}
