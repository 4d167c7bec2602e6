import ModelChecking
import ModelTestSupport
import SignInModel
import SymbolicChecking
import Testing

/// The long tier of `LongChainTests` (`make test-long`): chains of 200 states, where the shared
/// safety fixpoint gives up and each property gets its own.
@Suite("Z3 on a 200-state chain (long tier)")
struct LongChainLongTests {
  @Test("a 200-state chain: done reachable, terminates and noFactorSkipped proven, as the explicit engine says")
  func longerChain() throws {
    let model = try CounterChain.model(length: 200)
    let explicit = ExplicitChecker(model: model, jobs: 1).check()
    let invariants: [Invariant] = [.doneReachable, .terminates, .noFactorSkipped]
    var checker = SymbolicChecker(model: model)
    // No per-property budget: the verdicts must not depend on the machine's speed.
    checker.limits = FixpointLimits(budgetSeconds: 0)
    let proof = checker.prove(invariants: invariants)
    for invariant in invariants {
      let e = explicit.results.first { $0.invariant == invariant }?.verdict
      let s = proof.results.first { $0.invariant == invariant }?.verdict
      #expect(s == .proven, "\(invariant): Z3 \(String(describing: s))")
      #expect(e.map(EngineAgreementTests.kind) == s.map(EngineAgreementTests.kind))
    }
  }

  @Test(
    "every property of a 200-state chain is decided, as the explicit engine decides it (the shared fixpoint gives up)")
  func everyPropertyOnLongerChain() throws {
    let model = try CounterChain.model(length: 200)
    let explicit = ExplicitChecker(model: model, jobs: 1).check()
    var checker = SymbolicChecker(model: model)
    // No per-property budget: the verdicts must not depend on the machine's speed.
    checker.limits = FixpointLimits(budgetSeconds: 0)
    let proof = checker.prove()
    for (e, s) in zip(explicit.results, proof.results) {
      #expect(
        EngineAgreementTests.kind(e.verdict) == EngineAgreementTests.kind(s.verdict),
        "\(e.invariant): explicit \(e.verdict), Z3 \(s.verdict)")
    }
  }
}
