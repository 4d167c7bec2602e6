import CognitoWire
import Foundation

/// A reference implementation of Amplify's multi-step sign-in on Cognito's wire protocol,
/// with the API the 2026 Swift pages document. It is never stuck: any failure leaves it
/// either on the same step (retryable errors) or signed out, and `signIn` always starts over.
///
/// Remembered devices: a sign-in that ends with `NewDeviceMetadata` confirms the device
/// (ConfirmDevice) and remembers it for the username signIn was given; the next signIn for
/// that username sends its DEVICE_KEY and answers DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER
/// inside the client, with no step of their own (models/2026-all-platforms.yaml,
/// `flow.deviceVerified`).
public actor SignInClient {
  /// What the client is doing.
  enum State {
    case signedOut
    case challenge(Challenge)
    case signedIn(username: String)
  }

  /// The pending challenge and what answering it needs.
  struct Challenge {
    var username: String
    var name: String
    var session: String?
    var parameters: [String: String]
    var step: AuthSignInStep
    /// For MFA setup: the session returned by AssociateSoftwareToken, and the setup chosen.
    var setupSession: String?
    /// For a first factor chosen at SELECT_CHALLENGE (PASSWORD or PASSWORD_SRP).
    var chosenFactor: AuthFactorType?
  }

  let backend: CognitoBackend
  let clientId: String
  let userPoolId: String
  private var state: State = .signedOut
  private var password: String = ""
  /// Strings that must never appear in an error: the password, answers and sessions.
  private var secrets: Set<String> = [] { didSet { redactionOrder = nil } }
  /// `secrets` in the order `redact` replaces them, worked out at the first error after a change.
  private var redactionOrder: [String]?
  private var randomSource: @Sendable (Int) -> [UInt8]
  /// Bumped by every call that starts or ends a flow (signIn, signOut, restore). The actor is
  /// reentrant: another call can run at every `await`, so an exchange checks the generation
  /// after each one and, when it changed, drops its answer without touching the state.
  private var generation = 0
  /// The generation whose exchange is waiting for Cognito, if any.
  private var inFlight: Int?
  /// The decisions a test double may change; `.reference` for the reference client.
  let hooks: ClientHooks
  /// The devices Cognito remembers, by the username signIn was given (as amplify-swift keys
  /// them: `VerifyPasswordSRP.swift` reads them by the input username, so an alias sign-in
  /// finds the device it confirmed). They outlive flows and signOut.
  private var devices: [String: RememberedDevice]
  /// The username the current flow was started with (signIn's, or restore's): the one whose
  /// device answers a device challenge and remembers a new device.
  private var flowUsername = ""

  /// The name ConfirmDevice gives Cognito for this client's devices (DeviceName; Amplify sends
  /// the platform's device name or user agent).
  static let deviceName = "signin-spec SignInClient"

  /// - Parameters:
  ///   - userPoolId: e.g. `us-east-1_AbCdEf`; its part after `_` names the pool in SRP.
  ///   - random: the source of SRP's ephemeral secrets and of new devices' passwords and salts
  ///     (tests pass a fixed one).
  ///   - hooks: decisions a test double may change (see `ClientHooks`).
  public init(
    backend: CognitoBackend, clientId: String, userPoolId: String,
    random: @escaping @Sendable (Int) -> [UInt8] = { n in (0..<n).map { _ in UInt8.random(in: 0...255) } },
    hooks: ClientHooks = .reference
  ) {
    self.init(backend: backend, clientId: clientId, userPoolId: userPoolId, random: random, hooks: hooks, devices: [:])
  }

  /// A client that already remembers `devices`, by the username signIn will be given (a
  /// harness's way to start from an earlier sign-in on this device).
  package init(
    backend: CognitoBackend, clientId: String, userPoolId: String,
    random: @escaping @Sendable (Int) -> [UInt8] = { n in (0..<n).map { _ in UInt8.random(in: 0...255) } },
    hooks: ClientHooks = .reference, devices: [String: RememberedDevice]
  ) {
    self.hooks = hooks
    self.backend = backend
    self.clientId = clientId
    self.userPoolId = userPoolId
    self.randomSource = random
    self.devices = devices
  }

  /// Remembers `device` for `username`, replacing any device remembered for it.
  package func remember(_ device: RememberedDevice, for username: String) { devices[username] = device }

  /// The device remembered for `username`, if any.
  package func rememberedDevice(for username: String) -> RememberedDevice? { devices[username] }

  /// Forgets the device remembered for `username` (the next signIn sends no DEVICE_KEY).
  package func forgetDevice(for username: String) { devices[username] = nil }

  /// The current step, if a sign-in is in progress (for inspection and tests).
  public var currentStep: AuthSignInStep? {
    if case .challenge(let c) = state { return c.step }
    if case .signedIn = state { return .done }
    return nil
  }

  /// A call's result for `step` (`isSignedIn` through the hooks).
  private func signInResult(_ step: AuthSignInStep) -> AuthSignInResult {
    AuthSignInResult(nextStep: step, isSignedIn: hooks.resultSignedIn(step == .done, step))
  }

  public var isSignedIn: Bool {
    let reference = if case .signedIn = state { true } else { false }
    return hooks.reportsSignedIn(reference, currentStep)
  }

  /// What a caller sees of one call: its result or error, then `isSignedIn` and `currentStep` as
  /// they are once the call returned (read on the actor at once, as a caller awaiting the call
  /// and then reading them would find them with nothing else calling in between).
  package typealias Observed = (
    result: Result<AuthSignInResult, AuthError>, isSignedIn: Bool, currentStep: AuthSignInStep?
  )

  /// `signIn`, and what the user sees once it returned: one hop onto the actor for the call and the reads.
  package func observedSignIn(username: String, password: String?, options: SignInOptions) async -> Observed {
    await observing { () async throws(AuthError) in
      try await signIn(username: username, password: password, options: options)
    }
  }

  /// `confirmSignIn`, and what the user sees once it returned: one hop onto the actor for the call and the reads.
  package func observedConfirmSignIn(challengeResponse: String) async -> Observed {
    await observing { () async throws(AuthError) in try await confirmSignIn(challengeResponse: challengeResponse) }
  }

  /// `call`'s result or error, then `isSignedIn` and `currentStep`, read on the actor.
  private func observing(_ call: () async throws(AuthError) -> AuthSignInResult) async -> Observed {
    let result: Result<AuthSignInResult, AuthError>
    do { result = .success(try await call()) } catch { result = .failure(error) }
    return (result, isSignedIn, currentStep)
  }

  /// Retryable failures on a challenge in this flow (read only by `ClientHooks.endsFlowAfterFailures`).
  private var failuresInFlow = 0
  /// The last session kept, in this flow or an earlier one (read only by `ClientHooks.keptSession`).
  private var lastSession: String?
  /// The session VerifySoftwareToken returned in flow `generation`, kept until the MFA_SETUP
  /// answer that follows it is sent.
  private var verifiedSetup: (generation: Int, session: String)?

  // MARK: - Public API

  /// Starts a sign-in. A sign-in already in progress is cancelled first; a signed-in user
  /// must sign out first.
  public func signIn(username: String, password: String?, options: SignInOptions = SignInOptions())
    async throws(AuthError) -> AuthSignInResult
  {
    if case .signedIn = state {
      throw .invalidState("There is already a user in signedIn state. SignOut the user first before calling signIn")
    }
    generation &+= 1
    let previous = state
    state = .signedOut
    failuresInFlow = 0
    self.password = password ?? ""
    secrets = password.map { $0.isEmpty ? [] : [$0] } ?? []
    flowUsername = username
    var parameters: JSONObject = ["USERNAME": .string(username)]
    // "Add DEVICE_KEY if you want to bypass multi-factor authentication with a remembered
    // device" (InitiateAuth, AuthParameters), in every flow, as amplify-android does for SRP
    // and custom auth and amplify-js for USER_PASSWORD_AUTH.
    let deviceKey = devices[username]?.key
    if let deviceKey { parameters["DEVICE_KEY"] = .string(deviceKey) }
    let flow: String
    var srp: CognitoSRP? = nil
    switch options.authFlow {
    case .userPassword:
      flow = "USER_PASSWORD_AUTH"
      parameters["PASSWORD"] = .string(self.password)
    case .userSRP:
      flow = "USER_SRP_AUTH"
      srp = CognitoSRP(random: randomSource(128))
      parameters["SRP_A"] = .string(srp!.publicValue)
    case .customWithoutSRP:
      flow = "CUSTOM_AUTH"
    case .customWithSRP:
      flow = "CUSTOM_AUTH"
      srp = CognitoSRP(random: randomSource(128))
      parameters["SRP_A"] = .string(srp!.publicValue)
      parameters["CHALLENGE_NAME"] = .string("SRP_A")
    case .userAuth(let preferred):
      flow = "USER_AUTH"
      if let preferred { parameters["PREFERRED_CHALLENGE"] = .string(preferred.rawValue) }
      if preferred == .password { parameters["PASSWORD"] = .string(self.password) }
      if preferred == .passwordSRP {
        srp = CognitoSRP(random: randomSource(128))
        parameters["SRP_A"] = .string(srp!.publicValue)
      }
    }
    let password = self.password
    let body: JSONObject = [
      "ClientId": .string(clientId), "AuthFlow": .string(flow),
      "AuthParameters": .object(parameters),
    ]
    let mine = generation
    do {
      return try await run(username: username) { () throws(AuthError) -> JSONObject in
        var response = try await self.call("InitiateAuth", body, retryingOnce: deviceKey != nil)
        if response["ChallengeName"]?.string == "PASSWORD_VERIFIER", let srp {
          response = try await self.answerPasswordVerifier(
            response, srp: srp, username: username, password: password, deviceKey: deviceKey)
        }
        return response
      }
    } catch {
      if generation == mine, case .challenge = previous, hooks.keepsFlowOnFailedSignIn(error) { state = previous }
      throw error
    }
  }

  /// Answers the current step: a code, a selection, a new password, an address, an answer.
  public func confirmSignIn(challengeResponse: String) async throws(AuthError) -> AuthSignInResult {
    guard case .challenge(var challenge) = state else {
      if case .signedIn = state { return signInResult(.done) }
      throw .invalidState("No sign-in is in progress; call signIn first")
    }
    if inFlight == generation {
      throw .invalidState("a call on this sign-in is still waiting for Cognito; wait for its answer")
    }
    if challengeResponse.isEmpty { throw .validation("the answer is empty") }
    secrets.insert(challengeResponse)
    let username = challenge.username
    switch challenge.step {
    case .continueSignInWithMFASetupSelection(let allowed):
      guard let type = MFAType(answer: challengeResponse), allowed.contains(type) else {
        throw .validation("choose one of \(allowed.map(\.rawValue).sorted().joined(separator: ", ")) to set up")
      }
      return try await run(username: username) { () throws(AuthError) -> JSONObject in
        if type == .totp { return try await self.startTOTPSetup(challenge) }
        return [
          "ChallengeName": .string("MFA_SETUP"), "Session": challenge.session.map { .string($0) } ?? .null,
          "ChallengeParameters": .object(["MFAS_CAN_SETUP": .string("[\"EMAIL_OTP\"]")]),
        ]
      }
    case .continueSignInWithTOTPSetup:
      let mine = generation
      return try await run(username: username) { () throws(AuthError) -> JSONObject in
        // VerifySoftwareToken used up the setup session: when the MFA_SETUP answer after it
        // failed, the retry verifies the code the user typed now with the session it returned,
        // so a retry never signs in on a code nobody checked (a CHOICE: the reference does not
        // say what Swift's resolvingTOTPSetup(.error) sends; the model keeps the step and checks
        // the next code).
        let verifiedSession = self.verifiedSetup.flatMap { $0.generation == mine ? $0.session : nil }
        let verified = try await self.call(
          "VerifySoftwareToken",
          [
            "Session": (verifiedSession ?? challenge.setupSession).map { .string($0) } ?? .null,
            "UserCode": .string(challengeResponse),
          ])
        guard verified["Status"]?.string == "SUCCESS", let session = verified["Session"]?.string else {
          throw AuthError.codeMismatch
        }
        self.secrets.insert(session)
        self.verifiedSetup = (mine, session)
        return try await self.respond("MFA_SETUP", session: session, ["USERNAME": username])
      }
    case .continueSignInWithEmailMFASetup:
      guard challengeResponse.contains("@"), !challengeResponse.hasPrefix("@"), !challengeResponse.hasSuffix("@") else {
        throw .validation("enter a valid email address")
      }
      return try await run(username: username) { () throws(AuthError) -> JSONObject in
        try await self.respond(
          "MFA_SETUP", session: challenge.session, ["USERNAME": username, "EMAIL": challengeResponse])
      }
    case .continueSignInWithMFASelection:
      guard let type = MFAType(answer: challengeResponse) else {
        throw .validation("choose SMS_MFA, SOFTWARE_TOKEN_MFA or EMAIL_OTP")
      }
      return try await run(username: username) { () throws(AuthError) -> JSONObject in
        try await self.respond(
          "SELECT_MFA_TYPE", session: challenge.session, ["USERNAME": username, "ANSWER": type.rawValue])
      }
    case .continueSignInWithFirstFactorSelection(let offered):
      guard let factor = AuthFactorType(rawValue: challengeResponse.uppercased()) else {
        throw .validation("choose one of PASSWORD, PASSWORD_SRP, SMS_OTP, EMAIL_OTP, WEB_AUTHN")
      }
      // Swift checks only the syntax and sends the choice to Cognito, which decides. A password
      // factor is handled here without asking Cognito, so this client refuses it when no
      // password factor was offered (found by the conformance run); PASSWORD and PASSWORD_SRP
      // stand for each other, as the Android fixtures show.
      let passwordOffered = offered.contains(.password) || offered.contains(.passwordSRP)
      if (factor == .password || factor == .passwordSRP) && !passwordOffered {
        throw .validation(
          "\(factor.rawValue) was not offered; choose one of \(offered.map(\.rawValue).sorted().joined(separator: ", "))"
        )
      }
      if factor == .password || factor == .passwordSRP {
        challenge.chosenFactor = factor
        challenge.step = .confirmSignInWithPassword
        state = .challenge(challenge)
        return signInResult(.confirmSignInWithPassword)
      }
      if factor == .webAuthn {
        throw .unsupported("passkey sign-in needs a platform authenticator, which this client does not have")
      }
      return try await run(username: username) { () throws(AuthError) -> JSONObject in
        try await self.respond(
          "SELECT_CHALLENGE", session: challenge.session, ["USERNAME": username, "ANSWER": factor.rawValue])
      }
    case .confirmSignInWithPassword:
      password = challengeResponse
      let srp = challenge.chosenFactor == .passwordSRP ? CognitoSRP(random: randomSource(128)) : nil
      let deviceKey = devices[flowUsername]?.key
      let selectName = challenge.name == "SELECT_CHALLENGE" ? "SELECT_CHALLENGE" : challenge.name
      return try await run(username: username) { () throws(AuthError) -> JSONObject in
        var answers = ["USERNAME": username]
        if let srp {
          answers["ANSWER"] = "PASSWORD_SRP"
          answers["SRP_A"] = srp.publicValue
        } else {
          answers["ANSWER"] = "PASSWORD"
          answers["PASSWORD"] = challengeResponse
        }
        let name = selectName == "SELECT_CHALLENGE" ? "SELECT_CHALLENGE" : (srp == nil ? "PASSWORD" : "PASSWORD_SRP")
        var response = try await self.respond(name, session: challenge.session, answers)
        if response["ChallengeName"]?.string == "PASSWORD_VERIFIER", let srp {
          response = try await self.answerPasswordVerifier(
            response, srp: srp, username: username, password: challengeResponse, deviceKey: deviceKey)
        }
        return response
      }
    case .confirmSignInWithSMSMFACode, .confirmSignInWithTOTPCode, .confirmSignInWithOTP:
      let key =
        [
          "SMS_MFA": "SMS_MFA_CODE", "SOFTWARE_TOKEN_MFA": "SOFTWARE_TOKEN_MFA_CODE", "EMAIL_OTP": "EMAIL_OTP_CODE",
          "SMS_OTP": "SMS_OTP_CODE",
        ][challenge.name] ?? "ANSWER"
      return try await run(username: username) { () throws(AuthError) -> JSONObject in
        try await self.respond(
          challenge.name, session: challenge.session, ["USERNAME": username, key: challengeResponse])
      }
    case .confirmSignInWithCustomChallenge:
      return try await run(username: username) { () throws(AuthError) -> JSONObject in
        try await self.respond(
          "CUSTOM_CHALLENGE", session: challenge.session, ["USERNAME": username, "ANSWER": challengeResponse])
      }
    case .confirmSignInWithNewPassword:
      password = challengeResponse
      return try await run(username: username) { () throws(AuthError) -> JSONObject in
        try await self.respond(
          "NEW_PASSWORD_REQUIRED", session: challenge.session,
          ["USERNAME": username, "NEW_PASSWORD": challengeResponse])
      }
    case .resetPassword, .confirmSignUp, .done:
      throw .invalidState("No sign-in is in progress; call signIn first")
    }
  }

  /// Confirms a new user with the code sent at sign-up (ConfirmSignUp).
  public func confirmSignUp(username: String, confirmationCode: String) async throws(AuthError) {
    secrets.insert(confirmationCode)
    _ = try await call(
      "ConfirmSignUp",
      [
        "ClientId": .string(clientId), "Username": .string(username), "ConfirmationCode": .string(confirmationCode),
      ])
  }

  /// Sends the sign-up code again (ResendConfirmationCode).
  public func resendSignUpCode(username: String) async throws(AuthError) {
    _ = try await call("ResendConfirmationCode", ["ClientId": .string(clientId), "Username": .string(username)])
  }

  /// Starts a password reset (ForgotPassword).
  public func resetPassword(username: String) async throws(AuthError) {
    _ = try await call("ForgotPassword", ["ClientId": .string(clientId), "Username": .string(username)])
  }

  /// Finishes a password reset with the code (ConfirmForgotPassword).
  public func confirmResetPassword(username: String, newPassword: String, confirmationCode: String)
    async throws(AuthError)
  {
    secrets.formUnion([newPassword, confirmationCode])
    _ = try await call(
      "ConfirmForgotPassword",
      [
        "ClientId": .string(clientId), "Username": .string(username), "Password": .string(newPassword),
        "ConfirmationCode": .string(confirmationCode),
      ])
  }

  /// Forgets the signed-in user or the sign-in in progress.
  public func signOut() {
    if hooks.keepsUserOnSignOut, case .signedIn = state { return }
    generation &+= 1
    state = .signedOut
    password = ""
    secrets = []
  }

  /// Restores a pending challenge (for example one persisted across a relaunch, as the JS
  /// client keeps its sign-in store for three minutes), as if Cognito had just sent it.
  public func restore(
    username: String, challengeName: String, session: String?, parameters: [String: String] = [:],
    availableChallenges: [String] = []
  ) async throws(AuthError) -> AuthSignInResult {
    var response: JSONObject = [
      "ChallengeName": .string(challengeName), "ChallengeParameters": .object(parameters.mapValues { .string($0) }),
    ]
    if let session { response["Session"] = .string(session) }
    if !availableChallenges.isEmpty {
      response["AvailableChallenges"] = .array(availableChallenges.map { .string($0) })
    }
    generation &+= 1
    flowUsername = username
    return try await handle(response, username: username, generation: generation)
  }

  // MARK: - Flow machinery

  /// Runs a Cognito exchange and turns its answer into the next step. Retryable errors keep
  /// the current step; UserNotConfirmed and PasswordResetRequired become steps; anything
  /// else ends the flow (signed out), so a new signIn is never blocked. The state is read
  /// before the exchange and written after it only if no signIn, signOut or restore ran
  /// meanwhile (`generation`); a superseded call throws `invalidState` and changes nothing.
  private func run(
    username: String, _ exchange: () async throws(AuthError) -> JSONObject
  ) async throws(AuthError) -> AuthSignInResult {
    let mine = generation
    let before = state
    inFlight = mine
    defer { if inFlight == mine { inFlight = nil } }
    // Whether Cognito took the answer: a failure after that (while the next step is prepared)
    // ends the flow, since the answer's session is used up.
    var taken = false
    do {
      let response = try await exchange()
      taken = true
      try checkCurrent(mine)
      return try await handle(response, username: username, generation: mine)
    } catch {
      if generation != mine { throw Self.superseded }
      switch error {
      case .service(let type, _) where type == "UserNotConfirmedException":
        state = .signedOut
        return signInResult(.confirmSignUp(nil))
      case .service(let type, _) where type == "PasswordResetRequiredException":
        state = .signedOut
        return signInResult(.resetPassword(nil))
      default:
        let onChallenge: Bool
        if case .challenge = before { onChallenge = true } else { onChallenge = false }
        var stays =
          taken
          ? hooks.staysAfterTakenAnswer(error)
          : hooks.staysOnStepAfterError(error, onChallenge, error.isRetryable && onChallenge)
        if stays && onChallenge {
          failuresInFlow += 1
          if hooks.endsFlowAfterFailures(failuresInFlow) { stays = false }
        }
        state = stays && onChallenge ? before : .signedOut
        throw error
      }
    }
  }

  /// What a call superseded while it waited for Cognito throws.
  static let superseded = AuthError.invalidState(
    "signIn, signOut or restore was called while this call waited for Cognito; its answer was dropped")

  /// Throws `superseded` when a flow was started or ended since `mine`.
  private func checkCurrent(_ mine: Int) throws(AuthError) {
    if generation != mine { throw Self.superseded }
  }

  /// Sends one operation. With `retryingOnce`, as the JS and Android clients do, a
  /// ResourceNotFoundException (a remembered device Cognito no longer knows) is retried once;
  /// a second one ends the flow. When the request carried a DEVICE_KEY, that device is
  /// forgotten and the retry goes without it, as amplify-swift does
  /// (`AmplifyPlugins/Auth/Sources/AWSCognitoAuthPlugin/Actions/SignIn/SRPAuth/VerifyPasswordSRP.swift`:
  /// on ResourceNotFoundException it removes the device metadata and answers PASSWORD_VERIFIER
  /// again without it; "if deviceMetadata was not sent, the error returned is not from device
  /// not found", so a request without DEVICE_KEY forgets nothing) and amplify-android
  /// (`aws-auth-cognito/.../actions/SRPCognitoActions.kt`, `verifyPasswordSRPAction`); amplify-js
  /// does the same around InitiateAuth and the PASSWORD_VERIFIER answer
  /// (`packages/auth/src/providers/cognito/utils/retryOnResourceNotFoundException.ts`).
  func call(_ operation: String, _ body: JSONObject, retryingOnce: Bool = false) async throws(AuthError) -> JSONObject {
    do {
      return try await send(operation, body)
    } catch {
      if retryingOnce, case .service(let type, _) = error, type == "ResourceNotFoundException" {
        let (retry, deviceKey) = Self.withoutDeviceKey(body)
        if let deviceKey { forgetDevice(key: deviceKey) }
        return try await call(operation, retry)
      }
      throw mapError(error, operation: operation)
    }
  }

  /// Sends one operation as it is; a session in the answer becomes a secret.
  private func send(_ operation: String, _ body: JSONObject) async throws(CognitoCallError) -> JSONObject {
    let response = try await backend.send(operation, body)
    if let session = response["Session"]?.string { secrets.insert(session) }
    return response
  }

  /// `body` without the DEVICE_KEY of its AuthParameters or ChallengeResponses, and that key.
  static func withoutDeviceKey(_ body: JSONObject) -> (JSONObject, String?) {
    var body = body
    var key: String? = nil
    for field in ["AuthParameters", "ChallengeResponses"] {
      guard var values = body[field]?.object, let value = values.removeValue(forKey: "DEVICE_KEY") else { continue }
      key = value.string
      body[field] = .object(values)
    }
    return (body, key)
  }

  /// Forgets the device whose key is `key`, whichever username it is remembered for.
  private func forgetDevice(key: String) { devices = devices.filter { $0.value.key != key } }

  /// Cognito's error, as the client reports it, with every known secret redacted.
  func mapError(_ error: CognitoCallError, operation: String = "") -> AuthError {
    hooks.reportedError(error, referenceError(error, operation: operation))
  }

  /// The reference client's error for Cognito's failure. ResourceNotFoundException at a
  /// challenge answer means the session is gone (reported as not authorized); from
  /// AssociateSoftwareToken it is reported by its name, as the clients do (amplify-swift
  /// SignInSetUpTOTPTests testSignInWithResourceNotFoundException: `.resourceNotFound`).
  private func referenceError(_ error: CognitoCallError, operation: String) -> AuthError {
    switch error {
    case .network(let m): return .network(redact(m))
    case .malformed(let m): return .invalidServiceResponse(redact(m))
    case .service(let type, let message):
      // The message is redacted only where the error keeps it.
      switch type {
      case "CodeMismatchException": return .codeMismatch
      case "ExpiredCodeException": return .codeExpired
      case "EnableSoftwareTokenMFAException": return .softwareTokenMFANotEnabled
      case "InvalidPasswordException": return .invalidPassword
      case "InvalidParameterException": return .invalidParameter(redact(message))
      case "NotAuthorizedException":
        let m = redact(message)
        return .notAuthorized(m.isEmpty ? "Incorrect username or password" : m)
      case "UserNotFoundException": return .userNotFound
      case "ResourceNotFoundException" where operation != "AssociateSoftwareToken":
        return .notAuthorized("the session is not valid any more")
      default: return .service(type: type, message: redact(message))
      }
    }
  }

  func respond(_ name: String, session: String?, _ answers: [String: String]) async throws(AuthError) -> JSONObject {
    var body: JSONObject = [
      "ClientId": .string(clientId), "ChallengeName": .string(name),
      "ChallengeResponses": .object(answers.mapValues { .string($0) }),
    ]
    if let session { body["Session"] = .string(session) }
    return try await call("RespondToAuthChallenge", body, retryingOnce: true)
  }

  /// Answers PASSWORD_VERIFIER; with the DEVICE_KEY of the device remembered for this flow's
  /// user, as amplify-js, amplify-android and pycognito send it.
  private func answerPasswordVerifier(
    _ response: JSONObject, srp: CognitoSRP, username: String, password: String, deviceKey: String?
  ) async throws(AuthError) -> JSONObject {
    let p = response["ChallengeParameters"]?.stringMap ?? [:]
    guard let srpB = p["SRP_B"], let salt = p["SALT"], let block = p["SECRET_BLOCK"] else {
      throw .invalidServiceResponse("PASSWORD_VERIFIER without SRP_B, SALT or SECRET_BLOCK")
    }
    let userId = p["USER_ID_FOR_SRP"] ?? username
    let timestamp = CognitoSRP.timestamp(Date())
    let poolName = String(userPoolId.split(separator: "_").last ?? Substring(userPoolId))
    guard
      let signature = srp.signature(
        poolName: poolName, userIdForSRP: userId, password: password, srpB: srpB,
        salt: salt, secretBlock: block, timestamp: timestamp)
    else { throw .invalidServiceResponse("invalid SRP values from Cognito") }
    var answers: JSONObject = [
      "USERNAME": .string(userId), "PASSWORD_CLAIM_SECRET_BLOCK": .string(block),
      "PASSWORD_CLAIM_SIGNATURE": .string(signature), "TIMESTAMP": .string(timestamp),
    ]
    if let deviceKey { answers["DEVICE_KEY"] = .string(deviceKey) }
    var body: JSONObject = [
      "ClientId": .string(clientId), "ChallengeName": .string("PASSWORD_VERIFIER"),
      "ChallengeResponses": .object(answers),
    ]
    if let session = response["Session"]?.string { body["Session"] = .string(session) }
    return try await call("RespondToAuthChallenge", body, retryingOnce: true)
  }

  // MARK: - Remembered devices

  /// Cognito's errors at a device challenge after which the device is forgotten: the pool does
  /// not accept the device's claim (NotAuthorizedException, as amplify-android's
  /// `aws-auth-cognito/.../actions/DeviceSRPCognitoSignInActions.kt` clears the device on it) or
  /// no longer knows the device (ResourceNotFoundException, which amplify-js's
  /// `retryOnResourceNotFoundException.ts` clears around the device challenges too). Kept, the
  /// device would fail every later sign-in the same way; forgotten, the next signIn goes
  /// without DEVICE_KEY and Cognito issues a new device.
  static let errorsForgettingDevice: Set<String> = ["NotAuthorizedException", "ResourceNotFoundException"]

  /// Answers DEVICE_SRP_AUTH and then DEVICE_PASSWORD_VERIFIER with the device remembered for
  /// `user` (a fresh `a`; the device key signs in place of the user id and the group key in
  /// place of the pool name), and returns Cognito's answer to the second. Neither is retried:
  /// without the device there is nothing to answer them with, so a failure ends the flow
  /// (amplify-swift and amplify-android end the sign-in with the error too), after forgetting
  /// the device for the errors in `errorsForgettingDevice`.
  private func answerDeviceChallenge(
    _ response: JSONObject, username: String, user: String, generation mine: Int
  ) async throws(AuthError) -> JSONObject {
    guard let device = devices[user] else {
      throw .invalidServiceResponse("DEVICE_SRP_AUTH, but no device is remembered for this user")
    }
    secrets.insert(device.password)
    let srp = CognitoSRP(random: randomSource(128))
    let name = response["ChallengeParameters"]?.stringMap["USERNAME"] ?? username
    let verifier = try await sendDeviceAnswer(
      "DEVICE_SRP_AUTH", session: response["Session"]?.string,
      ["USERNAME": name, "DEVICE_KEY": device.key, "SRP_A": srp.publicValue], device: device)
    try checkCurrent(mine)
    guard verifier["ChallengeName"]?.string == "DEVICE_PASSWORD_VERIFIER" else {
      throw .invalidServiceResponse(
        "DEVICE_SRP_AUTH was answered with \(verifier["ChallengeName"]?.string ?? "no challenge"), "
          + "not DEVICE_PASSWORD_VERIFIER")
    }
    let p = verifier["ChallengeParameters"]?.stringMap ?? [:]
    guard let srpB = p["SRP_B"], let salt = p["SALT"], let block = p["SECRET_BLOCK"] else {
      throw .invalidServiceResponse("DEVICE_PASSWORD_VERIFIER without SRP_B, SALT or SECRET_BLOCK")
    }
    let timestamp = CognitoSRP.timestamp(Date())
    guard
      let signature = srp.signature(
        poolName: device.groupKey, userIdForSRP: device.key, password: device.password, srpB: srpB, salt: salt,
        secretBlock: block, timestamp: timestamp)
    else { throw .invalidServiceResponse("invalid SRP values from Cognito") }
    let result = try await sendDeviceAnswer(
      "DEVICE_PASSWORD_VERIFIER", session: verifier["Session"]?.string,
      [
        "USERNAME": p["USERNAME"] ?? name, "DEVICE_KEY": device.key, "PASSWORD_CLAIM_SECRET_BLOCK": block,
        "PASSWORD_CLAIM_SIGNATURE": signature, "TIMESTAMP": timestamp,
      ], device: device)
    try checkCurrent(mine)
    if let next = result["ChallengeName"]?.string, next.hasPrefix("DEVICE_") {
      throw .invalidServiceResponse("DEVICE_PASSWORD_VERIFIER was answered with \(next)")
    }
    return result
  }

  /// Sends a device challenge's answer, forgetting `device` on the errors in
  /// `errorsForgettingDevice`.
  private func sendDeviceAnswer(
    _ name: String, session: String?, _ answers: [String: String], device: RememberedDevice
  ) async throws(AuthError) -> JSONObject {
    var body: JSONObject = [
      "ClientId": .string(clientId), "ChallengeName": .string(name),
      "ChallengeResponses": .object(answers.mapValues { .string($0) }),
    ]
    if let session { body["Session"] = .string(session) }
    do {
      return try await send("RespondToAuthChallenge", body)
    } catch {
      if case .service(let type, _) = error, Self.errorsForgettingDevice.contains(type) {
        forgetDevice(key: device.key)
      }
      throw mapError(error)
    }
  }

  /// Confirms the device Cognito issued with the tokens (`AuthenticationResult.NewDeviceMetadata`)
  /// and, once Cognito took it, remembers it for `user`. A new random password (40 bytes,
  /// base64) and salt (16 bytes) make the verifier (`CognitoSRP.newDevice`). The sign-in does
  /// not depend on it: any failure (ConfirmDevice's error, no AccessToken) leaves the user
  /// signed in and the device not remembered, as amplify-js
  /// (`packages/auth/src/providers/cognito/utils/getNewDeviceMetadata.ts`: "If an error is thrown
  /// while generating a hash device or calling the `ConfirmDevice` client, then this API will
  /// ignore the error … Otherwise the authentication flow will not complete") and amplify-swift
  /// (`Actions/SignIn/ConfirmDevice.swift`: logs the error and finishes the sign-in) do. Like
  /// them, the device is remembered whatever UserConfirmationNecessary says.
  private func confirmDevice(_ result: JSONObject, for user: String) async {
    guard let metadata = result["NewDeviceMetadata"]?.object, let key = metadata["DeviceKey"]?.string,
      let accessToken = result["AccessToken"]?.string
    else { return }
    let groupKey = metadata["DeviceGroupKey"]?.string ?? ""
    let device = CognitoSRP.newDevice(
      groupKey: groupKey, deviceKey: key, passwordBytes: randomSource(40), saltBytes: randomSource(16))
    let body: JSONObject = [
      "AccessToken": .string(accessToken), "DeviceKey": .string(key), "DeviceName": .string(Self.deviceName),
      "DeviceSecretVerifierConfig": .object([
        "PasswordVerifier": .string(device.passwordVerifier), "Salt": .string(device.salt),
      ]),
    ]
    do {
      _ = try await send("ConfirmDevice", body)
      devices[user] = RememberedDevice(key: key, groupKey: groupKey, password: device.password)
    } catch {
      return
    }
  }

  private func startTOTPSetup(_ challenge: Challenge) async throws(AuthError) -> JSONObject {
    // Keep the MFA_SETUP challenge; `handle` sees the marker and reads the secret.
    [
      "ChallengeName": .string("MFA_SETUP"), "Session": challenge.session.map { .string($0) } ?? .null,
      "ChallengeParameters": .object(["MFAS_CAN_SETUP": .string("[\"SOFTWARE_TOKEN_MFA\"]")]),
    ]
  }

  /// Turns Cognito's answer into the next step (the Swift client's mapping, C.1.2).
  /// `generation`: the flow the answer belongs to; checked again after the one `await` here.
  private func handle(
    _ response: JSONObject, username: String, generation mine: Int
  ) async throws(AuthError) -> AuthSignInResult {
    let user = flowUsername
    if let result = response["AuthenticationResult"]?.object {
      await confirmDevice(result, for: user)
      try checkCurrent(mine)
      state = .signedIn(username: username)
      secrets = []
      return signInResult(.done)
    }
    guard let name = response["ChallengeName"]?.string else {
      throw .invalidServiceResponse("neither AuthenticationResult nor ChallengeName in the answer")
    }
    // The device challenges have no step: the client answers them and goes on with what
    // follows (tokens, or a challenge Cognito asks after them).
    if name == "DEVICE_SRP_AUTH" {
      let next: JSONObject
      do {
        next = try await answerDeviceChallenge(response, username: username, user: user, generation: mine)
      } catch {
        if generation == mine { state = .signedOut }
        throw error
      }
      return try await handle(next, username: username, generation: mine)
    }
    var currentSession: String? = nil
    if case .challenge(let current) = state { currentSession = current.session }
    let session = hooks.keptSession(response["Session"]?.string, currentSession, lastSession)
    lastSession = session ?? lastSession
    let parameters = response["ChallengeParameters"]?.stringMap ?? [:]
    let delivery = AuthCodeDeliveryDetails(
      destination: parameters["CODE_DELIVERY_DESTINATION"] ?? "",
      medium: AuthCodeDeliveryDetails.Medium(rawValue: parameters["CODE_DELIVERY_DELIVERY_MEDIUM"] ?? "") ?? .unknown)
    let info = parameters.filter {
      !$0.key.hasPrefix("CODE_DELIVERY") && $0.key != "USERNAME" && $0.key != "USER_ID_FOR_SRP"
    }
    var challenge = Challenge(
      username: parameters["USER_ID_FOR_SRP"] ?? username, name: name, session: session,
      parameters: parameters, step: .done)
    switch name {
    case "SMS_MFA": challenge.step = .confirmSignInWithSMSMFACode(delivery, info.isEmpty ? nil : info)
    case "SOFTWARE_TOKEN_MFA":
      challenge.step = .confirmSignInWithTOTPCode
    case "EMAIL_OTP", "SMS_OTP": challenge.step = .confirmSignInWithOTP(delivery)
    case "CUSTOM_CHALLENGE": challenge.step = .confirmSignInWithCustomChallenge(info.isEmpty ? nil : info)
    case "NEW_PASSWORD_REQUIRED": challenge.step = .confirmSignInWithNewPassword(info.isEmpty ? nil : info)
    case "PASSWORD", "PASSWORD_SRP": challenge.step = .confirmSignInWithPassword
    case "SELECT_MFA_TYPE":
      challenge.step = .continueSignInWithMFASelection(Self.mfaTypes(parameters["MFAS_CAN_CHOOSE"]))
    case "SELECT_CHALLENGE":
      let names = response["AvailableChallenges"]?.array?.compactMap(\.string) ?? []
      challenge.step = .continueSignInWithFirstFactorSelection(Set(names.compactMap(AuthFactorType.init(rawValue:))))
    case "MFA_SETUP":
      var types = Self.mfaTypes(parameters["MFAS_CAN_SETUP"])
      types.remove(.sms)  // C.6 item 4: the clients cannot set up SMS
      if types == [.totp] {
        let associated = try await call("AssociateSoftwareToken", ["Session": session.map { .string($0) } ?? .null])
        try checkCurrent(mine)
        guard let secret = associated["SecretCode"]?.string else {
          throw .invalidServiceResponse("AssociateSoftwareToken returned no SecretCode")
        }
        challenge.setupSession = associated["Session"]?.string ?? session
        challenge.step = .continueSignInWithTOTPSetup(TOTPSetupDetails(sharedSecret: secret, username: username))
      } else if types == [.email] {
        challenge.step = .continueSignInWithEmailMFASetup
      } else if types.count > 1 {
        challenge.step = .continueSignInWithMFASetupSelection(types)
      } else {
        state = .signedOut
        throw .invalidServiceResponse(
          "Cannot initiate MFA setup from available types: \(parameters["MFAS_CAN_SETUP"] ?? "[]")")
      }
    case "WEB_AUTHN":
      state = .signedOut
      throw .unsupported("passkey sign-in needs a platform authenticator, which this client does not have")
    default:
      state = .signedOut
      throw .unknownChallenge(name)
    }
    challenge.step = hooks.presentedStep(name, parameters, challenge.step)
    state = .challenge(challenge)
    return signInResult(challenge.step)
  }

  /// Parses MFAS_CAN_CHOOSE / MFAS_CAN_SETUP (a JSON list in a string); unknown values are dropped.
  static func mfaTypes(_ text: String?) -> Set<MFAType> {
    guard let text,
      let names = plainNameList(text) ?? (try? JSONDecoder().decode([String].self, from: Data(text.utf8)))
    else { return [] }
    return Set(names.compactMap { MFAType(rawValue: $0) })
  }

  /// The names of a JSON list written as Cognito writes it, `["SMS_MFA","EMAIL_OTP"]`: only
  /// letters, digits and "_" in each name, no spaces; nil for any other text (`mfaTypes` then
  /// reads it with `JSONDecoder`, with the same result for these).
  static func plainNameList(_ text: String) -> [String]? {
    var utf8 = text.utf8[...]
    guard utf8.first == UInt8(ascii: "["), utf8.last == UInt8(ascii: "]") else { return nil }
    utf8 = utf8.dropFirst().dropLast()
    if utf8.isEmpty { return [] }
    var names: [String] = []
    for item in utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
      guard item.count >= 2, item.first == UInt8(ascii: "\""), item.last == UInt8(ascii: "\"") else { return nil }
      let name = item.dropFirst().dropLast()
      guard
        name.allSatisfy({ byte in
          (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        })
      else { return nil }
      names.append(String(decoding: name, as: UTF8.self))
    }
    return names
  }

  private func redact(_ text: String) -> String {
    if secrets.isEmpty || text.isEmpty { return text }
    var result = text
    // Longest first, then in text order: a secret inside another ("Passw0rd!" in "NewPassw0rd!")
    // must not leave the rest of the longer one showing, whatever the set's order.
    let ordered = redactionOrder ?? secrets.sorted { ($0.utf8.count, $1) > ($1.utf8.count, $0) }
    redactionOrder = ordered
    // Byte by byte for printable ASCII text and ASCII secrets (the same result); Foundation
    // otherwise. A byte-by-byte replacement keeps the text printable ASCII, so the text's bytes
    // are checked again only after Foundation replaced.
    var printable = UTF8Search.isPrintableASCII(result)
    for secret in ordered where secret.count >= 3 {
      if printable, let replaced = UTF8Search.replacing(secret, with: "[redacted]", inPrintableASCII: result) {
        result = replaced
      } else {
        result = result.replacingOccurrences(of: secret, with: "[redacted]")
        printable = UTF8Search.isPrintableASCII(result)
      }
    }
    return result
  }
}
