import ModelChecking
import ModelTestSupport
import SignInModel
import Testing

/// The explicit search forks a class where a guard reads a variable the class has not fixed,
/// and each child waits with a copy of the graph explored so far: on a model whose every step
/// reads a new flag, the waiting children hold memory that grows with the square of the steps
/// (10,000 flags passed 8 GB and died). Past `maxPendingBytes` the search stops, UNKNOWN.
@Suite("The explicit search's pending-memory limit")
struct PendingMemoryLimitTests {
  @Test("past the limit the search stops and names it")
  func stops() throws {
    var checker = ExplicitChecker(model: try FlagChain.model(flags: 2_000), jobs: 2)
    checker.limits = ExplicitLimits(maxPendingBytes: 1 << 20)
    let report = checker.check(invariants: [.terminates, .doneReachable])
    let reason = try #require(report.incomplete)
    #expect(reason.hasPrefix("--max-pending-memory 1 MB reached (configuration classes waiting to be explored held"))
  }

  @Test("under the limit the search finishes with the verdicts it has without one")
  func underTheLimit() throws {
    let model = try FlagChain.model(flags: 10)
    var limited = ExplicitChecker(model: model, jobs: 2)
    limited.limits = ExplicitLimits(maxPendingBytes: 1 << 20)
    let report = limited.check()
    #expect(report.incomplete == nil)
    let unlimited = ExplicitChecker(model: model, jobs: 2).check()
    #expect(report.results.map(\.verdict) == unlimited.results.map(\.verdict))
    #expect(report.statistics.states == unlimited.statistics.states)
  }
}
