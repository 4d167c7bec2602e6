import Evolution
import SignInModel
import Testing

/// Each evolution pair is a text edit of a shipped model: the structural diff, the behavioural
/// counts, the exit decision per platform (breaking or not) and the lint findings it must give.
@Suite("Evolution pairs")
struct EvolutionPairTests {
  static let afterSMSRule =
    "      goto: confirmSignInWithSMSMFACode\n    - when: \"pool.mfa != off && smsActive && totpActive"
  static let lintSection = "\nlint:\n"
  static let bothNames = """
        names: {swift: X, js: X_JS, android: X_ANDROID, flutter: xFlutter}
    """

  func diff(_ old: SignInModel, _ new: SignInModel, _ platforms: [String]? = nil) -> ModelDiff {
    ModelDiff(old: old, new: new, platforms: platforms)
  }

  func lint(_ model: SignInModel) -> [String] {
    Linter(model: model).warnings().filter { $0.acknowledged == nil }.map { "\($0.rule) \($0.target)" }
  }

  /// A diff's behavioural counts, compared in one expectation that shows all four on failure.
  struct Counts: Equatable {
    var compared: Double
    var changed: Double
    var added: Double
    var removed: Double
  }

  func counts(_ d: ModelDiff) -> Counts {
    Counts(compared: d.compared, changed: d.changedCount, added: d.addedCount, removed: d.removedCount)
  }

  /// On each platform, the diff restricted to it is breaking with a compatibility finding that
  /// satisfies `check` (given the platform and the finding).
  func expectBreaking(
    _ old: SignInModel, _ new: SignInModel, on platforms: [String],
    where check: (String, CompatibilityFinding) -> Bool
  ) {
    for p in platforms {
      let d = diff(old, new, [p])
      #expect(d.isBreaking, "breaking on \(p)")
      #expect(d.compatibility.contains { check(p, $0) }, "on \(p): \(d.compatibility)")
    }
  }

  func has(_ d: ModelDiff, _ kind: StructuralChange.Kind, _ category: String, _ name: String) -> Bool {
    d.structural.contains { $0.kind == kind && $0.category == category && $0.name == name }
  }

  @Test(
    "a new MFA type behind a new pool setting: old configurations unchanged, new ones added, every old client stuck")
  func newMFAType() throws {
    let old = try EvolutionPairs.model("2023-swift")
    let new = try EvolutionPairs.edited(
      "2023-swift",
      [
        (
          "  user.phone: {domain: bool,",
          "  pool.voice: {domain: bool, default: false, doc: voice MFA}\n  user.phone: {domain: bool,"
        ),
        (
          Self.afterSMSRule,
          Self.afterSMSRule.replacingOccurrences(of: "confirmSignInWithSMSMFACode", with: "smsOrVoice")
        ),
        (
          "  done:\n",
          """
            confirmSignInWithVoiceCode:
              names: {swift: confirmSignInWithVoiceCode, js: CONFIRM_SIGN_IN_WITH_VOICE_CODE,
                      android: CONFIRM_SIGN_IN_WITH_VOICE_CODE, flutter: confirmSignInWithVoiceCode}
              responses:
                correctCode:
                  - goto: done
                    verifies: mfa
                wrongCode:
                  - restart: "NotAuthorizedException: wrong voice code"
            done:

          """
        ),
        (
          Self.lintSection,
          """

            smsOrVoice:
              - when: "pool.voice"
                goto: confirmSignInWithVoiceCode
              - when: "!pool.voice"
                goto: confirmSignInWithSMSMFACode
          \(Self.lintSection)
          """
        ),
      ])
    let d = diff(old, new)
    #expect(has(d, .added, "step", "confirmSignInWithVoiceCode"))
    #expect(has(d, .added, "configurationVariable", "pool.voice"))
    #expect(has(d, .added, "route", "smsOrVoice"))
    #expect(counts(d) == Counts(compared: 535_392, changed: 0, added: 535_392, removed: 0))
    #expect(d.isBreaking)
    expectBreaking(old, new, on: ["swift", "js", "android", "flutter"]) {
      $1.kind == .unknownStep && $1.step == "confirmSignInWithVoiceCode"
    }
    #expect(lint(new).isEmpty)
  }

  @Test("a new first factor (auth flow value): added configurations reach a step old clients do not know")
  func newFirstFactor() throws {
    let old = try EvolutionPairs.model("2023-swift")
    let new = try EvolutionPairs.edited(
      "2023-swift",
      [
        (
          "domain: [userSRP, userPassword, customWithSRP, customWithoutSRP]",
          "domain: [userSRP, userPassword, customWithSRP, customWithoutSRP, emailOTP]"
        ),
        (
          "    - when: \"user.status == confirmed && passwordFlow\"",
          """
              - when: "user.status == confirmed && pool.authFlow == emailOTP"
                goto: confirmSignInWithEmailOTP
                verifies: firstFactor
              - when: "user.status == confirmed && passwordFlow"
          """
        ),
        (
          "  done:\n",
          """
            confirmSignInWithEmailOTP:
              names: {swift: confirmSignInWithOTP, js: CONFIRM_SIGN_IN_WITH_EMAIL_CODE,
                      android: CONFIRM_SIGN_IN_WITH_OTP, flutter: confirmSignInWithOtpCode}
              responses:
                correctCode:
                  - goto: done
                wrongCode:
                  - restart: "NotAuthorizedException: wrong code"
            done:

          """
        ),
      ])
    let d = diff(old, new)
    #expect(has(d, .added, "value", "pool.authFlow = emailOTP"))
    #expect(has(d, .added, "step", "confirmSignInWithEmailOTP"))
    #expect(counts(d) == Counts(compared: 535_392, changed: 0, added: 133_848, removed: 0))
    #expect(d.added.first?.reason == "pool.authFlow = emailOTP")
    #expect(d.isBreaking && d.compatibility.allSatisfy { $0.step == "confirmSignInWithEmailOTP" })
    // A real finding of the edit: a forceChangePassword user on emailOTP whose pool requires MFA
    // with no type goes on to MFA setup and ends there; canSignIn's exclusion covers password flows
    // only, so lint shows the constraints that hide it.
    let warnings = lint(new)
    #expect(warnings.contains("excludedConfigurations pool.mfa != off => pool.sms || pool.totp"))
    #expect(warnings.allSatisfy { $0.hasPrefix("excludedConfigurations ") })
  }

  @Test("a new user status no guard compares: lint names the value; diff adds its configurations and breaks nothing")
  func newUserStatus() throws {
    let old = try EvolutionPairs.model("2023-swift")
    let new = try EvolutionPairs.edited(
      "2023-swift",
      [
        (
          "domain: [confirmed, unconfirmed, forceChangePassword, resetRequired]",
          "domain: [confirmed, unconfirmed, forceChangePassword, resetRequired, passwordless]"
        )
      ])
    let d = diff(old, new)
    #expect(has(d, .added, "value", "user.status = passwordless"))
    #expect(counts(d) == Counts(compared: 535_392, changed: 0, added: 117_216, removed: 0))
    #expect(!d.isBreaking)
    #expect(lint(new) == ["valueNeverCompared user.status=passwordless"])
  }

  @Test("a new step named on one platform only: breaking for the platforms without a name, not for swift")
  func missingPlatformNames() throws {
    let old = try EvolutionPairs.model("2023-swift")
    let new = try EvolutionPairs.edited(
      "2023-swift",
      [
        (
          Self.afterSMSRule,
          Self.afterSMSRule.replacingOccurrences(
            of: "goto: confirmSignInWithSMSMFACode", with: "goto: confirmSignInWithSMSCode2")
        ),
        (
          "  done:\n",
          """
            confirmSignInWithSMSCode2:
              names: {swift: confirmSignInWithSMSMFACode}
              responses:
                correctCode:
                  - goto: done
                    verifies: mfa
                wrongCode:
                  - restart: "NotAuthorizedException: wrong code"
            done:

          """
        ),
      ])
    #expect(!diff(old, new, ["swift"]).isBreaking)
    expectBreaking(old, new, on: ["js", "android", "flutter"]) {
      $1.step == "confirmSignInWithSMSCode2" && $1.stepName == "(no \($0) name)"
    }
    #expect(diff(old, new).changedCount > 0)
    #expect(
      Set(lint(new)) == [
        "missingPlatformName confirmSignInWithSMSCode2.js", "missingPlatformName confirmSignInWithSMSCode2.android",
        "missingPlatformName confirmSignInWithSMSCode2.flutter",
      ])
  }

  @Test("an option nobody can select: lint names it; old clients meet an option they cannot select")
  func optionNobodySelects() throws {
    let old = try EvolutionPairs.model("2023-swift")
    let new = try EvolutionPairs.edited(
      "2023-swift",
      [
        (
          "    TOTP: \"pool.totp && user.totpRegistered\"\n",
          "    TOTP: \"pool.totp && user.totpRegistered\"\n    VOICE: \"pool.sms && user.phone\"\n"
        ),
        ("        TOTP: \"totpActive\"\n", "        TOTP: \"totpActive\"\n        VOICE: \"smsActive\"\n"),
      ])
    #expect(lint(new) == ["optionNeverSelected mfaType.VOICE"])
    let d = diff(old, new)
    #expect(has(d, .changed, "optionSetGeneration", "mfaType"))
    #expect(d.changedCount == 0)
    #expect(d.isBreaking && d.compatibility.allSatisfy { $0.kind == .unknownOption && $0.values == ["VOICE"] })
  }

  @Test("a retry bound changed: behaviour changes at the retry steps, nothing breaks")
  func retryBound() throws {
    let old = try EvolutionPairs.model("2023-swift")
    let new = try EvolutionPairs.edited(
      "2023-swift",
      [
        ("flow.retries < 4", "flow.retries < 2"), ("flow.retries == 4", "flow.retries >= 2"),
      ])
    let d = diff(old, new)
    #expect(d.structural.isEmpty)
    #expect(d.compared == 535_392 && d.changedCount > 0 && d.changedCount < 535_392 && d.addedCount == 0)
    #expect(d.changed.allSatisfy { $0.oldTrace != nil && $0.newTrace != nil })
    #expect(!d.isBreaking)
    #expect(lint(new).isEmpty)
  }

  @Test("a step removed: its responses and options are left over (lint), its users change behaviour")
  func stepRemoved() throws {
    let old = try EvolutionPairs.model("2023-swift")
    var text = EvolutionPairs.text("2023-swift")
    let start = try #require(text.range(of: "  continueSignInWithMFASelection:\n"))
    let end = try #require(text.range(of: "  confirmSignInWithCustomChallenge:\n"))
    text.removeSubrange(start.lowerBound..<end.lowerBound)
    text = text.replacingOccurrences(
      of: "goto: continueSignInWithMFASelection", with: "goto: confirmSignInWithTOTPCode")
    let new = try ModelLoader.load(yaml: text, file: "step-removed.yaml")
    let d = diff(old, new)
    #expect(has(d, .removed, "step", "continueSignInWithMFASelection"))
    #expect(d.changedCount > 0 && !d.isBreaking)
    #expect(d.changed.contains { $0.step == "continueSignInWithMFASelection" || $0.oldOutcomes != $0.newOutcomes })
    let warnings = Set(lint(new))
    #expect(
      warnings.isSuperset(of: [
        "responseAcceptedNowhere selectSMS", "responseAcceptedNowhere selectTOTP", "optionNeverSelected mfaType.SMS",
      ]))
  }

  @Test("a pure refactor (definition renamed with all uses, comments, an equivalent guard): no behavioural change")
  func pureRefactor() throws {
    let old = try EvolutionPairs.model("2023-swift")
    let new = try EvolutionPairs.edited(
      "2023-swift",
      [
        ("smsActive", "smsIsActive"), ("# What the first call leads to", "# Where the first call goes"),
        ("- when: \"pool.mfa == off\"\n", "- when: \"!(pool.mfa != off)\"\n"),
      ])
    let d = diff(old, new)
    #expect(d.structural.contains { $0.kind == .renamed && $0.category == "definition" && $0.name == "smsIsActive" })
    #expect(counts(d) == Counts(compared: 535_392, changed: 0, added: 0, removed: 0))
    #expect(!d.isBreaking)
    #expect(DiffTextReport.render(d).contains("no behavioural change"))
  }
}
