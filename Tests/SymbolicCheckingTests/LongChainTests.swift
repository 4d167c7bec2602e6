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

/// Z3 on a chain of steps, where step k is k + 1 calls from signIn: its bounded searches, whose
/// queries grow steeply with the depth, stop at their work limit; for `stepsReachable`
/// backward fixpoints, and the simulation of the configuration each gives, witness the rest.
@Suite("Z3 on a long chain of steps")
struct StepChainReachabilityTests {
  @Test("a dead end after a 50-step chain: terminates is VIOLATED with the whole chain as its trace")
  func deadEnd() throws {
    let model = try StepChain.model(length: 50, deadEnd: true)
    let result = try #require(SymbolicChecker(model: model).prove(invariants: [.terminates]).results.first)
    guard case .violated(let counterexample) = result.verdict else {
      Issue.record("Z3 says \(result.verdict)")
      return
    }
    #expect(counterexample.length == 52)
  }

  @Test("a 50-step chain: every step reachable, most witnessed through a fixpoint's configuration")
  func proven() throws {
    let model = try StepChain.model(length: 50)
    let result = try #require(SymbolicChecker(model: model).prove(invariants: [.stepsReachable]).results.first)
    #expect(result.verdict == .proven, "\(result.verdict)")
    #expect(result.method.contains("simulation the other"), "\(result.method)")
  }

  @Test("a 50-step chain with a step nothing leads to: that step, and only it, is unreachable")
  func orphan() throws {
    let model = try StepChain.model(length: 50, orphan: true)
    let result = try #require(SymbolicChecker(model: model).prove(invariants: [.stepsReachable]).results.first)
    guard case .violated(let counterexample) = result.verdict else {
      Issue.record("Z3 says \(result.verdict)")
      return
    }
    #expect(counterexample.message == "unreachable under every configuration: orphan")
  }

  @Test("the safety properties' shared fixpoint gives up after 16 iterations: on a 50-step chain each is proven alone")
  func sharedFixpointGivesUp() throws {
    let model = try StepChain.model(length: 50)
    let results = SymbolicChecker(model: model).prove(invariants: [.noFactorSkipped, .deterministic, .staysInDomain])
      .results
    for result in results {
      #expect(result.verdict == .proven, "\(result.invariant): \(result.verdict)")
      #expect(!result.method.contains("one fixpoint for"), "\(result.invariant): \(result.method)")
    }
    #expect(results.first { $0.invariant == .noFactorSkipped }?.method.contains("50 iterations") == true)
  }

  @Test("the fixpoints after the bounded search keep --max-iterations: with 2, stepsReachable is UNKNOWN naming it")
  func limits() throws {
    let model = try StepChain.model(length: 50)
    var checker = SymbolicChecker(model: model)
    checker.limits = FixpointLimits(maxIterations: 2, budgetSeconds: 0)
    let result = try #require(checker.prove(invariants: [.stepsReachable]).results.first)
    guard case .unknown(let reason) = result.verdict else {
      Issue.record("Z3 says \(result.verdict)")
      return
    }
    #expect(reason.contains("(--max-iterations 2)"), "\(reason)")
  }
}
