import ModelChecking
import SignInModel
import Testing

/// Transitions the seed pages document, run on the shipped models.
@Suite("Documented transitions in the shipped models")
struct DocumentedTransitionTests {
  static let model2026 = try! ModelLoader.load(file: "models/2026-all-platforms.yaml")
  static let model2023 = try! ModelLoader.load(file: "models/2023-swift.yaml")

  /// A confirmed user with a password in an MFA-off pool using SRP; tests override what matters.
  static func configuration(_ overrides: [String: String]) -> [String: String] {
    var base: [String: String] = [
      "pool.mfa": "off", "pool.sms": "false", "pool.totp": "false", "pool.email": "false",
      "pool.authFlow": "userSRP", "pool.preferredFirstFactor": "none", "pool.allowSmsOTP": "false",
      "pool.allowEmailOTP": "false", "pool.allowWebAuthn": "false", "pool.customRounds": "1",
      "user.status": "confirmed", "user.phone": "false", "user.email": "false", "user.totpRegistered": "false",
      "user.smsEnabled": "false", "user.totpEnabled": "false", "user.emailEnabled": "false", "user.preferred": "none",
      "user.passkey": "false", "user.passwordSet": "true",
    ]
    base.merge(overrides) { $1 }
    return base
  }

  static func run2026(_ overrides: [String: String], _ responses: [String]) throws -> ModelSimulator {
    var simulator = try ModelSimulator(model: model2026, configuration: configuration(overrides))
    for response in responses { try simulator.respond(response) }
    return simulator
  }

  @Test("selecting EMAIL at MFA setup selection leads to email setup, then the email code, then done")
  func emailSetup() throws {
    var s = try Self.run2026(["pool.mfa": "required", "pool.totp": "true", "pool.email": "true"], ["correctPassword"])
    #expect(s.stepID == "continueSignInWithMFASetupSelection")
    #expect(s.offered == ["TOTP", "EMAIL"])
    #expect(try s.respond("selectEMAIL") == .step("continueSignInWithEmailMFASetup"))
    #expect(try s.respond("validEmail") == .step("confirmSignInWithOTP.emailMFA"))
    #expect(try s.respond("correctCode") == .step("done"))
  }

  @Test("TOTP setup then a TOTP code leads to done")
  func totpSetup() throws {
    var s = try Self.run2026(["pool.mfa": "required", "pool.totp": "true"], ["correctPassword"])
    #expect(s.stepID == "continueSignInWithTOTPSetup")
    #expect(
      try s.respond("wrongCode") == .error("EnableSoftwareTokenMFAException", stays: "continueSignInWithTOTPSetup"))
    #expect(try s.respond("correctCode") == .step("done"))
  }

  @Test(
    "resetPassword and confirmSignUp end the flow and need a new signIn",
    arguments: [
      ("resetRequired", "resetPassword"), ("unconfirmed", "confirmSignUp"),
    ])
  func statusSteps(status: String, step: String) throws {
    var s = try Self.run2026(["user.status": status], ["correctPassword"])
    #expect(s.stepID == step)
    #expect(throws: ModelSimulator.Failure.flowEnded("step \(step)")) { try s.respond("correctCode") }
  }

  @Test("a passwordless EMAIL_OTP first factor leads to the OTP step, then done")
  func passwordlessEmail() throws {
    var s = try Self.run2026(
      [
        "pool.authFlow": "userAuth", "pool.preferredFirstFactor": "EMAIL_OTP", "pool.allowEmailOTP": "true",
        "user.email": "true", "user.passwordSet": "false",
      ], ["correctPassword"])
    #expect(s.stepID == "confirmSignInWithOTP.emailFirstFactor")
    #expect(try s.respond("correctCode") == .step("done"))
  }

  @Test("USER_AUTH without a preference offers the factors the user has")
  func firstFactorSelection() throws {
    var s = try Self.run2026(
      [
        "pool.authFlow": "userAuth", "pool.allowSmsOTP": "true", "user.phone": "true",
      ], ["correctPassword"])
    #expect(s.stepID == "continueSignInWithFirstFactorSelection")
    #expect(s.offered == ["PASSWORD", "PASSWORD_SRP", "SMS_OTP"])
    #expect(try s.respond("selectPASSWORD") == .step("confirmSignInWithPassword"))
    #expect(try s.respond("correctPassword") == .step("done"))
  }

  @Test("selecting a type the MFA selection did not offer is an error that stays on the step")
  func selectionNotOffered() throws {
    var s = try Self.run2026(
      [
        "pool.mfa": "optional", "pool.sms": "true", "pool.totp": "true", "user.phone": "true",
        "user.totpRegistered": "true", "user.smsEnabled": "true", "user.totpEnabled": "true",
      ], ["correctPassword"])
    #expect(s.stepID == "continueSignInWithMFASelection")
    #expect(
      try s.respond("selectEMAIL") == .error("InvalidParameterException", stays: "continueSignInWithMFASelection"))
    #expect(try s.respond("selectTOTP") == .step("confirmSignInWithTOTPCode"))
  }

  @Test("five wrong MFA codes end the flow (lockout)")
  func lockout() throws {
    var s = try Self.run2026(["pool.mfa": "required", "pool.sms": "true", "user.phone": "true"], ["correctPassword"])
    #expect(s.stepID == "confirmSignInWithSMSMFACode")
    for _ in 0..<4 { try s.respond("wrongCode") }
    #expect(try s.respond("wrongCode") == .restart("NotAuthorizedException: five wrong MFA codes start the lockout"))
    #expect(s.stepID == nil)
  }

  @Test("in 2023 the define trigger's failAuthentication restarts the flow")
  func customFailAuthentication() throws {
    var s = try ModelSimulator(
      model: Self.model2023,
      configuration: [
        "pool.mfa": "off", "pool.sms": "false", "pool.totp": "false", "pool.authFlow": "customWithoutSRP",
        "pool.customRounds": "2", "user.status": "confirmed", "user.phone": "false", "user.totpRegistered": "false",
        "user.smsEnabled": "false", "user.totpEnabled": "false", "user.preferred": "none",
      ])
    #expect(try s.respond("correctPassword") == .step("confirmSignInWithCustomChallenge"))
    #expect(try s.respond("wrongAnswer") == .step("confirmSignInWithCustomChallenge"))
    #expect(
      try s.respond("wrongAnswer") == .restart("NotAuthorizedException: the define trigger failed authentication"))
  }

  @Test("a configuration that breaks a constraint is refused, naming the constraint")
  func constraintRefused() {
    #expect(throws: ModelSimulator.Failure.constraintViolated("user.preferred == sms => user.smsEnabled")) {
      _ = try Self.run2026(["user.preferred": "sms"], [])
    }
  }
}
