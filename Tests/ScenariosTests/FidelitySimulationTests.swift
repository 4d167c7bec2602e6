import Foundation
import Scenarios
import SignInModel
import Testing

/// Cognito fidelity behaviours on the model through `simulate`'s session: per-platform rule outcomes and the
/// client calls (a new signIn, signOut) the model states under `clientCalls:`.
@Suite("Per-platform outcomes and client calls in simulate")
struct FidelitySimulationTests {
  static let model = Result { try ModelLoader.load(file: "models/2026-all-platforms.yaml") }
  static let sms = [
    ("pool.mfa", "optional"), ("pool.sms", "true"), ("user.phone", "true"), ("user.smsEnabled", "true"),
  ]
  static let totpSetup = [("pool.mfa", "required"), ("pool.totp", "true")]

  static func records(_ platform: String, _ settings: [(String, String)], _ calls: [String]) throws -> [CallRecord] {
    var session = try SimulationSession(
      model: try model.get(), settings: settings.map { (name: $0.0, value: $0.1) }, platform: platform)
    for call in calls { try session.call(call) }
    return session.records
  }

  @Test("a rule's platforms: entry changes what the call reports, not where the flow goes")
  func ruleOutcomePerPlatform() throws {
    let calls = ["correctPassword", "wrongCode", "correctCode"]
    let js = try Self.records("js", Self.totpSetup, calls)
    #expect(js[1].error == "EnableSoftwareTokenMFAException" && js[1].step == "CONTINUE_SIGN_IN_WITH_TOTP_SETUP")
    let swift = try Self.records("swift", Self.totpSetup, calls)
    #expect(swift[1].kind == .error && swift[1].error == "AuthError.service.softwareTokenMFANotEnabled")
    #expect(swift[1].step == "continueSignInWithTOTPSetup")
    #expect(swift[2].kind == .done)
    let android = try Self.records("android", Self.totpSetup, calls)
    #expect(android[1].error == "EnableSoftwareTokenMfaException")
  }

  @Test("a status exception at confirmSignIn: a step on Swift and JS, thrown on Android and Flutter")
  func statusExceptionPerPlatform() throws {
    let calls = ["correctPassword", "statusResetRequired"]
    #expect(try Self.records("swift", Self.sms, calls)[1].outcomeText == "resetPassword")
    #expect(try Self.records("js", Self.sms, calls)[1].outcomeText == "RESET_PASSWORD [resetPassword]")
    for platform in ["android", "flutter"] {
      let record = try Self.records(platform, Self.sms, calls)[1]
      #expect(record.kind == .error && record.error == "PasswordResetRequiredException" && record.step == nil)
      #expect(record.stepID == "resetPassword")
    }
    // From signIn, Flutter still reports the step (the rule's entry is for confirmSignIn's rule).
    let signIn = try Self.records("flutter", [("user.status", "resetRequired")], ["correctPassword"])
    #expect(signIn[0].kind == .step && signIn[0].step == "resetPassword")
  }

  @Test("signOut mid-flow: Swift refuses and keeps the flow; Flutter signs out and keeps it")
  func signOutMidFlow() throws {
    let swift = try Self.records("swift", Self.sms, ["correctPassword", "signOut", "correctCode"])
    #expect(swift[1].call == "signOut" && swift[1].kind == .error && swift[1].error == "AuthError.invalidState")
    #expect(swift[1].stepID == "confirmSignInWithSMSMFACode")
    #expect(swift[2].kind == .done)
    let flutter = try Self.records("flutter", Self.sms, ["correctPassword", "signOut", "correctCode"])
    #expect(flutter[1].kind == .signedOut && flutter[1].step == "confirmSignInWithSmsMfaCode")
    #expect(flutter[2].kind == .done)
    #expect(flutter[1].jsonObject["response"] == .some(nil))
  }

  @Test("signIn once signed in is refused per platform; signOut then signIn works")
  func signInWhenSignedIn() throws {
    let expected = [
      "swift": "AuthError.invalidState", "js": "UserAlreadyAuthenticatedException", "android": "SignedInException",
      "flutter": "InvalidStateException",
    ]
    for (platform, error) in expected {
      let records = try Self.records(
        platform, [], ["correctPassword", "signIn:correctPassword", "signOut", "correctPassword"])
      #expect(records[1].kind == .error && records[1].error == error, "\(platform)")
      #expect(records[1].stepID == "done")
      #expect(records[2].kind == .signedOut && records[2].stepID == nil)
      #expect(records[3].kind == .done)
    }
  }

  @Test("signIn in the middle of a flow starts a new flow with the counters reset")
  func signInMidFlow() throws {
    let records = try Self.records(
      "android", Self.sms,
      ["correctPassword", "wrongCode", "wrongCode", "signIn:correctPassword"]
        + Array(repeating: "wrongCode", count: 4))
    #expect(records[3].stepID == "confirmSignInWithSMSMFACode")
    #expect(records.suffix(4).allSatisfy { $0.kind == .error }, "four failures fit in the new flow")
  }

  @Test("a model without clientCalls has no signOut and restarts on signIn:RESPONSE")
  func withoutClientCalls() throws {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let cut = try #require(text.range(of: "\nclientCalls:"))
    let model = try ModelLoader.load(yaml: String(text[..<cut.lowerBound]) + "\n", file: "no-client-calls.yaml")
    var session = try SimulationSession(model: model, settings: [], platform: "js")
    try session.call("correctPassword")
    #expect(try session.call("signIn:correctPassword").kind == .done)
    #expect(throws: SimulationError.self) { try session.call("signOut") }
  }
}
