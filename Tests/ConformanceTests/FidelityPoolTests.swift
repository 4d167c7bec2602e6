import Conformance
import Foundation
import ModelChecking
import Scenarios
import SignInModel
import Testing

/// Cognito fidelity: each new behaviour, on the simulated pool with the reference client, call by call
/// against the 2026 model (the harness compares every call with the model's outcome).
@Suite("Cognito fidelity behaviours on the simulated pool")
struct FidelityPoolTests {
  static let model = Result { try ModelLoader.load(file: "models/2026-all-platforms.yaml") }

  /// The model's defaults with `settings` over them, checked as `--set` is.
  static func configuration(_ settings: [String: String]) throws -> [String: String] {
    try ConfigurationResolver(model: try Self.model.get()).resolve(settings.map { (name: $0.key, value: $0.value) })
  }

  /// Runs `responses` from signIn and returns what the model expected at each call; fails the
  /// test on the first disagreement between the client and the model.
  static func run(_ settings: [String: String], _ responses: [String]) async throws -> [TraceOutcome] {
    let harness = Harness(model: try model.get())
    var run = try #require(harness.start(try configuration(settings)), "the harness covers \(settings)")
    var outcomes: [TraceOutcome] = []
    for response in responses {
      let record = try await harness.perform(Harness.Call(response: response), on: &run)
      #expect(record.disagreement == nil, "\(response): \(String(describing: record.disagreement))")
      outcomes.append(record.expected)
    }
    return outcomes
  }

  static let flow = ["pool.authFlow": "userPassword"]
  static let sms = flow.merging([
    "pool.mfa": "optional", "pool.sms": "true", "user.phone": "true",
    "user.smsEnabled": "true",
  ]) { $1 }
  static let totp = flow.merging([
    "pool.mfa": "optional", "pool.totp": "true", "user.totpRegistered": "true",
    "user.totpEnabled": "true",
  ]) { $1 }
  static let totpSetup = flow.merging(["pool.mfa": "required", "pool.totp": "true"]) { $1 }

  @Test("a wrong TOTP setup code is EnableSoftwareTokenMFAException; the session is kept and the right code signs in")
  func totpSetupWrongCode() async throws {
    let outcomes = try await Self.run(Self.totpSetup, ["correctPassword", "wrongCode", "correctCode"])
    #expect(
      outcomes == [
        .step("continueSignInWithTOTPSetup"),
        .error("EnableSoftwareTokenMFAException", stays: "continueSignInWithTOTPSetup"), .step("done"),
      ])
  }

  @Test("a malformed code is InvalidParameterException at TOTP setup and at the SMS step; the flow is kept")
  func malformedCode() async throws {
    #expect(
      try await Self.run(Self.totpSetup, ["correctPassword", "malformedCode", "correctCode"])[1]
        == .error("InvalidParameterException", stays: "continueSignInWithTOTPSetup"))
    #expect(
      try await Self.run(Self.sms, ["correctPassword", "malformedCode", "correctCode"]) == [
        .step("confirmSignInWithSMSMFACode"),
        .error("InvalidParameterException", stays: "confirmSignInWithSMSMFACode"), .step("done"),
      ])
  }

  @Test("a reused TOTP code is ExpiredCodeException and the flow is kept; five failures end it")
  func expiredCode() async throws {
    #expect(
      try await Self.run(Self.totp, ["correctPassword", "expiredCode", "correctCode"]) == [
        .step("confirmSignInWithTOTPCode"), .error("ExpiredCodeException", stays: "confirmSignInWithTOTPCode"),
        .step("done"),
      ])
    let five = try await Self.run(
      Self.totp, ["correctPassword", "expiredCode", "wrongCode", "malformedCode", "expiredCode", "expiredCode"])
    guard case .restart = five.last else {
      Issue.record("the fifth failed attempt must end the flow, got \(String(describing: five.last))")
      return
    }
  }

  @Test("PasswordResetRequiredException and UserNotConfirmedException at confirmSignIn end the flow in their steps")
  func statusMidFlow() async throws {
    #expect(try await Self.run(Self.sms, ["correctPassword", "statusResetRequired"]).last == .step("resetPassword"))
    #expect(try await Self.run(Self.totp, ["correctPassword", "statusUnconfirmed"]).last == .step("confirmSignUp"))
  }

  @Test(
    "an unknown user: UserNotFoundException with PreventUserExistenceErrors off, the wrong-password error with it on")
  func unknownUser() async throws {
    let legacy = try await Self.run(Self.flow.merging(["user.exists": "false"]) { $1 }, ["correctPassword"])
    #expect(legacy == [.restart("UserNotFoundException: User does not exist.")])
    let enabled = try await Self.run(
      Self.flow.merging(["user.exists": "false", "pool.preventUserExistenceErrors": "true"]) { $1 }, ["correctPassword"]
    )
    #expect(enabled == [.restart("NotAuthorizedException: Incorrect username or password")])
    let custom = try await Self.run(
      ["user.exists": "false", "pool.preventUserExistenceErrors": "true", "pool.authFlow": "customWithoutSRP"],
      ["correctPassword", "correctAnswer"])
    #expect(custom.first == .step("confirmSignInWithCustomChallenge"))
    guard case .restart = custom.last else {
      Issue.record("the simulated challenge must fail, got \(String(describing: custom.last))")
      return
    }
  }
}
