import Evolution
import Foundation
import ModelChecking
import ModelTestSupport
import SignInModel
import SymbolicChecking
import Testing

/// A specification that cannot agree with a wrong model by construction: each kind of edit a
/// hurried change makes — dropping the facts a property reads, weakening a definition the rules
/// and their judge share, letting an unknown user show, offering a factor the user cannot use —
/// is refuted (or reported NOT CHECKED) by both engines, with a trace.
@Suite("Specification strength: edited models are refuted or NOT CHECKED")
struct SpecificationStrengthTests {
  static let models = EngineAgreementTests.models

  static func edited(_ file: String, _ edits: [(String, String)]) throws -> SignInModel {
    var text = try String(contentsOfFile: file, encoding: .utf8)
    for (old, new) in edits {
      #expect(text.contains(old), "\(file) no longer contains the text to edit: \(old)")
      text = text.replacingOccurrences(of: old, with: new)
    }
    return try ModelLoader.load(yaml: text, file: "edited-" + (file as NSString).lastPathComponent)
  }

  /// The explicit verdict on `invariant`, after checking that Z3 gives the same kind.
  static func verdict(_ model: SignInModel, _ invariant: Invariant) -> Verdict? {
    let explicit = ExplicitChecker(model: model, jobs: 2).check(invariants: [invariant]).results.first?.verdict
    let symbolic = SymbolicChecker(model: model, timeoutMilliseconds: 600_000).prove(invariants: [invariant])
    if let explicit, let z3 = symbolic.results.first?.verdict {
      #expect(
        EngineAgreementTests.kind(explicit) == EngineAgreementTests.kind(z3),
        "\(invariant): explicit \(explicit), Z3 \(z3)")
    }
    return explicit
  }

  static func text(of section: String, in file: String) throws -> String {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let start = try #require(text.range(of: "\n\(section):\n"))
    let rest = text[start.upperBound...]
    let end = rest.range(of: "\n[a-z]", options: .regularExpression).map { rest.index(after: $0.lowerBound) }
    return "\n\(section):\n" + rest[..<(end ?? rest.endIndex)]
  }

  // MARK: - No silent holds

  /// (what is removed, section, the property that can no longer fail).
  static let missingFacts: [(String, String, Invariant)] = [
    ("failedAttempts", "failedAttempts", .boundedFailures),
    ("preferences", "preferences", .preferredMFAHonoured),
    ("the policy", "policy", .noFactorSkipped),
  ]

  @Test("A property whose facts are missing is NOT CHECKED, never holds", arguments: missingFacts)
  func notChecked(what: String, section: String, invariant: Invariant) throws {
    let file = Self.models[0]
    let model = try Self.edited(file, [(try Self.text(of: section, in: file), "\n")])
    guard case .notChecked(let reason, let acknowledged)? = Self.verdict(model, invariant) else {
      Issue.record("\(invariant) without \(what): \(String(describing: Self.verdict(model, invariant)))")
      return
    }
    #expect(acknowledged == nil)
    #expect(!reason.isEmpty)
    #expect(!Verdict.notChecked(reason: reason, acknowledged: nil).passed)
    let warnings = Linter(model: model).warnings().filter { $0.rule == "notChecked" }
    #expect(warnings.map(\.target).contains(invariant.rawValue))
  }

  @Test("A model without step facts gets NOT CHECKED for every property that reads them, in both engines")
  func syntheticModelNotChecked() throws {
    let model = try CounterChain.model(length: 3)
    for invariant in [Invariant.boundedFailures, .preferredMFAHonoured, .challengesUsableFactor] {
      guard case .notChecked(_, nil)? = Self.verdict(model, invariant) else {
        Issue.record("\(invariant) on a model without facts: \(String(describing: Self.verdict(model, invariant)))")
        continue
      }
    }
    let report = ExplicitChecker(model: model, jobs: 1).check()
    #expect(!report.allHold, "an unacknowledged NOT CHECKED fails the run")
  }

  @Test("A NOT CHECKED property the model's lint: acknowledges does not fail the run")
  func acknowledgedNotChecked() throws {
    let file = Self.models[0]
    let model = try Self.edited(
      file,
      [
        (try Self.text(of: "failedAttempts", in: file), "\n"),
        (
          "\nlint:\n",
          "\nlint:\n  - rule: notChecked\n    target: boundedFailures\n    reason: this model does not count attempts\n"
        ),
      ])
    let verdict = try #require(Self.verdict(model, .boundedFailures))
    #expect(
      verdict
        == .notChecked(
          reason: try #require(Invariant.boundedFailures.missingFacts(in: model)),
          acknowledged: "this model does not count attempts"))
    #expect(verdict.passed)
    let warning = try #require(Linter(model: model).warnings().first { $0.rule == "notChecked" })
    #expect(warning.acknowledged == "this model does not count attempts")
  }

  // MARK: - A policy apart from the rules

  @Test("Any remembered device skipping MFA is refuted by the policy in every shipped model", arguments: models)
  func anyDeviceSkipsMFA(file: String) throws {
    let model = try Self.edited(
      file,
      [
        (
          "deviceSkipsMfa: \"pool.authFlow == userSRP && pool.deviceSuppressesMfa && user.deviceRemembered\"",
          "deviceSkipsMfa: \"user.deviceRemembered\""
        )
      ])
    guard case .violated(let c)? = Self.verdict(model, .noFactorSkipped) else {
      Issue.record("\(file): noFactorSkipped is not violated when any remembered device skips MFA")
      return
    }
    #expect(c.message.contains("without an MFA factor although the policy requires one"))
    #expect(c.configuration.contains { $0.variable == "pool.deviceSuppressesMfa" && $0.value == "false" })
  }

  @Test("A model in which no remembered device ever skips MFA loses the policy's exemption and is refuted")
  func noDeviceSkipsMFA() throws {
    let model = try Self.edited(
      Self.models[0],
      [
        (
          "deviceSkipsMfa: \"pool.authFlow == userSRP && pool.deviceSuppressesMfa && user.deviceRemembered\"",
          "deviceSkipsMfa: \"false\""
        )
      ])
    guard case .violated(let c)? = Self.verdict(model, Invariant(rawValue: "rememberedDeviceSkipsMfa")) else {
      Issue.record("no device skips MFA, yet rememberedDeviceSkipsMfa holds")
      return
    }
    #expect(c.message.hasPrefix("no path from signIn"))
  }

  @Test("An exclusion that keeps every user from signing in makes doneReachable vacuous, not a hold")
  func nobodyCanSignIn() throws {
    let file = Self.models[0]
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let line = try #require(text.range(of: "  smsOnlySetupDeadEnd: \"[^\"]*\"", options: .regularExpression))
    let model = try Self.edited(file, [(String(text[line]), "  smsOnlySetupDeadEnd: \"true\"")])
    #expect(Self.verdict(model, .doneReachable) == .vacuous(reason: Invariant.nobodyCanSignIn))
  }

  @Test("Without a policy, noFactorSkipped's definition shares the rules' definitions and lint says so")
  func definitionSharedWithRules() throws {
    let file = Self.models[0]
    let model = try Self.edited(
      file,
      [
        (try Self.text(of: "policy", in: file), "\n"),
        (
          "  smsOnlySetupDeadEnd:",
          "  mfaRequired: \"(passwordFlow && pool.mfa == required) && !(flow.deviceVerified && deviceSkipsMfa)\"\n"
            + "  smsOnlySetupDeadEnd:"
        ),
      ])
    let warning = try #require(Linter(model: model).warnings().first { $0.rule == "policySharesDefinition" })
    #expect(warning.target == "noFactorSkipped")
    #expect(warning.message.contains("'deviceSkipsMfa'"))
  }

  @Test("A policy that reads a definition is refused with its line")
  func policyReadsDefinition() throws {
    let file = Self.models[2]
    let old = "flow.deviceVerified && pool.authFlow == userSRP && pool.deviceSuppressesMfa && user.deviceRemembered"
    do {
      _ = try Self.edited(file, [(old, "flow.deviceVerified && deviceSkipsMfa")])
      Issue.record("the loader took a policy that reads a definition")
    } catch let error as ModelLoadError {
      #expect(error.description.contains("the policy reads the definition 'deviceSkipsMfa'"))
      #expect(error.description.contains("edited-2026-all-platforms.yaml:"))
    }
  }

  @Test("policy: and indistinguishable: need format 3")
  func formatThree() throws {
    do {
      _ = try Self.edited(Self.models[1], [("format: 3 ", "format: 2 ")])
      Issue.record("a format-2 model with a policy loaded")
    } catch let error as ModelLoadError {
      #expect(error.description.contains("'policy:' needs format 3"))
      #expect(error.description.contains("'indistinguishable:' needs format 3"))
    }
  }

  // MARK: - Two runs

  @Test("An unknown user that shows under PreventUserExistenceErrors is told apart at signIn", arguments: models)
  func unknownUserShows(file: String) throws {
    let model = try Self.edited(
      file,
      [
        (
          "&& pool.preventUserExistenceErrors\"\n      restart: \"NotAuthorizedException: Incorrect username or password\"",
          "&& pool.preventUserExistenceErrors\"\n      restart: \"UserNotFoundException: User does not exist.\""
        )
      ])
    let property = Invariant(rawValue: "unknownUserLikeWrongPassword")
    guard case .violated(let c)? = Self.verdict(model, property) else {
      Issue.record("\(file): an unknown user is told apart, yet the property holds")
      return
    }
    let right = try #require(c.pairedSteps)
    #expect(c.length == 1 && right.count == 1)
    #expect(c.steps[0].outcome == .restart("UserNotFoundException: User does not exist."))
    #expect(right[0].outcome == .restart("NotAuthorizedException: Incorrect username or password"))
    #expect(c.message.hasPrefix("call 1 (signIn at 'signIn') is observed differently"))
    #expect(c.configuration.contains { $0.variable == "left.user.exists" && $0.value == "false" })
    #expect(c.configuration.contains { $0.variable == "right.user.exists" && $0.value == "true" })
  }

  @Test("A difference two calls deep is found at the call where the runs part")
  func differenceAtSecondCall() throws {
    let model = try Self.edited(
      Self.models[2],
      [
        (
          "      failingAnswer:\n        - restart: \"NotAuthorizedException: the define trigger failed authentication\"\n          failAuthentication: true",
          "      failingAnswer:\n        - when: \"user.exists\"\n          restart: \"NotAuthorizedException: the define trigger failed authentication\"\n          failAuthentication: true\n        - when: \"!user.exists\"\n          restart: \"UserNotFoundException: User does not exist.\"\n          failAuthentication: true"
        )
      ])
    let property = Invariant(rawValue: "unknownUserLikeWrongAnswers")
    guard case .violated(let c)? = Self.verdict(model, property) else {
      Issue.record("the unknown user's failing answer shows, yet the property holds")
      return
    }
    #expect(c.length == 2)
    #expect(c.steps.map(\.response) == ["correctPassword", "failingAnswer"] || c.steps[1].response == "failingAnswer")
    #expect(c.message.hasPrefix("call 2 (confirmSignIn at 'confirmSignInWithCustomChallenge')"))
  }

  @Test("What one platform reports instead of the outcome is part of what the runs are compared on")
  func platformOutcomeTellsApart() throws {
    let rule =
      "&& pool.preventUserExistenceErrors\"\n      restart: \"NotAuthorizedException: Incorrect username or password\""
    let model = try Self.edited(
      Self.models[0], [(rule, rule + "\n      platforms: {flutter: {error: UserNotFoundException}}")])
    guard case .violated(let c)? = Self.verdict(model, Invariant(rawValue: "unknownUserLikeWrongPassword")) else {
      Issue.record("Flutter reports UserNotFoundException for the unknown user only, yet the property holds")
      return
    }
    #expect(c.message.contains("on flutter error UserNotFoundException"))
  }

  @Test("A call one run's rules decide and the other's do not is a difference, not a pair left out")
  func undecidedRun() throws {
    let model = try Self.edited(
      Self.models[0],
      [
        (
          "      - when: \"user.exists && pool.authFlow != customWithoutSRP\"",
          "      - when: \"user.exists && pool.authFlow == userPassword\""
        )
      ])
    guard case .violated(let c)? = Self.verdict(model, Invariant(rawValue: "unknownUserLikeWrongPassword")) else {
      Issue.record("the known user's wrong password has no outcome in USER_SRP_AUTH, yet the property holds")
      return
    }
    #expect(c.message.contains("the right run (user.exists) gets no single outcome"))
    #expect(c.pairedSteps?.last?.outcome == .undetermined("no rule of the right run decides this call"))
  }

  @Test("An input no step accepts on both sides, and a policy beside an mfaRequired definition, are refused")
  func inputsAndPolicyRefused() throws {
    do {
      _ = try Self.edited(
        Self.models[0],
        [
          (
            "inputs: [\"correctPassword ~ wrongPassword\", wrongPassword,",
            "inputs: [\"correctPassword ~ correctCode\", wrongPassword,"
          )
        ])
      Issue.record("an input never compared was taken")
    } catch let error as ModelLoadError {
      #expect(error.description.contains("no step accepts both 'correctPassword' and 'correctCode'"))
    }
    do {
      _ = try Self.edited(
        Self.models[0], [("  smsOnlySetupDeadEnd:", "  mfaRequired: \"false\"\n  smsOnlySetupDeadEnd:")])
      Issue.record("a policy beside the definition mfaRequired was taken")
    } catch let error as ModelLoadError {
      #expect(error.description.contains("states both policy: and the definition mfaRequired"))
    }
  }

  @Test("diff names a change of the policy and of a property")
  func diffShowsPolicy() throws {
    let old = try ModelLoader.load(file: Self.models[0])
    let new = try Self.edited(
      Self.models[0],
      [
        ("    required: >-\n      pool.mfa != off", "    required: >-\n      pool.mfa == required"),
        ("left: \"!user.exists && user.status == confirmed\"", "left: \"!user.exists\""),
      ])
    let changes = StructuralDiff.compare(old, new).changes
    #expect(changes.contains { $0.category == "policy" && $0.name == "mfa.required" && $0.kind == .changed })
    #expect(changes.contains { $0.category == "property" && $0.name == "unknownUserLikeWrongPassword" })
  }

  @Test("An indistinguishable property that names an unknown response or a flow variable is refused")
  func badRelation() throws {
    let file = Self.models[2]
    let cases: [(String, String, String)] = [
      (
        "inputs: [\"correctPassword ~ wrongPassword\", wrongPassword,",
        "inputs: [\"correctPassword ~ wrongPasword\", wrongPassword,", "unknown response 'wrongPasword'"
      ),
      (
        "      right: \"user.exists\"\n", "      right: \"user.exists && flow.retries == 0\"\n",
        "reads the flow variable 'flow.retries'"
      ),
    ]
    for (old, new, expected) in cases {
      do {
        _ = try Self.edited(file, [(old, new)])
        Issue.record("loaded with \(new)")
      } catch let error as ModelLoadError {
        #expect(error.description.contains(expected), "\(error.description)")
      }
    }
  }

  // MARK: - Exact offers

  @Test("An option offered to a user who cannot use its factor is refuted")
  func offerOfUnusableFactor() throws {
    let model = try Self.edited(
      Self.models[1],
      [
        (
          "    SMS: \"pool.sms && user.phone\"\n    TOTP: \"pool.totp && user.totpRegistered\"",
          "    SMS: \"pool.sms\"\n    TOTP: \"pool.totp && user.totpRegistered\""
        ),
        (
          "        SMS: \"smsActive\"",
          "        SMS: \"pool.sms && (user.smsEnabled || pool.mfa == required) && (totpActive || emailActive)\""
        ),
      ])
    guard case .violated(let c)? = Self.verdict(model, .offersAreUsable) else {
      Issue.record("offering SMS to a user without a phone is not refuted")
      return
    }
    #expect(c.message.contains("SMS, the factor sms, which this user cannot use (pool.sms && user.phone is false)"))
  }

  @Test("A first factor offered to every user is refuted by factors:, which no longer shares the rules' definition")
  func everyoneHasSmsOTP() throws {
    let model = try Self.edited(
      Self.models[2], [("  hasSmsOTP: \"pool.allowSmsOTP && user.phone\"", "  hasSmsOTP: \"true\"")])
    guard case .violated(let c)? = Self.verdict(model, .offersAreUsable) else {
      Issue.record("SMS_OTP offered to users without a phone, yet offersAreUsable holds")
      return
    }
    #expect(c.message.contains("SMS_OTP, the factor otp.sms, which this user cannot use"))
  }

  @Test("An offered option the step's choices: do not map to a factor is refuted")
  func offerWithoutFactor() throws {
    let model = try Self.edited(
      Self.models[1], [("    choices: {SMS: sms, TOTP: totp, EMAIL: email}", "    choices: {TOTP: totp, EMAIL: email}")]
    )
    guard case .violated(let c)? = Self.verdict(model, .offersAreUsable) else {
      Issue.record("an option that stands for no factor is not refuted")
      return
    }
    #expect(c.message.contains("SMS, which stands for no factor"))
  }
}
