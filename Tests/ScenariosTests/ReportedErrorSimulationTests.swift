import Foundation
import Scenarios
import SignInModel
import Testing

/// What `simulate` reports beside where the flow goes: the exception behind each outcome and
/// the platform's error for it, and the server answers no client can go on from.
@Suite("Exceptions and platform errors in simulate; unknown and device challenges; AssociateSoftwareToken errors")
struct ReportedErrorSimulationTests {
  static let models = ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"]
  static let model = Result { try ModelLoader.load(file: "models/2026-all-platforms.yaml") }
  static let totpSetup = [("pool.mfa", "required"), ("pool.totp", "true")]

  static func records(
    _ platform: String, _ settings: [(String, String)], _ calls: [String], model file: String? = nil
  ) throws -> [CallRecord] {
    let model = try file.map { try ModelLoader.load(file: $0) } ?? Self.model.get()
    var session = try SimulationSession(
      model: model, settings: settings.map { (name: $0.0, value: $0.1) }, platform: platform)
    for call in calls { try session.call(call) }
    return session.records
  }

  @Test("an error names the Cognito exception and, separately, what the platform reports for it")
  func exceptionBesideError() throws {
    let calls = ["correctPassword", "wrongCode"]
    let swift = try Self.records("swift", Self.totpSetup, calls)[1]
    #expect(swift.exception == "EnableSoftwareTokenMFAException")
    #expect(swift.error == "AuthError.service.softwareTokenMFANotEnabled")
    #expect(
      swift.outcomeText.contains("AuthError.service.softwareTokenMFANotEnabled [EnableSoftwareTokenMFAException]"))
    let js = try Self.records("js", Self.totpSetup, calls)[1]
    #expect(js.exception == "EnableSoftwareTokenMFAException" && js.error == "EnableSoftwareTokenMFAException")
    #expect(js.jsonObject["exception"] == .some("EnableSoftwareTokenMFAException"))
  }

  @Test("a step one platform throws names its exception on every platform; a plain step names none")
  func stepThrownSomewhere() throws {
    let settings = [("user.status", "resetRequired")]
    let swift = try Self.records("swift", settings, ["correctPassword"])[0]
    #expect(swift.kind == .step && swift.step == "resetPassword" && swift.error == nil)
    #expect(swift.exception == "PasswordResetRequiredException")
    let android = try Self.records("android", settings, ["correctPassword"])[0]
    #expect(android.kind == .error && android.error == "PasswordResetRequiredException")
    let plain = try Self.records("swift", Self.totpSetup, ["correctPassword"])[0]
    #expect(plain.exception == nil && plain.error == nil)
  }

  @Test(
    "an unknown challenge ends the flow in every generation, reported by each platform's own error",
    arguments: models)
  func unknownChallenge(file: String) throws {
    let expected = [
      "swift": "AuthError.unknown", "js": "SignInException", "android": "UnknownException",
      "flutter": "InvalidStateException",
    ]
    for (platform, error) in expected {
      let records = try Self.records(
        platform, Self.totpSetup, ["correctPassword", "unknownChallenge", "correctPassword"], model: file)
      #expect(records[1].kind == .restart && records[1].stepID == nil)
      #expect(records[1].exception == "UnknownChallengeError")
      #expect(records[1].error == error, "\(platform)")
      #expect(records[2].stepID == "continueSignInWithTOTPSetup", "a new signIn starts a new flow")
    }
  }

  @Test("a device challenge the client did not ask for ends the flow", arguments: models)
  func unexpectedDeviceChallenge(file: String) throws {
    let js = try Self.records("js", [], ["unexpectedDeviceChallenge"], model: file)[0]
    #expect(js.kind == .restart)
    #expect(js.exception == "SignInError.invalidServiceResponse" && js.error == "DeviceMetadataNotFoundException")
    let flutter = try Self.records("flutter", [], ["unexpectedDeviceChallenge"], model: file)[0]
    #expect(flutter.error == "SignInError.invalidServiceResponse", "no platform entry: the model's name")
  }

  @Test(
    "setupError carries AssociateSoftwareToken's error: the exception by name, each platform's error for it",
    arguments: models)
  func setupError(file: String) throws {
    let cases: [(platform: String, exception: String, error: String)] = [
      ("swift", "NotAuthorizedException", "AuthError.notAuthorized"),
      ("swift", "InvalidParameterException", "AuthError.service.invalidParameter"),
      ("swift", "InternalErrorException", "AuthError.unknown"),
      ("js", "ConcurrentModificationException", "ConcurrentModificationException"),
      ("android", "ConcurrentModificationException", "UnknownException"),
      ("android", "ResourceNotFoundException", "ResourceNotFoundException"),
      ("flutter", "SoftwareTokenMFANotFoundException", "SoftwareTokenMfaNotFoundException"),
    ]
    for c in cases {
      let record = try Self.records(c.platform, Self.totpSetup, ["setupError=\(c.exception)"], model: file)[0]
      #expect(record.kind == .restart)
      #expect(record.exception == c.exception && record.error == c.error, "\(c)")
      #expect(record.response == "setupError=\(c.exception)")
    }
  }

  @Test("setupError without the error it carries, or with one it does not carry, is refused with the list")
  func setupErrorNeedsAName() throws {
    #expect {
      _ = try Self.records("swift", Self.totpSetup, ["setupError"])
    } throws: { error in
      "\(error)".contains("write setupError=NAME") && "\(error)".contains("ConcurrentModificationException")
    }
    #expect {
      _ = try Self.records("swift", Self.totpSetup, ["setupError=NotAuthorized"])
    } throws: { error in
      "\(error)".contains("does not carry 'NotAuthorized'") && "\(error)".contains("NotAuthorizedException")
    }
    #expect {
      _ = try Self.records("swift", Self.totpSetup, ["correctPassword=NotAuthorizedException"])
    } throws: { error in "\(error)".contains("carries no error") }
    #expect {
      _ = try Self.records("swift", Self.totpSetup, ["setupErorr=NotAuthorizedException"])
    } throws: { error in "\(error)".contains("unknown response 'setupErorr'") && "\(error)".contains("setupError") }
  }

  @Test("a scenario may expect the exception behind an error: error NAME [EXCEPTION]")
  func scenarioExpectsException() throws {
    let record = try Self.records("swift", Self.totpSetup, ["correctPassword", "wrongCode"])[1]
    let right = try #require(
      Expectation(parsing: "error AuthError.service.softwareTokenMFANotEnabled [EnableSoftwareTokenMFAException]"))
    #expect(right.matches(record))
    let wrong = try #require(
      Expectation(parsing: "error AuthError.service.softwareTokenMFANotEnabled [CodeMismatchException]"))
    #expect(!wrong.matches(record))
    #expect(Expectation(parsing: "error A [two words]") == nil)
  }

  @Test("the JSON names the platform in effect and every call's exception beside its error")
  func json() throws {
    let records = try Self.records("android", Self.totpSetup, ["correctPassword", "wrongCode"])
    let text = SimulationJSON.render(records, platform: "android")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["version"] as? Int == SimulationJSON.version)
    #expect(object["platform"] as? String == "android")
    let calls = try #require(object["calls"] as? [[String: Any]])
    #expect(calls[0]["exception"] is NSNull)
    #expect(calls[1]["exception"] as? String == "EnableSoftwareTokenMFAException")
    #expect(calls[1]["error"] as? String == "EnableSoftwareTokenMfaException")
  }
}
