import ModelTestSupport
import SignInModel
import SymbolicChecking
import Testing

/// A fixpoint that does not converge within its limits ends the property with
/// UNKNOWN and the limit named, instead of running for an hour.
@Suite("Z3 fixpoints stop at their limits with UNKNOWN")
struct FixpointLimitTests {
  @Test("a 50-state chain needs about 50 iterations: with a limit of 5, each fixpoint property is UNKNOWN")
  func iterationLimit() throws {
    let model = try CounterChain.model(length: 50)
    var checker = SymbolicChecker(model: model)
    checker.limits = FixpointLimits(maxIterations: 5, budgetSeconds: 0)
    let proof = checker.prove(invariants: [.doneReachable, .terminates, .noFactorSkipped])
    for result in proof.results {
      #expect(
        result.verdict == .unknown(reason: "no fixpoint after 5 iterations, the limit (--max-iterations 5)"),
        "\(result.invariant): \(result.verdict)")
    }
  }

  @Test("the same chain with the default limits is proven: the limit, not the chain, made it UNKNOWN")
  func defaultLimitsProve() throws {
    let model = try CounterChain.model(length: 50)
    let proof = SymbolicChecker(model: model).prove(invariants: [.doneReachable, .terminates, .noFactorSkipped])
    #expect(proof.results.allSatisfy { $0.verdict == .proven }, "\(proof.results.map(\.verdict))")
  }
}
