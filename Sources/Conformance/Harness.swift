import CognitoWire
import ModelChecking
import SignInClient
import SignInModel
import SimulatedCognito

/// Drives a client against the simulated user pool call by call and compares what it
/// observes with the model (`ModelSimulator` over the shared `TransitionSystem` is the
/// oracle). Conformance runs and the fuzzer both run every call through `perform`.
///
/// Not covered, because the simulated pool or the client does not do them here: SRP flows
/// (userSRP, customWithSRP, PASSWORD_SRP), passkeys (WEB_AUTHN); network faults and expired
/// sessions at the two selection steps whose answer the client handles locally.
package struct Harness: Sendable {
  package let system: TransitionSystem
  package var model: SignInModel { system.model }
  /// The client's decisions: `.reference`, or a deliberately broken client's.
  package let hooks: ClientHooks

  package init(system: TransitionSystem, hooks: ClientHooks = .reference) {
    self.system = system
    self.hooks = hooks
  }

  package init(model: SignInModel, hooks: ClientHooks = .reference) {
    self.init(system: TransitionSystem(model: model), hooks: hooks)
  }

  /// One call to make: a response class, and whether the server then answers with a
  /// challenge no client knows (a future enum value).
  package struct Call: Sendable, Equatable {
    package var response: String
    package var unknownChallenge: Bool

    package init(response: String, unknownChallenge: Bool = false) {
      self.response = response
      self.unknownChallenge = unknownChallenge
    }
  }

  /// One client session on one simulated pool, with the model's state beside it.
  package struct Run: Sendable {
    package let configuration: [String: String]
    package fileprivate(set) var oracle: ModelSimulator
    let pool: SimulatedUserPool
    let client: SignInClient
  }

  /// What one call did.
  package struct Record: Sendable {
    /// "signIn" or "confirmSignIn".
    package let function: String
    package let call: Call
    package let stepBefore: String
    /// What the model's transition system does.
    package let modelOutcome: TraceOutcome
    /// What the client should do: `modelOutcome`, or the end of the flow after an unknown challenge.
    package let expected: TraceOutcome
    package let observation: Observation
    /// nil when the client did what the model expects.
    package let disagreement: Disagreement?
  }

  /// Whether the harness can exercise this configuration (see the type's notes).
  /// The pool has no devices and no SRP (so no `pool.customMfa`, which only customWithSRP
  /// reads), and PreventUserExistenceErrors is read only for a user that does not exist.
  package func covers(_ configuration: [String: String]) -> Bool {
    !["userSRP", "customWithSRP"].contains(configuration["pool.authFlow"] ?? "")
      && !["WEB_AUTHN", "PASSWORD_SRP"].contains(configuration["pool.preferredFirstFactor"] ?? "none")
      && (configuration["pool.customMfa"] ?? "none") == "none"
      && (configuration["pool.deviceTracking"] ?? "off") == "off"
      && !(configuration["user.exists"] != "false" && configuration["pool.preventUserExistenceErrors"] == "true")
  }

  /// Whether the harness can give `response` at the step `stepID`.
  package func supports(_ response: String, at stepID: String) -> Bool {
    guard let name = ResponseName(rawValue: response) else { return true }
    if ResponseName.unsupported.contains(name) { return false }
    return !(StepID.localSelections.contains(stepID) && name.isFault)
  }

  /// A new session for `configuration`, or nil when the model refuses the configuration or
  /// the harness does not cover it.
  package func start(_ configuration: [String: String], recordsTrace: Bool = false) -> Run? {
    guard covers(configuration),
      let oracle = try? ModelSimulator(system: system, configuration: configuration, recordsTrace: recordsTrace)
    else { return nil }
    let pool = SimulatedUserPool(configuration: configuration)
    let client = SignInClient(backend: pool, clientId: "harness", userPoolId: "us-east-1_sim", hooks: hooks)
    return Run(configuration: configuration, oracle: oracle, pool: pool, client: client)
  }

  /// Makes one call on both the model and the client and compares them.
  /// - Throws: the model's refusal (a response the step does not accept, a flow that ended).
  package func perform(_ call: Call, on run: inout Run) async throws(ModelSimulator.Failure) -> Record {
    guard let stepIndex = run.oracle.step else { throw .flowEnded("restart") }
    let step = model.steps[stepIndex]
    let offeredBefore = run.oracle.offered
    let modelOutcome = try run.oracle.respond(call.response)
    var expected = modelOutcome
    if call.unknownChallenge, case .step = expected {
      // Out of the model: the server answers with a challenge nobody knows yet. The flow
      // must end (a typed error, signed out), so a new signIn works.
      expected = .restart("unknown challenge FUTURE_CHALLENGE_2027")
      await run.pool.injectUnknownChallenge()
    }
    let response = ResponseName(rawValue: call.response)
    if response == .networkFault { await run.pool.injectNetworkFault() }
    if response == .expiredSession { await run.pool.expireSessions() }
    if response == .statusResetRequired { await run.pool.changeStatus(to: "resetRequired") }
    if response == .statusUnconfirmed { await run.pool.changeStatus(to: "unconfirmed") }
    let text = answer(call.response, step: step.id, offered: offeredBefore)
    let observation: Observation
    do {
      let result: AuthSignInResult
      if step.kind == .entry {
        let password = response == .wrongPassword ? text : SimulatedUserPool.password
        result = try await run.client.signIn(
          username: SimulatedUserPool.username, password: password,
          options: SignInOptions(authFlow: flow(run.configuration)))
      } else {
        result = try await run.client.confirmSignIn(challengeResponse: text)
      }
      observation = .returned(result.nextStep)
    } catch {
      observation = .threw(error, now: await run.client.currentStep)
    }
    let offeredAfter = call.unknownChallenge ? [] : run.oracle.offered
    return Record(
      function: step.kind == .entry ? "signIn" : "confirmSignIn", call: call, stepBefore: step.id,
      modelOutcome: modelOutcome, expected: expected, observation: observation,
      disagreement: compare(expected, observation, offered: offeredAfter))
  }

  /// The step's Swift name, or its model id when the model gives none.
  package func swiftName(_ stepID: String) -> String {
    guard let i = model.stepIndex(named: stepID) else { return stepID }
    if case .name(let n)? = model.steps[i].names.first(where: { $0.platform == "swift" })?.form { return n }
    return stepID
  }

  /// The answer the client sends for a response class at a step.
  package func answer(_ response: String, step: String, offered: [String]) -> String {
    switch ResponseName(rawValue: response) {
    case .correctCode: return SimulatedUserPool.code
    case .wrongCode: return "000000"
    case .malformedCode: return "12ab"
    case .expiredCode: return SimulatedUserPool.usedCode
    case .selectSMS: return "SMS_MFA"
    case .selectTOTP: return "SOFTWARE_TOKEN_MFA"
    case .selectEMAIL: return "EMAIL_OTP"
    case .selectUnknown: return "PUSH_MFA"
    case .selectPASSWORD: return "PASSWORD"
    case .selectSMS_OTP: return "SMS_OTP"
    case .selectEMAIL_OTP: return "EMAIL_OTP"
    case .validEmail: return "user@example.com"
    case .invalidEmail: return "not-an-address"
    case .goodNewPassword: return "NewPassw0rd!"
    case .badNewPassword: return "short"
    case .correctAnswer: return "right"
    case .wrongAnswer: return "wrong"
    case .failingAnswer: return "fail"
    case .correctPassword: return SimulatedUserPool.password
    case .wrongPassword: return "wrong-password"
    case .networkFault, .expiredSession, .statusResetRequired, .statusUnconfirmed, .selectPASSWORD_SRP, .selectWEB_AUTHN,
      nil:
      // A fault: the answer that would otherwise succeed.
      switch step {
      case StepID.mfaSelection:
        return ["SMS": "SMS_MFA", "TOTP": "SOFTWARE_TOKEN_MFA", "EMAIL": "EMAIL_OTP"][offered.first ?? ""] ?? "SMS_MFA"
      case StepID.emailMFASetup: return "user@example.com"
      case StepID.newPassword: return "NewPassw0rd!"
      case StepID.customChallenge: return "right"
      case StepID.password: return SimulatedUserPool.password
      default: return SimulatedUserPool.code
      }
    }
  }

  /// The auth flow the client asks for under `configuration`.
  package func flow(_ configuration: [String: String]) -> AuthFlowType {
    switch configuration["pool.authFlow"] {
    case "customWithoutSRP": return .customWithoutSRP
    case "userAuth":
      return .userAuth(preferredFirstFactor: AuthFactorType(rawValue: configuration["pool.preferredFirstFactor"] ?? ""))
    default: return .userPassword
    }
  }

  /// The options a selection step offers, in the model's option names.
  static func offeredNames(_ step: AuthSignInStep) -> Set<String>? {
    let mfa: [MFAType: String] = [.sms: "SMS", .totp: "TOTP", .email: "EMAIL"]
    switch step {
    case .continueSignInWithMFASelection(let types), .continueSignInWithMFASetupSelection(let types):
      return Set(types.compactMap { mfa[$0] })
    case .continueSignInWithFirstFactorSelection(let factors): return Set(factors.map(\.rawValue))
    default: return nil
    }
  }

  /// nil when the client did what the model expects; otherwise how it differed.
  /// `offered` is what the model's step offers after the call, for selection steps.
  package func compare(_ expected: TraceOutcome, _ observation: Observation, offered: [String] = []) -> Disagreement? {
    switch (expected, observation) {
    case (.step(let id), .returned(let step)):
      if step.name != swiftName(id) { return .wrongStep(returned: step.name, expected: swiftName(id)) }
      if let names = Self.offeredNames(step), !offered.isEmpty, names != Set(offered) {
        return .wrongOffers(offered: names.sorted(), expected: offered.sorted())
      }
      return nil
    case (.error(_, let stays), .threw(let error, let now)):
      if !error.isRetryable { return .flowEndedOnRetryableError(error) }
      return now?.name == swiftName(stays)
        ? nil : .wrongStepAfterError(error, now: now?.name, expected: swiftName(stays))
    case (.restart, .threw(let error, let now)):
      guard let now else { return nil }
      return .flowContinued(error, stays: now.name)
    case (_, .returned(let step)):
      return .returnedInstead(step.name, expected: expected)
    case (_, .threw(let error, _)):
      return .threwInstead(error, expected: expected)
    }
  }
}
