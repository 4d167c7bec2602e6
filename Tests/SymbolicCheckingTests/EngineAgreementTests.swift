import Foundation
import ModelChecking
import ModelTestSupport
import SignInModel
import SymbolicChecking
import Testing

/// The test that matters most: the explicit engine and Z3 give the same verdict on every
/// invariant, on the shipped models, on hand-written broken models, and on seeded mutants.
@Suite("Explicit and symbolic engines agree")
struct EngineAgreementTests {
  static let models = ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"]

  enum Kind: String { case holds, violated, vacuous, unknown, notChecked }

  static func kind(_ v: Verdict) -> Kind {
    switch v {
    case .holds: return .holds
    case .violated: return .violated
    case .vacuous: return .vacuous
    case .notChecked: return .notChecked
    }
  }

  static func kind(_ v: ProofVerdict) -> Kind {
    switch v {
    case .proven: return .holds
    case .violated: return .violated
    case .vacuous: return .vacuous
    case .notChecked: return .notChecked
    case .unknown, .failed: return .unknown
    }
  }

  /// Both engines' verdicts per invariant (all the model has, or `invariants`), and a description
  /// of every disagreement. Z3's 600 s per query guards against a hang; it is not a timing condition.
  static func disagreements(
    _ model: SignInModel, engine: SymbolicChecker.Engine = .fixpoint, invariants: [Invariant]? = nil
  ) -> [String] {
    let explicit = ExplicitChecker(model: model, jobs: 1).check(invariants: invariants)
    var checker = SymbolicChecker(model: model, engine: engine, timeoutMilliseconds: 600_000)
    // No per-property budget (a hang guard of 600 s per query remains): verdicts, not speed.
    checker.limits = FixpointLimits(budgetSeconds: 0)
    let symbolic = checker.prove(invariants: invariants)
    var result: [String] = []
    for (e, s) in zip(explicit.results, symbolic.results) {
      if kind(e.verdict) != kind(s.verdict) {
        result.append("\(model.name) \(e.invariant): explicit says \(e.verdict), Z3 (\(engine)) says \(s.verdict)")
      }
    }
    return result
  }

  @Test("Z3 proves every invariant of every shipped model, unbounded", arguments: models)
  func shippedModelsProven(file: String) throws {
    let report = SymbolicChecker(model: try ModelLoader.load(file: file)).prove()
    for result in report.results {
      #expect(result.verdict == .proven, "\(file) \(result.invariant): \(result.verdict)")
    }
  }

  /// The shipped models' invariants checked by Spacer on a small chain (the long tier runs
  /// Spacer on the 2023 and 2024 models: `EngineAgreementLongTests`).
  @Test("Spacer agrees with the explicit engine on every property of a 5-state chain (smoke run)")
  func spacerSmoke() throws {
    let model = try CounterChain.model(length: 5)
    #expect(Self.disagreements(model, engine: .spacer) == [])
  }

  /// Hand-written broken models, at least one per invariant: (name, file, old text, new text, invariant that breaks).
  static let handWritten: [(String, String, String, String, Invariant)] =
    [
      (
        "unbounded wrong code", models[0],
        "        - when: \"flow.retries < 4\"\n          error: CodeMismatchException\n          set: {flow.retries: \"flow.retries + 1\"}\n        - when: \"flow.retries == 4\"\n          restart: \"NotAuthorizedException: five wrong MFA codes start the lockout\"",
        "        - error: CodeMismatchException", .terminates
      ),
      (
        "failAuthentication without restart", models[0],
        "      failingAnswer:\n        - restart: \"NotAuthorizedException: the define trigger failed authentication\"",
        "      failingAnswer:\n        - error: NotAuthorizedException", .failAuthenticationRestarts
      ),
      (
        "MFA skipped after a new password", models[1],
        "        - when: \"pool.authFlow != customWithSRP\"\n          goto: afterFirstFactor",
        "        - when: \"pool.authFlow != customWithSRP\"\n          goto: done", .noFactorSkipped
      ),
      (
        "SMS offered without a phone", models[1], "        SMS: \"smsActive\"", "        SMS: \"user.smsEnabled\"",
        .offersAreUsable
      ),
      (
        "two rules for one MFA decision", models[0],
        "    - when: \"pool.mfa == optional && !smsActive && !totpActive\"", "    - when: \"pool.mfa == optional\"",
        .deterministic
      ),
      (
        "a challenge step that claims to be signed in", models[0],
        "    summary: enter the code the authenticator app shows (SOFTWARE_TOKEN_MFA)",
        "    summary: enter the code the authenticator app shows (SOFTWARE_TOKEN_MFA)\n    isSignedIn: true",
        .isSignedInIffDone
      ),
      (
        "a counter past its domain", models[0], "flow.customRound: \"flow.customRound + 1\"",
        "flow.customRound: \"flow.customRound + 3\"", .staysInDomain
      ),
      (
        "TOTP setup never offered", models[0], "    - when: \"pool.totp\"\n      goto: continueSignInWithTOTPSetup",
        "    - when: \"pool.totp\"\n      restart: \"no setup\"", .stepsReachable
      ),
      ("SMS-only MFA setup counted as able to sign in", models[0], "&& !smsOnlySetupDeadEnd\"", "\"", .doneReachable),
    ] + FactPropertyTests.broken + PropertyAgreementTests.broken.map { ($0.0, $0.1, $0.2, $0.3, $0.4) }

  @Test(
    "on each hand-written broken model, Z3 reports the broken invariant with a replayed counterexample, and the engines agree",
    arguments: handWritten.indices)
  func handWrittenBrokenModels(index: Int) throws {
    let (name, file, old, new, invariant) = Self.handWritten[index]
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let range = try #require(text.range(of: old), "\(name): the text to replace is not in \(file)")
    let model = try ModelLoader.load(yaml: text.replacingCharacters(in: range, with: new), file: "broken.yaml")
    let proof = SymbolicChecker(model: model).prove(invariants: [invariant])
    guard case .violated(let c)? = proof.results.first?.verdict else {
      Issue.record("\(name): Z3 says \(String(describing: proof.results.first?.verdict))")
      return
    }
    #expect(c.invariant == invariant)
    #expect(Self.disagreements(model) == [], "\(name)")
  }

  /// The engines agree on every invariant of `count` seeded mutants of each of the 2023 and
  /// 2024 models; most mutants must break something, or the corpus tests little.
  static func checkMutants(count: Int) throws {
    var found: [String] = []
    var violatedSomewhere = 0
    for file in models.prefix(2) {
      let mutator = ModelMutator(model: try ModelLoader.load(file: file))
      for index in 0..<count {
        let (mutant, change) = mutator.mutant(seed: 2026, index: index)
        found += disagreements(mutant).map { "\($0) [mutant \(index): \(change)]" }
        // Broken means violated or vacuous: the mutants keep the model's facts, so nothing is NOT CHECKED.
        let results = ExplicitChecker(model: mutant, jobs: 1).check().results
        if results.contains(where: { [.violated, .vacuous].contains(Self.kind($0.verdict)) }) {
          violatedSomewhere += 1
        }
        #expect(!results.contains { Self.kind($0.verdict) == .notChecked }, "mutant \(index) lost its facts")
      }
    }
    #expect(found == [])
    #expect(violatedSomewhere > count / 2, "most mutants must break something, or the corpus tests little")
  }

  @Test("on the first 2 seeded mutants of the 2023 and 2024 models, the engines agree (smoke run)")
  func mutantsSmoke() throws {
    try Self.checkMutants(count: 2)
  }

  /// Negative literals (`-1`) in guards and updates, over a domain with a negative value.
  @Test("negative literals and domains: the engines agree, and an update to -2 leaves the domain for both")
  func negativeLiterals() throws {
    let text = try String(contentsOfFile: Self.models[0], encoding: .utf8)
    // -1 is in the domain but never reached: the same behaviour as the shipped model.
    let neutral =
      text
      .replacingOccurrences(of: "  flow.retries:\n    domain: 0..4", with: "  flow.retries:\n    domain: -1..4")
      .replacingOccurrences(
        of: "- when: \"flow.retries < 4\"", with: "- when: \"flow.retries < 4 && flow.retries != -1\"")
    #expect(neutral.contains("domain: -1..4") && neutral.contains("flow.retries != -1"))
    let model = try ModelLoader.load(yaml: neutral, file: "negative.yaml")
    #expect(Self.disagreements(model) == [])
    for result in SymbolicChecker(model: model).prove().results {
      #expect(result.verdict == .proven, "\(result.invariant): \(result.verdict)")
    }
    // A network fault sets -2, outside the domain.
    let update = try #require(neutral.range(of: "set: {flow.retries: \"flow.retries + 1\"}"))
    let outside = try ModelLoader.load(
      yaml: neutral.replacingCharacters(in: update, with: "set: {flow.retries: \"-2\"}"), file: "outside.yaml")
    let proof = SymbolicChecker(model: outside).prove(invariants: [.staysInDomain])
    guard case .violated(let counterexample)? = proof.results.first?.verdict else {
      Issue.record("Z3 says \(String(describing: proof.results.first?.verdict))")
      return
    }
    #expect(counterexample.invariant == .staysInDomain)
    #expect(counterexample.steps.last?.response == "networkFault")
    #expect(Self.disagreements(outside) == [])
  }
}
