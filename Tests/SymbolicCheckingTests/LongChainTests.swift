import ModelChecking
import ModelTestSupport
import SignInModel
import SymbolicChecking
import Testing

/// Issue 14: a linear chain of 50 states (`CounterChain`), one call each, used to take Z3
/// minutes. The verdicts must match the explicit engine's; the trace must be the full chain.
@Suite("Z3 on a long linear chain of states")
struct LongChainTests {
  @Test("every property of a 50-state chain gets the explicit engine's verdict from Z3")
  func agreesOnChain() throws {
    let model = try CounterChain.model(length: 50)
    let explicit = ExplicitChecker(model: model, jobs: 1).check()
    let proof = SymbolicChecker(model: model).prove()
    for (e, s) in zip(explicit.results, proof.results) {
      #expect(
        EngineAgreementTests.kind(e.verdict) == EngineAgreementTests.kind(s.verdict),
        "\(e.invariant): explicit \(e.verdict), Z3 \(s.verdict)")
    }
    #expect(proof.results.first { $0.invariant == .doneReachable }?.verdict == .proven)
  }

  @Test("a violation at the end of a 50-state chain has Z3's shortest trace: the whole chain, 52 calls")
  func violationAtTheEnd() throws {
    let model = try CounterChain.model(length: 50, verifies: "mfa")
    let proof = SymbolicChecker(model: model).prove(invariants: [.noFactorSkipped])
    guard case .violated(let c)? = proof.results.first?.verdict else {
      Issue.record("Z3 says \(String(describing: proof.results.first?.verdict))")
      return
    }
    #expect(c.length == 52)
  }

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
