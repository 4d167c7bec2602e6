import ClientBugs
import Conformance
import Fuzzing
import ModelChecking
import Scenarios
import SignInClient
import SignInModel
import SimulatedCognito
import Testing

/// SRP flows and remembered devices through the one harness: the reference client does SRP's
/// exchange and the device challenges against the simulated pool, call by call against the
/// 2026 model, and a broken client is caught there too.
@Suite("SRP and remembered devices on the simulated pool")
struct SRPConformanceTests {
  static let model = Result { try ModelLoader.load(file: "models/2026-all-platforms.yaml") }

  /// The model's defaults (pool.authFlow userSRP) with `settings` over them, checked as `--set` is.
  static func configuration(_ settings: [String: String]) throws -> [String: String] {
    try ConfigurationResolver(model: try Self.model.get()).resolve(settings.map { (name: $0.key, value: $0.value) })
  }

  /// Runs `responses` from signIn; fails the test on the first disagreement. Returns what the
  /// model expected at each call, and the run (for what the client then remembers).
  static func run(
    _ settings: [String: String], _ responses: [String], hooks: ClientHooks = .reference
  ) async throws -> (outcomes: [TraceOutcome], run: Harness.Run) {
    let harness = Harness(model: try model.get(), hooks: hooks)
    let configuration = try configuration(settings)
    var run = try #require(harness.start(configuration), "the harness covers \(settings)")
    var outcomes: [TraceOutcome] = []
    for response in responses {
      let record = try await harness.perform(Harness.Call(response: response), on: &run)
      #expect(record.disagreement == nil, "\(response): \(String(describing: record.disagreement))")
      outcomes.append(record.expected)
    }
    return (outcomes, run)
  }

  static let sms = [
    "pool.mfa": "required", "pool.sms": "true", "user.phone": "true", "user.smsEnabled": "true",
  ]

  @Test(
    "USER_SRP_AUTH: the client answers PASSWORD_VERIFIER from the password; SMS MFA follows; a wrong password ends the flow"
  )
  func userSRP() async throws {
    let settings = Self.sms.merging(["pool.authFlow": "userSRP"]) { $1 }
    #expect(Harness.usesSRP(try Self.configuration(settings)))
    let (outcomes, _) = try await Self.run(settings, ["correctPassword", "wrongCode", "correctCode"])
    #expect(
      outcomes == [
        .step("confirmSignInWithSMSMFACode"), .error("CodeMismatchException", stays: "confirmSignInWithSMSMFACode"),
        .step("done"),
      ])
    let (wrong, _) = try await Self.run(settings, ["wrongPassword"])
    #expect(wrong == [.restart("NotAuthorizedException: Incorrect username or password")])
  }

  @Test(
    "CUSTOM_AUTH with SRP_A: after the verifier the custom challenge, or the pool's MFA first (each pool.customMfa)",
    arguments: [
      ("none", ["confirmSignInWithCustomChallenge", "done"]),
      ("mfaThenTokens", ["confirmSignInWithSMSMFACode", "done"]),
      ("mfaThenCustom", ["confirmSignInWithSMSMFACode", "confirmSignInWithCustomChallenge", "done"]),
    ])
  func customWithSRP(customMfa: String, steps: [String]) async throws {
    let settings = Self.sms.merging(["pool.authFlow": "customWithSRP", "pool.customMfa": customMfa]) { $1 }
    let answers =
      ["correctPassword"]
      + steps.dropLast().map {
        $0 == "confirmSignInWithCustomChallenge" ? "correctAnswer" : "correctCode"
      }
    let (outcomes, _) = try await Self.run(settings, answers)
    #expect(outcomes == steps.map { .step($0) })
  }

  @Test("USER_AUTH's PASSWORD_SRP, preferred at signIn or selected as the first factor, signs in over SRP")
  func passwordSRP() async throws {
    let preferred = ["pool.authFlow": "userAuth", "pool.preferredFirstFactor": "PASSWORD_SRP"]
    let (direct, _) = try await Self.run(preferred, ["correctPassword"])
    #expect(direct == [.step("done")])
    let select = ["pool.authFlow": "userAuth", "pool.allowEmailOTP": "true"]
    let (selected, run) = try await Self.run(select, ["correctPassword", "selectPASSWORD_SRP", "correctPassword"])
    #expect(
      selected == [.step("continueSignInWithFirstFactorSelection"), .step("confirmSignInWithPassword"), .step("done")])
    #expect(try await run.pool.state().lastChallengeParameters["SRP_B"] != nil, "the pool answered PASSWORD_VERIFIER")
  }

  static let device = Self.sms.merging([
    "pool.authFlow": "userSRP", "pool.deviceTracking": "always", "pool.deviceSuppressesMfa": "true",
  ]) { $1 }

  @Test("a remembered device the pool knows replaces MFA: the client answers the device challenges inside signIn")
  func rememberedDeviceSuppressesMFA() async throws {
    let (outcomes, run) = try await Self.run(
      Self.device.merging(["user.deviceRemembered": "true"]) { $1 }, ["correctPassword"])
    #expect(outcomes == [.step("done")])
    let client = try #require(run.client as? InProcessClient)
    #expect(
      await client.client.rememberedDevice(for: SimulatedUserPool.username)?.key == run.pool.configuredDevice?.key)
  }

  @Test("without a remembered device MFA is asked, and the client confirms the device the tokens name")
  func newDeviceConfirmed() async throws {
    let (outcomes, run) = try await Self.run(
      Self.device.merging(["user.deviceRemembered": "false"]) { $1 }, ["correctPassword", "correctCode"])
    #expect(outcomes == [.step("confirmSignInWithSMSMFACode"), .step("done")])
    let client = try #require(run.client as? InProcessClient)
    let device = try #require(await client.client.rememberedDevice(for: SimulatedUserPool.username))
    #expect(device.key.hasPrefix("us-east-1_"), "ConfirmDevice took the device the pool issued: \(device.key)")
  }

  @Test("a device remembered in a flow that does not skip MFA: MFA is asked, then the device challenge, then done")
  func rememberedDeviceAfterMFA() async throws {
    let settings = Self.device.merging(["user.deviceRemembered": "true", "pool.deviceSuppressesMfa": "false"]) { $1 }
    let (outcomes, _) = try await Self.run(settings, ["correctPassword", "correctCode"])
    #expect(outcomes == [.step("confirmSignInWithSMSMFACode"), .step("done")])
  }

  @Test("a broken client is caught in an SRP flow: the wrong error type after a wrong password over SRP")
  func brokenClientCaught() async throws {
    let harness = Harness(model: try Self.model.get(), hooks: DeliberateBug.wrongErrorType.hooks)
    var run = try #require(harness.start(try Self.configuration(["pool.authFlow": "userSRP"])))
    let record = try await harness.perform(Harness.Call(response: "wrongPassword"), on: &run)
    #expect(record.disagreement?.field == "errorType", "\(String(describing: record.disagreement))")
  }

  @Test("the fuzzer finds a broken client in SRP cases, and shrinks the case without leaving SRP")
  func fuzzerCatchesInSRP() async throws {
    let model = try Self.model.get()
    let fuzzer = Fuzzer(executor: CaseExecutor(model: model, hooks: DeliberateBug.wrongErrorType.hooks), srpShare: 1)
    let summary = await fuzzer.run(seed: 3, indices: 0..<60, deadline: nil, stopAtFirstFailure: true)
    let finding = try #require(summary.findings.first, "wrongErrorType not found in 60 SRP cases")
    #expect(summary.srpCases == summary.cases)
    #expect(finding.fuzzCase.calls.count <= finding.originalLength)
    #expect(await CaseExecutor(model: model).execute(finding.fuzzCase).failed == false)
  }

  @Test("the model is wrong for an unconfirmed user's wrong password over SRP: the harness leaves exactly that out")
  func unconfirmedLeftOut() async throws {
    let harness = Harness(model: try Self.model.get())
    for flow in ["userSRP", "customWithSRP"] {
      var run = try #require(
        harness.start(try Self.configuration(["pool.authFlow": flow, "user.status": "unconfirmed"])))
      #expect(!harness.supports("wrongPassword", in: run.oracle))
      #expect(harness.supports("correctPassword", in: run.oracle))
      // Cognito (and the pool) answer UserNotConfirmedException; the model restarts with NotAuthorized.
      let record = try await harness.perform(Harness.Call(response: "wrongPassword"), on: &run)
      #expect(record.observation.description.hasPrefix("confirmSignUp"), "\(record.observation)")
      #expect(record.disagreement != nil, "the model now agrees: drop unconfirmedUserBeforeSRPVerifier")
    }
    let reset = try #require(harness.start(try Self.configuration(["user.status": "resetRequired"])))
    #expect(harness.supports("wrongPassword", in: reset.oracle), "a reset-required user is told after the password")
    let password = try #require(
      harness.start(try Self.configuration(["pool.authFlow": "userPassword", "user.status": "unconfirmed"])))
    #expect(harness.supports("wrongPassword", in: password.oracle))
  }
}
