import ModelChecking
import ModelTestSupport
import SignInModel
import SymbolicChecking
import Testing

/// A linear chain of 50 states (`CounterChain`), one call each, used to take Z3 minutes. The
/// verdicts must match the explicit engine's; the trace must be the full chain. The 200-state
/// chains are in the long tier (`LongChainLongTests`).
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
}
