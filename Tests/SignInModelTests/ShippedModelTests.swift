import Testing

@testable import SignInModel

/// The models in models/, read from the package root (tests run there).
enum ShippedModels {
  static let files = ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"]
  static func load(_ file: String) throws -> SignInModel { try ModelLoader.load(file: file) }
}

@Suite("The shipped models")
struct ShippedModelTests {
  @Test("every shipped model loads", arguments: ShippedModels.files)
  func loads(file: String) throws {
    let model = try ShippedModels.load(file)
    #expect(model.platforms == ["swift", "js", "android", "flutter"])
    #expect(model.canSignIn != nil && model.policy != nil && model.mfaRequirement != nil)
  }

  @Test("each generation has the steps its seed page documents")
  func stepsPerGeneration() throws {
    let steps2023 = Set(try ShippedModels.load(ShippedModels.files[0]).steps.dropFirst().map(\.id))
    #expect(
      steps2023 == [
        "confirmSignInWithSMSMFACode", "confirmSignInWithTOTPCode", "continueSignInWithTOTPSetup",
        "continueSignInWithMFASelection", "confirmSignInWithCustomChallenge", "confirmSignInWithNewPassword",
        "resetPassword", "confirmSignUp", "done",
      ])
    let steps2024 = Set(try ShippedModels.load(ShippedModels.files[1]).steps.dropFirst().map(\.id))
    #expect(
      steps2024.subtracting(steps2023)
        == ["confirmSignInWithOTP.emailMFA", "continueSignInWithEmailMFASetup", "continueSignInWithMFASetupSelection"])
    let steps2026 = Set(try ShippedModels.load(ShippedModels.files[2]).steps.dropFirst().map(\.id))
    #expect(
      steps2026.subtracting(steps2024) == [
        "continueSignInWithFirstFactorSelection", "confirmSignInWithPassword", "confirmSignInWithOTP.emailFirstFactor",
        "confirmSignInWithOTP.smsFirstFactor",
      ])
  }

  @Test("every step says what each platform calls it", arguments: ShippedModels.files)
  func everyPlatformNamed(file: String) throws {
    let model = try ShippedModels.load(file)
    for step in model.steps.dropFirst() {
      #expect(Set(step.names.map(\.platform)) == Set(model.platforms), "step \(step.id)")
    }
  }

  @Test(
    "Android throws on reset password and confirm sign-up instead of reporting a step", arguments: ShippedModels.files)
  func androidThrows(file: String) throws {
    let model = try ShippedModels.load(file)
    let reset = try #require(model.stepIndex(named: "resetPassword"))
    let confirm = try #require(model.stepIndex(named: "confirmSignUp"))
    #expect(
      model.steps[reset].names.first { $0.platform == "android" }?.form == .error("PasswordResetRequiredException"))
    #expect(model.steps[confirm].names.first { $0.platform == "android" }?.form == .error("UserNotConfirmedException"))
  }

  @Test("the seeds' names differ by platform: the email code step")
  func emailCodeNames() throws {
    let model = try ShippedModels.load(ShippedModels.files[2])
    let index = try #require(model.stepIndex(named: "confirmSignInWithOTP.emailMFA"))
    #expect(model.displayName(ofStep: index, platform: "swift") == "confirmSignInWithOTP")
    #expect(model.displayName(ofStep: index, platform: "js") == "CONFIRM_SIGN_IN_WITH_EMAIL_CODE")
    #expect(model.displayName(ofStep: index, platform: "android") == "CONFIRM_SIGN_IN_WITH_OTP")
    #expect(model.displayName(ofStep: index, platform: "flutter") == "confirmSignInWithOtpCode")
    #expect(model.steps[index].notes.contains { $0.text.contains("CONFIRM_SIGN_IN_WITH_EMAIL_MFA_CODE") })
  }
}
