import Foundation
import Testing

@Suite("signin-spec simulate and scenarios")
struct SimulateCommandTests {
  typealias CLI = CommandLineTests

  static func json(_ arguments: [String]) throws -> [[String: Any]] {
    let run = try CLI.run(["simulate", "--format", "json"] + arguments)
    #expect(run.status == 0, "\(run.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    #expect(object?["format"] as? String == "signin-spec.simulate")
    #expect(object?["version"] as? Int == 2)
    let platform = arguments.firstIndex(of: "--platform").map { arguments[$0 + 1] } ?? "swift"
    #expect(object?["platform"] as? String == platform, "the JSON names the platform in effect, swift by default")
    let calls = object?["calls"] as? [[String: Any]] ?? []
    for call in calls {
      #expect(Set(call.keys) == ["call", "response", "outcome", "stepId", "step", "exception", "error", "reason"])
    }
    return calls
  }

  static let sms = ["--set", "pool.mfa=required", "--set", "pool.sms=true", "--set", "user.phone=true"]

  @Test("JSON: a step, an error that keeps the flow, done, and a restart with its reason")
  func outcomeKinds() throws {
    let calls = try Self.json(
      ["models/2023-swift.yaml", "--platform", "js"] + Self.sms
        + ["correctPassword", "wrongCode", "correctCode", "correctPassword", "expiredSession"])
    #expect(calls.map { $0["outcome"] as? String } == ["step", "error", "done", "step", "restart"])
    #expect(calls[0]["stepId"] as? String == "confirmSignInWithSMSMFACode")
    #expect(calls[0]["step"] as? String == "CONFIRM_SIGN_IN_WITH_SMS_CODE")
    #expect(calls[1]["error"] as? String == "CodeMismatchException")
    #expect(calls[1]["stepId"] as? String == "confirmSignInWithSMSMFACode")
    #expect(calls[2]["step"] as? String == "DONE")
    #expect(calls[3]["call"] as? String == "signIn")
    #expect(calls[4]["call"] as? String == "confirmSignIn")
    #expect((calls[4]["reason"] as? String)?.contains("session is expired") == true)
    #expect(calls[4]["error"] as? String == "NotAuthorizedException")
    #expect(calls[4]["stepId"] is NSNull)
  }

  @Test("JSON: a step the platform throws is an error with its step id; a step that ends the flow is a step")
  func thrownAndEndingSteps() throws {
    let android = try Self.json([
      "models/2023-swift.yaml", "--platform", "android", "--set", "user.status=unconfirmed",
      "correctPassword", "correctPassword",
    ])
    #expect(android[0]["outcome"] as? String == "error")
    #expect(android[0]["error"] as? String == "UserNotConfirmedException")
    #expect(android[0]["stepId"] as? String == "confirmSignUp")
    #expect(android[1]["call"] as? String == "signIn")
    let swift = try Self.json(["models/2023-swift.yaml", "--set", "user.status=resetRequired", "correctPassword"])
    #expect(swift[0]["outcome"] as? String == "step")
    #expect(swift[0]["step"] as? String == "resetPassword")
  }

  @Test("signIn:RESPONSE in the middle of a flow starts a new flow")
  func entryMidFlow() throws {
    let calls = try Self.json(["models/2023-swift.yaml"] + Self.sms + ["correctPassword", "signIn:wrongPassword"])
    #expect(calls[1]["call"] as? String == "signIn")
    #expect(calls[1]["outcome"] as? String == "restart")
  }

  @Test("text output prints one line per call")
  func text() throws {
    let run = try CLI.run(["simulate", "models/2023-swift.yaml"] + Self.sms + ["correctPassword", "correctCode"])
    #expect(
      run.stdout == """
        1. signIn(correctPassword) -> confirmSignInWithSMSMFACode
        2. confirmSignIn(correctCode) -> done

        """)
  }

  @Test("bad usage exits 64: unknown variable, value outside the domain, broken constraint, refused response")
  func usageErrors() throws {
    let unknown = try CLI.run(["simulate", "models/2023-swift.yaml", "--set", "pool.mfaa=off", "correctPassword"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("unknown configuration variable 'pool.mfaa' (did you mean 'pool.mfa'?)"))
    let value = try CLI.run(["simulate", "models/2023-swift.yaml", "--set", "pool.mfa=requird"])
    #expect(value.status == 64)
    #expect(value.stderr.contains("(did you mean 'required'?); its domain is [off, optional, required]"))
    let constraint = try CLI.run(["simulate", "models/2023-swift.yaml", "--set", "pool.mfa=required"])
    #expect(constraint.status == 64)
    #expect(
      constraint.stderr.contains(
        "breaks the constraint 'pool.mfa != off => pool.sms || pool.totp' (models/2023-swift.yaml:"))
    let refused = try CLI.run(["simulate", "models/2023-swift.yaml", "correctCode"])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("signIn accepts: correctPassword, wrongPassword, networkFault"))
  }

  @Test("a variable without a default that is not set exits 64 naming it and its domain")
  func missingDefault() throws {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
      .replacingOccurrences(of: "    default: confirmed   # a user who finished sign-up\n", with: "")
    let path = try CLI.temporaryModel(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try CLI.run(["simulate", path, "correctPassword"])
    #expect(run.status == 64)
    #expect(
      run.stderr.contains(
        "no value for user.status (domain [confirmed, unconfirmed, forceChangePassword, resetRequired])"))
    #expect(try CLI.run(["simulate", path, "--set", "user.status=confirmed", "correctPassword"]).status == 0)
  }

  @Test("scenarios exits 0 on the shipped scenarios, 1 on a wrong expectation, 2 on a malformed file")
  func scenariosExitCodes() throws {
    let ok = try CLI.run(["scenarios"])
    #expect(ok.status == 0, "\(ok.stdout)")
    #expect(ok.stdout.contains(" 0 fail"))
    let file = """
      model: models/2023-swift.yaml
      scenarios:
        - name: wrong
          source: test
          calls:
            - correctPassword: confirmSignInWithSMSMFACode
      """
    let wrong = try CLI.temporaryModel(file)
    defer { try? FileManager.default.removeItem(atPath: wrong) }
    let failed = try CLI.run(["scenarios", wrong])
    #expect(failed.status == 1)
    #expect(failed.stdout.contains("✗ 1. correctPassword: confirmSignInWithSMSMFACode"))
    let malformed = try CLI.temporaryModel(file.replacingOccurrences(of: "source: test", with: "sorce: test"))
    defer { try? FileManager.default.removeItem(atPath: malformed) }
    let bad = try CLI.run(["scenarios", malformed])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("\(malformed):4:"))
    #expect(try CLI.run(["scenarios", "no-such-folder"]).status == 64)
  }
}
