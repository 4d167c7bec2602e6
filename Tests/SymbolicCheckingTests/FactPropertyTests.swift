import Foundation
import ModelChecking
import SignInModel
import SymbolicChecking
import Testing

/// The properties that read step facts: each has a broken model (a text edit of a shipped
/// one) that it catches and no other property does, in both engines, with a trace.
@Suite("Fact properties catch their broken models")
struct FactPropertyTests {
  static let models = EngineAgreementTests.models

  /// (name, file, old text, new text, the only property that breaks).
  static let broken: [(String, String, String, String, Invariant)] = [
    (
      "a new password resets the failed-attempt count", models[0],
      "        - when: \"pool.authFlow != customWithSRP\"\n          goto: afterFirstFactor",
      "        - when: \"pool.authFlow != customWithSRP\"\n          goto: afterFirstFactor\n          set: {flow.retries: 0}",
      .boundedFailures
    ),
    (
      "a preferred TOTP user is asked to select", models[0],
      """
          - when: "pool.mfa != off && totpActive && (user.preferred == totp || !smsActive)"
            goto: confirmSignInWithTOTPCode
          - when: "pool.mfa != off && smsActive && (user.preferred == sms || !totpActive)"
            goto: confirmSignInWithSMSMFACode
          - when: "pool.mfa != off && smsActive && totpActive && user.preferred == none"
      """,
      """
          - when: "pool.mfa != off && totpActive && !smsActive"
            goto: confirmSignInWithTOTPCode
          - when: "pool.mfa != off && smsActive && !totpActive"
            goto: confirmSignInWithSMSMFACode
          - when: "pool.mfa != off && smsActive && totpActive"
      """,
      .preferredMFAHonoured
    ),
    (
      "a user without a phone is sent an SMS code", models[0],
      "      restart: \"SignInError.invalidServiceResponse: Cannot initiate MFA setup from available types [SMS]\"",
      "      goto: confirmSignInWithSMSMFACode", .challengesUsableFactor
    ),
    (
      "a wrong code marks MFA verified but stays an error", models[0],
      "          error: CodeMismatchException\n          set: {flow.retries: \"flow.retries + 1\"}",
      "          error: CodeMismatchException\n          set: {flow.retries: \"flow.retries + 1\"}\n          verifies: mfa",
      .failedResponseNeverVerifies
    ),
  ]

  static func load(_ index: Int) throws -> SignInModel {
    let (name, file, old, new, _) = broken[index]
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let range = try #require(text.range(of: old), "\(name): the text to replace is not in \(file)")
    return try ModelLoader.load(yaml: text.replacingCharacters(in: range, with: new), file: "broken.yaml")
  }

  @Test(
    "each broken model breaks exactly its property in the explicit engine, with a non-empty trace",
    arguments: broken.indices)
  func explicitCatchesOnlyItsProperty(index: Int) throws {
    let (name, _, _, _, invariant) = Self.broken[index]
    let report = ExplicitChecker(model: try Self.load(index), jobs: 1).check()
    let failing = report.results.filter {
      if case .holds = $0.verdict { return false }
      return true
    }.map(\.invariant)
    #expect(failing == [invariant], "\(name)")
    guard case .violated(let c)? = report.results.first(where: { $0.invariant == invariant })?.verdict else { return }
    #expect(!c.steps.isEmpty && !c.configuration.isEmpty, "\(name): the counterexample has a trace")
  }

  @Test(
    "Z3 refutes each broken model's property with a replayed counterexample, and the engines agree",
    arguments: broken.indices)
  func symbolicCatchesItsProperty(index: Int) throws {
    let (name, _, _, _, invariant) = Self.broken[index]
    let model = try Self.load(index)
    let proof = SymbolicChecker(model: model).prove(invariants: [invariant])
    guard case .violated(let c)? = proof.results.first?.verdict else {
      Issue.record("\(name): Z3 says \(String(describing: proof.results.first?.verdict))")
      return
    }
    #expect(c.invariant == invariant && !c.steps.isEmpty)
    #expect(EngineAgreementTests.disagreements(model) == [], "\(name)")
  }

  @Test("both engines prove the fact properties on every shipped model", arguments: models)
  func shippedModelsKeepThem(file: String) throws {
    let model = try ModelLoader.load(file: file)
    let properties = Invariant.allCases.filter(FactProperties.all.contains)
    let explicit = ExplicitChecker(model: model, jobs: 1).check(invariants: properties)
    for result in explicit.results { #expect(result.verdict == .holds, "\(file) \(result.invariant)") }
    for result in SymbolicChecker(model: model).prove(invariants: properties).results {
      #expect(result.verdict == .proven, "\(file) \(result.invariant): \(result.verdict)")
    }
  }
}
