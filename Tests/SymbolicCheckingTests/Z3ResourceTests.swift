import Foundation
import Testing
import SignInModel
import SymbolicChecking
import Z3Kit

@Suite("Z3 resources")
struct Z3ResourceTests {
  /// Resident set size in KiB, from /proc.
  static func residentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
  }

  static let childVariable = "SIGNIN_SPEC_MEMORY_CHILD"

  /// Runs `count` small Z3 queries, each in a new context, and drops everything.
  static func queries(_ count: Int) throws {
    for i in 0..<count {
      let context = try Z3Context(timeoutMilliseconds: 1_000)
      let x = context.intConstant("x"), y = context.intConstant("y")
      let solver = try Z3Solver(context)
      solver.assert(context.and([x < y, y < context.int(i % 7), context.int(0) < x]))
      _ = try solver.check()
      _ = context.simplify(context.or([x == y, context.not(x == y)]))
    }
  }

  /// The measurement itself. It only runs inside the child process the next test starts,
  /// because the other suites allocate concurrently and would move this process's RSS.
  @Test("(child process) RSS stays on its plateau over 1,000 more queries",
        .enabled(if: ProcessInfo.processInfo.environment["SIGNIN_SPEC_MEMORY_CHILD"] == "1"))
  func measureInIsolation() throws {
    // The allocator keeps freed pages for reuse, so the first batch raises RSS to a
    // plateau; a leak keeps growing with every batch after it.
    try Self.queries(1_000)
    let plateau = Self.residentKiB()
    try Self.queries(1_000)
    let middle = Self.residentKiB()
    try Self.queries(1_000)
    let after = Self.residentKiB()
    print("RSS after 1,000 / 2,000 / 3,000 queries: \(plateau) / \(middle) / \(after) KiB")
    #expect(after - middle < 8_000, "RSS grew from \(middle) KiB to \(after) KiB over 1,000 more queries")
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
    #expect(output.contains("RSS after 1,000 / 2,000 / 3,000 queries"), "the child did not measure:\n\(output)")
    #expect(process.terminationStatus == 0, "\(output)")
  }

  @Test("a query that runs out of time reports unknown, never proven")
  func timeout() throws {
    let model = try ModelLoader.load(file: "models/2024-flutter.yaml")
    let report = SymbolicChecker(model: model, engine: .spacer, timeoutMilliseconds: 20).prove(invariants: [.offersAreUsable])
    guard case .unknown(let reason)? = report.results.first?.verdict else {
      Issue.record("expected unknown, got \(String(describing: report.results.first?.verdict))")
      return
    }
    #expect(reason.contains("time limit"))
  }
}
