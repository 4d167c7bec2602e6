import Foundation
import ModelChecking
import SignInModel
import Testing

@Suite("Verifying the shipped models")
struct ShippedModelVerificationTests {
  static let files = ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"]

  @Test("every invariant holds on every shipped model", arguments: files)
  func allHold(file: String) throws {
    let report = ExplicitChecker(model: try ModelLoader.load(file: file)).check()
    for result in report.results {
      #expect(result.verdict == .holds, "\(file): \(result.invariant)")
    }
  }

  @Test("the 2023 model's state space is pinned")
  func pinnedSize() throws {
    let report = ExplicitChecker(model: try ModelLoader.load(file: Self.files[0])).check()
    // 10,560 / 252 / 4,614 before the unknown user, remembered devices and customMfa;
    // 38,023 states before the serviceError and setupFault response classes.
    #expect(report.statistics.configurations == 535_392)
    // 866 / 40,576 before the policy: its requirement reads the user's MFA types at done.
    #expect(report.statistics.configurationClasses == 890)
    // 41,836 before the unknownChallenge, unexpectedDeviceChallenge and setupError classes.
    #expect(report.statistics.states == 47_041)
  }

  /// The model text with one rule changed.
  static func broken(_ file: String, replacing old: String, with new: String) throws -> SignInModel {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    guard let range = text.range(of: old) else {
      Issue.record("\(file) does not contain the text to replace")
      throw CancellationError()
    }
    return try ModelLoader.load(yaml: text.replacingCharacters(in: range, with: new), file: "broken-" + file)
  }

  @Test("removing the restart after failAuthentication fails verify with that invariant's counterexample")
  func failAuthenticationRestartRemoved() throws {
    let model = try Self.broken(
      Self.files[0],
      replacing:
        "      failingAnswer:\n        - restart: \"NotAuthorizedException: the define trigger failed authentication\"",
      with: "      failingAnswer:\n        - error: NotAuthorizedException")
    let report = ExplicitChecker(model: model).check()
    let c = try #require(report.counterexample(.failAuthenticationRestarts))
    #expect(
      c.calls == [
        "signIn(correctPassword) -> confirmSignInWithCustomChallenge",
        "confirmSignIn(failingAnswer) -> error NotAuthorizedException",
        // After the failed define trigger the flow goes on: here by a status exception that the
        // Swift client reports as the resetPassword step, three calls like correctAnswer.
        "confirmSignIn(statusResetRequired) -> resetPassword",
      ])
    #expect(!report.allHold)
  }

  @Test("offering SMS MFA without checking for a phone fails offersAreUsable")
  func smsOfferedWithoutPhone() throws {
    let model = try Self.broken(
      Self.files[2], replacing: "        SMS: \"smsActive\"", with: "        SMS: \"user.smsEnabled\"")
    let c = try #require(ExplicitChecker(model: model).check().counterexample(.offersAreUsable))
    #expect(c.value(of: "user.phone") == .some("false"))
    #expect(c.steps.last?.outcome == .step("continueSignInWithMFASelection"))
  }

  @Test("skipping MFA after a new password fails noFactorSkipped")
  func mfaSkippedAfterNewPassword() throws {
    let model = try Self.broken(
      Self.files[1],
      replacing: "        - when: \"pool.authFlow != customWithSRP\"\n          goto: afterFirstFactor",
      with: "        - when: \"pool.authFlow != customWithSRP\"\n          goto: done")
    let c = try #require(ExplicitChecker(model: model).check().counterexample(.noFactorSkipped))
    #expect(
      c.calls == ["signIn(correctPassword) -> confirmSignInWithNewPassword", "confirmSignIn(goodNewPassword) -> done"])
    #expect(c.value(of: "user.status") == .some("forceChangePassword"))
  }
}
