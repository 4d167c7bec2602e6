import Conformance
import Scenarios
import SignInClient
import SignInModel
import SimulatedCognito
import Testing

/// The models' fault classes (`serviceError`, `setupFault`, `networkFault` on the
/// second request) as the harness gives them to the reference client on the simulated pool.
@Suite("Faults on any request: documented errors, 5xx, unreadable bodies, the second request")
struct FaultTests {
  static let model = Result { try ModelLoader.load(file: "models/2026-all-platforms.yaml") }

  /// The model's default configuration with `overrides`, checked as `--set` is.
  static func configuration(_ overrides: [String: String]) throws -> [String: String] {
    try ConfigurationResolver(model: try Self.model.get()).resolve(overrides.map { (name: $0.key, value: $0.value) })
  }

  /// A user who must set a new password in a pool that requires TOTP: the new password
  /// leads to TOTP setup (RespondToAuthChallenge, then AssociateSoftwareToken).
  static let newPasswordThenTOTPSetup = [
    "pool.authFlow": "userPassword", "user.status": "forceChangePassword", "pool.mfa": "required",
    "pool.totp": "true",
  ]

  @Test(
    "a documented Cognito error at a challenge keeps it, is shown by its type and redacted",
    arguments: ["TooManyRequestsException", "InternalErrorException", "LimitExceededException"])
  func documentedError(type: String) async throws {
    let harness = Harness(model: try Self.model.get())
    var run = try #require(harness.start(try Self.configuration(["pool.authFlow": "customWithoutSRP"])))
    let first = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run)
    #expect(first.disagreement == nil)
    let record = try await harness.perform(Harness.Call(response: "serviceError", error: type), on: &run)
    #expect(record.expectedException == type)
    #expect(record.disagreement == nil, "\(record.disagreement?.description ?? "")")
    guard case .threw(let error, let now) = record.observation.outcome else {
      Issue.record("\(type) returned a step")
      return
    }
    #expect(ErrorType.name(of: error) == type)
    #expect(now?.name == "confirmSignInWithCustomChallenge")
    #expect(error.description.contains("[redacted]"), "the pool echoes the answer: \(error)")
    let retry = try await harness.perform(Harness.Call(response: "correctAnswer"), on: &run)
    #expect(retry.disagreement == nil, "\(retry.disagreement?.description ?? "")")
  }

  @Test(
    "a 5xx without an error body and an unreadable body keep the challenge as invalidServiceResponse",
    arguments: [SimulatedFault.serverError, .malformedBody])
  func unreadableAnswer(fault: SimulatedFault) async throws {
    let harness = Harness(model: try Self.model.get())
    var run = try #require(harness.start(try Self.configuration(["pool.authFlow": "customWithoutSRP"])))
    _ = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run)
    let record = try await harness.perform(Harness.Call(response: "serviceError", fault: fault), on: &run)
    #expect(record.expectedException == "SignInError.invalidServiceResponse")
    #expect(record.disagreement == nil, "\(record.disagreement?.description ?? "")")
  }

  @Test("a documented error at signIn ends the flow, shown by its type")
  func documentedErrorAtSignIn() async throws {
    let harness = Harness(model: try Self.model.get())
    var run = try #require(harness.start(try Self.configuration(["pool.authFlow": "userPassword"])))
    let record = try await harness.perform(
      Harness.Call(response: "serviceError", error: "TooManyRequestsException"), on: &run)
    #expect(record.expectedException == "TooManyRequestsException")
    #expect(record.disagreement == nil, "\(record.disagreement?.description ?? "")")
  }

  @Test("a fault on AssociateSoftwareToken after a good new password ends the flow; a new signIn works")
  func setupFault() async throws {
    let harness = Harness(model: try Self.model.get())
    var run = try #require(harness.start(try Self.configuration(Self.newPasswordThenTOTPSetup)))
    let first = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run)
    #expect(first.stepBefore == "signIn")
    let record = try await harness.perform(Harness.Call(response: "setupFault", faultRequest: 1), on: &run)
    guard case .restart = record.expected else {
      Issue.record("the model expects \(record.expected) after a setup fault")
      return
    }
    #expect(record.disagreement == nil, "\(record.disagreement?.description ?? "")")
    #expect(run.flowEnded)
    let again = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run)
    #expect(again.disagreement == nil, "\(again.disagreement?.description ?? "")")
  }

  @Test("a fault on RespondToAuthChallenge after VerifySoftwareToken keeps the TOTP setup; the retry signs in")
  func faultAfterVerify() async throws {
    let harness = Harness(model: try Self.model.get())
    var run = try #require(harness.start(try Self.configuration(Self.newPasswordThenTOTPSetup)))
    _ = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run)
    let setup = try await harness.perform(Harness.Call(response: "goodNewPassword"), on: &run)
    guard case .step("continueSignInWithTOTPSetup") = setup.expected else {
      Issue.record("the new password leads to \(setup.expected)")
      return
    }
    let fault = try await harness.perform(Harness.Call(response: "networkFault", faultRequest: 1), on: &run)
    #expect(fault.disagreement == nil, "\(fault.disagreement?.description ?? "")")
    // The retry verifies its code again with the session VerifySoftwareToken returned.
    let again = try await harness.perform(
      Harness.Call(response: "serviceError", error: "InternalErrorException"), on: &run)
    #expect(again.disagreement == nil, "\(again.disagreement?.description ?? "")")
    let retry = try await harness.perform(Harness.Call(response: "correctCode"), on: &run)
    #expect(retry.expected == .step("done"))
    #expect(retry.disagreement == nil, "\(retry.disagreement?.description ?? "")")
  }

  @Test(
    "after a fault on RespondToAuthChallenge at the TOTP setup, a bad code on the retry is an error, never a sign-in",
    arguments: ["wrongCode", "malformedCode", "expiredCode"])
  func badCodeAfterVerify(code: String) async throws {
    let harness = Harness(model: try Self.model.get())
    let totpRequired = ["pool.authFlow": "userPassword", "pool.mfa": "required", "pool.totp": "true"]
    var run = try #require(harness.start(try Self.configuration(totpRequired)))
    let setup = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run)
    guard case .step("continueSignInWithTOTPSetup") = setup.expected else {
      Issue.record("the password leads to \(setup.expected)")
      return
    }
    let fault = try await harness.perform(
      Harness.Call(response: "serviceError", faultRequest: 1, error: "LimitExceededException"), on: &run)
    #expect(fault.disagreement == nil, "\(fault.disagreement?.description ?? "")")
    let bad = try await harness.perform(Harness.Call(response: code), on: &run)
    guard case .error(_, stays: "continueSignInWithTOTPSetup") = bad.expected else {
      Issue.record("the model expects \(bad.expected) for \(code)")
      return
    }
    #expect(bad.disagreement == nil, "\(bad.disagreement?.description ?? "")")
    let retry = try await harness.perform(Harness.Call(response: "correctCode"), on: &run)
    #expect(retry.expected == .step("done"))
    #expect(retry.disagreement == nil, "\(retry.disagreement?.description ?? "")")
  }

  @Test("a fault the call never reaches is refused, not counted as a pass")
  func unreachedFault() async throws {
    let harness = Harness(model: try Self.model.get())
    var run = try #require(harness.start(try Self.configuration(["pool.authFlow": "customWithoutSRP"])))
    await #expect(throws: Harness.Refusal.faultNotReached(request: 1)) {
      _ = try await harness.perform(Harness.Call(response: "setupFault"), on: &run)
    }
  }
}
