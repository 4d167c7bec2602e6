import BigInt
import CognitoSRPMath
import CognitoWire
import Foundation

/// An in-process Cognito user pool that answers the sign-in operations the way the models say
/// Cognito does (reference part A), for one pool and one user configured with the models'
/// variable names (`pool.mfa`, `user.status`, …). Written independently of the model files,
/// so the conformance runner can check one against the other. By default (`Codes.fixed`) codes
/// are fixed: "123456" is right for SMS, email, TOTP and setup codes; the custom challenge's
/// answer is "right", and "fail" makes the define trigger fail authentication. With
/// `Codes.generated` (`signin-spec serve`) each SMS or email code is drawn fresh and TOTP codes
/// are checked by RFC 6238 at the pool's clock. Every code sent is recorded in `outbox`.
///
/// SRP-6a is simulated on the server side: USER_SRP_AUTH, CUSTOM_AUTH with SRP_A and USER_AUTH's
/// PASSWORD_SRP answer PASSWORD_VERIFIER (salt, B from a seeded secret b, a secret block), and
/// a correct PASSWORD_CLAIM_SIGNATURE goes on as a correct password does. Its randomness comes
/// from `seed`, so the same calls get the same SALT, SRP_B and SECRET_BLOCK.
///
/// Remembered devices are simulated too (`DevicePool.swift`): with `pool.deviceTracking` on, tokens
/// come with NewDeviceMetadata, `ConfirmDevice` stores the device's verifier, and an InitiateAuth
/// naming a confirmed DEVICE_KEY answers DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER before the
/// tokens (before MFA where `pool.deviceSuppressesMfa` lets a remembered device replace it).
///
/// `Lifecycle.perFlow` (the fuzzer's pool) starts every flow from the configuration and ends
/// the earlier ones; `Lifecycle.persistent` (`signin-spec serve`) keeps what Cognito keeps: open
/// flows side by side, a new password, a registered TOTP secret, confirmed devices.
///
/// Not simulated: passkeys, SRP's clock (any well-formed TIMESTAMP passes).
package actor SimulatedUserPool: CognitoBackend {
  package static let username = "user"
  package static let password = "Passw0rd!"
  /// The pool id a client names when it signs in here; SRP signs with its part after "_".
  package static let poolId = "us-east-1_sim"
  package static let code = "123456"
  /// A well-formed code that was already used in its window: ExpiredCodeException at a code
  /// challenge, a mismatch at TOTP setup (VerifySoftwareToken lists no ExpiredCodeException).
  package static let usedCode = "111111"

  /// How the pool's codes are made and checked.
  package enum Codes: Sendable {
    /// "123456" is right for every code; "111111" is a used one (the fuzzer's and the
    /// conformance runner's pool).
    case fixed
    /// Each SMS or email code is six digits drawn from the seeded generator, right until it is
    /// used once (then ExpiredCodeException); TOTP codes are checked by RFC 6238 (HMAC-SHA1,
    /// 30 s steps, one step of tolerance either side) at `clock`, against the secret
    /// AssociateSoftwareToken returned or, for a registered user, `totpSecret`.
    case generated(clock: @Sendable () -> Date)
  }

  /// A code the pool sent, as a user's phone or mailbox would receive it.
  package struct SentMessage: Sendable, Equatable {
    package var username: String
    /// "SMS" or "EMAIL".
    package var medium: String
    /// Masked as the challenge's CODE_DELIVERY_DESTINATION shows it.
    package var destination: String
    package var code: String
    /// The operation whose answer sent it (InitiateAuth, RespondToAuthChallenge).
    package var operation: String
    package var time: Date

    package init(
      username: String, medium: String, destination: String, code: String, operation: String, time: Date
    ) {
      self.username = username
      self.medium = medium
      self.destination = destination
      self.code = code
      self.operation = operation
      self.time = time
    }
  }

  /// The configuration variables the pool implements (the models' names). `pool.authFlow` and
  /// `pool.preferredFirstFactor` come from the request (AuthFlow, PREFERRED_CHALLENGE), as in
  /// Cognito; any other variable a model has (say `pool.voice`) the pool does not know.
  package static let implementedVariables: Set<String> = [
    "pool.authFlow", "pool.preferredFirstFactor", "pool.mfa", "pool.sms", "pool.totp", "pool.email",
    "pool.allowSmsOTP", "pool.allowEmailOTP", "pool.allowWebAuthn", "pool.preventUserExistenceErrors",
    "pool.customMfa", "pool.customRounds", "pool.deviceTracking", "pool.deviceSuppressesMfa", "user.exists",
    "user.status", "user.phone", "user.smsEnabled", "user.totpRegistered", "user.totpEnabled", "user.email",
    "user.emailEnabled", "user.preferred", "user.passwordSet", "user.passkey", "user.deviceRemembered",
  ]

  /// What the pool keeps between flows.
  package enum Lifecycle: Sendable {
    /// Every InitiateAuth starts from the configuration and ends the earlier flows (the
    /// fuzzer's pool: each case is one configuration).
    case perFlow
    /// As Cognito: flows run side by side; a new password, a completed TOTP setup and a
    /// confirmed device stay.
    case persistent
  }

  /// The user the pool serves: name, password, and optionally a TOTP secret and remembered
  /// devices (a users file's entry).
  package struct User: Sendable, Equatable {
    package var username: String
    package var password: String
    /// Base32; nil: drawn from the seed (generated codes) or `secretCode`.
    package var totpSecret: String?
    package var devices: [RememberedDeviceSecret]

    package init(
      username: String = SimulatedUserPool.username, password: String = SimulatedUserPool.password,
      totpSecret: String? = nil, devices: [RememberedDeviceSecret] = []
    ) {
      self.username = username
      self.password = password
      self.totpSecret = totpSecret
      self.devices = devices
    }
  }

  /// A failure injected for one operation (`injectFault(operation:_:count:)`).
  package enum OperationFault: Sendable, Equatable {
    case fault(SimulatedFault)
    /// Cognito's error of this type.
    case error(String)
  }

  struct Session {
    var challenge: String
    /// Generated codes: the code sent for this challenge (SMS or email).
    var code: String? = nil
    /// Generated codes: the TOTP secret AssociateSoftwareToken returned in this session.
    var secret: String? = nil
    var emailIsFirstFactor = false
    var customRound = 0
    var tokenVerified = false
    var offered: [String] = []
    /// A challenge simulated for a user that does not exist (PreventUserExistenceErrors).
    var simulated = false
    /// At PASSWORD_VERIFIER: the exchange the answer must sign, and what follows it.
    var srp: SRPExchange? = nil
    var afterVerifier = AfterVerifier.password
    /// At an MFA challenge in CUSTOM_AUTH with SRP (pool.customMfa mfaThenCustom): the custom
    /// challenge follows the right code instead of tokens.
    var customAfterMfa = false
    /// The flow this session belongs to.
    var flow = FlowContext()
    /// At an email code after MFA_SETUP: the right code enables email MFA (persistent pools).
    var setsUpEmail = false
    /// At WEB_AUTHN: the challenge the assertion's clientDataJSON must carry (`Passkey.swift`).
    var webAuthnChallenge: String? = nil
  }

  /// What a flow carries from InitiateAuth to its tokens.
  struct FlowContext {
    /// Numbers the flows of a persistent pool (0 in a per-flow pool: one flow at a time).
    var id = 0
    var authFlow = ""
    /// The DEVICE_KEY InitiateAuth named.
    var deviceKey: String?
    /// The device challenge was answered (tokens follow without another).
    var deviceVerified = false
  }

  /// What a correct PASSWORD_VERIFIER answer leads to.
  enum AfterVerifier {
    /// As a correct password in USER_PASSWORD_AUTH (USER_SRP_AUTH, USER_AUTH's PASSWORD_SRP).
    case password
    /// CUSTOM_AUTH with SRP_A: the define trigger's next step.
    case custom
  }

  private(set) var config: [String: String] { didSet { settings = PoolSettings(config) } }
  /// `config` as the rules read it.
  private(set) var settings: PoolSettings
  package let lifecycle: Lifecycle
  /// The user's name and password (a new password replaces it in a persistent pool).
  package nonisolated let username: String
  var password: String
  /// Session ids begin with it (unique per user where one server has many users).
  let sessionTag: String
  /// The flow being served (set from the request's session, or by InitiateAuth).
  var context = FlowContext()
  private var flowCount = 0
  /// Remembered and newly issued devices, by DeviceKey (`DevicePool.swift`).
  var devices: [String: PoolDevice] = [:]
  /// Newly issued device keys not confirmed yet, oldest first (bounded by `maxPendingDevices`).
  var pendingDevices: [String] = []
  /// The user's `sub`, drawn from the seed.
  package nonisolated let sub: String
  var sessions: [String: Session] = [:]
  private var nextSession = 0
  /// The pending fault and how many more requests pass before it.
  private var fault: (kind: SimulatedFault, after: Int)?
  private var injectedError: (type: String, after: Int)?
  /// Whether the injected fault or error was produced.
  package private(set) var faultFired = false
  /// Every session id the pool handed out (secrets a client must never show).
  /// Only a per-flow pool keeps them (a persistent one would grow with every flow).
  package private(set) var issuedSessions: [String] = []
  /// The challenge parameters of the last challenge the pool sent, and the last TOTP secret.
  package private(set) var lastChallengeParameters: [String: String] = [:]
  package private(set) var lastSecretCode: String?
  /// Every challenge name the pool asked for, each once, in the order first asked.
  package private(set) var issuedChallenges: [String] = []
  /// The challenge the pool answers with after `injectUnknownChallenge` (a future enum value).
  package static let unknownChallenge = "FUTURE_CHALLENGE_2027"

  /// What a harness reads from the pool after a call: whether the injected fault fired, and
  /// what the pool sent (`serve`'s `GET …/users/<username>/state` gives the same).
  package struct State: Sendable, Equatable {
    package var faultFired: Bool
    package var lastChallengeParameters: [String: String]
    package var lastSecretCode: String?
    package var issuedSessions: [String]
    package var issuedChallenges: [String]

    package init(
      faultFired: Bool, lastChallengeParameters: [String: String], lastSecretCode: String?, issuedSessions: [String],
      issuedChallenges: [String]
    ) {
      self.faultFired = faultFired
      self.lastChallengeParameters = lastChallengeParameters
      self.lastSecretCode = lastSecretCode
      self.issuedSessions = issuedSessions
      self.issuedChallenges = issuedChallenges
    }
  }

  /// The pool's `State` now.
  package func state() -> State {
    State(
      faultFired: faultFired, lastChallengeParameters: lastChallengeParameters, lastSecretCode: lastSecretCode,
      issuedSessions: issuedSessions, issuedChallenges: issuedChallenges)
  }
  /// The part of the pool id after "_", which SRP hashes and signs.
  let poolName: String
  /// The source of SRP's salt, secret b and secret blocks; drawn only by SRP flows.
  var random: PoolRandom
  /// The user's SRP salt and verifier, made at the first SRP exchange.
  private var srpRecord: SRPUserRecord?
  /// The challenge the next InitiateAuth or RespondToAuthChallenge is answered with, whatever
  /// it asks (`injectUnknownChallenge`, `injectDeviceChallenge`).
  private var injectedChallenge: String?
  /// Failed attempts per flow (the fifth ends the flow).
  private var failures: [Int: Int] = [:]
  private var status: String
  private var statusChangePending: String?
  package let codes: Codes
  /// The source of generated codes and secrets, apart from SRP's so SRP's values do not
  /// depend on how many codes were sent.
  var codeRandom: PoolRandom
  /// The codes sent, oldest first: the last `outboxLimit`.
  package private(set) var outbox: [SentMessage] = []
  /// How many sent codes `outbox` keeps (the oldest go first).
  package let outboxLimit: Int
  /// The beginning of the fuzzer's pool's session ids.
  package static let defaultSessionTag = "sim-session-"
  /// `outboxLimit`'s default.
  package static let defaultOutboxLimit = 100
  /// Generated codes that were right once and used.
  private var usedCodes: Set<String> = []
  /// TOTP steps already used, per secret: a code is right once in its window.
  private var usedSteps: Set<UsedStep> = []
  private struct UsedStep: Hashable {
    let secret: String
    let step: Int64
  }
  /// The registered user's TOTP secret: given, fixed, or drawn from the seed with generated
  /// codes (as at start; a completed setup in a persistent pool replaces `registeredSecret`).
  nonisolated package let totpSecret: String
  private var registeredSecret: String
  /// The secret AssociateSoftwareToken gave for an access token, until VerifySoftwareToken.
  private var associatedSecret: String?
  /// The operation being served (for the outbox).
  private var operation = ""
  /// Failures injected per operation, and how many more requests of it fail.
  private var operationFaults: [String: (fault: OperationFault, count: Int)] = [:]

  /// - Parameters:
  ///   - poolId: e.g. `us-east-1_sim`; its part after "_" names the pool in SRP.
  ///   - seed: the seed of SRP's randomness (salt, b, secret blocks).
  ///   - codes: fixed codes (the default) or generated ones.
  ///   - user: the user's name, password, TOTP secret and remembered devices.
  ///   - lifecycle: per flow (the fuzzer's) or persistent (Cognito's).
  ///   - sessionTag: the beginning of every session id.
  ///   - outboxLimit: how many sent codes the outbox keeps.
  package init(
    configuration: [String: String], poolId: String = SimulatedUserPool.poolId, seed: UInt64 = 0,
    codes: Codes = .fixed, user: User = User(), lifecycle: Lifecycle = .perFlow,
    sessionTag: String = SimulatedUserPool.defaultSessionTag,
    outboxLimit: Int = SimulatedUserPool.defaultOutboxLimit
  ) {
    config = configuration
    settings = PoolSettings(configuration)
    self.outboxLimit = max(1, outboxLimit)
    status = configuration["user.status"] ?? "confirmed"
    poolName = Self.poolName(of: poolId)
    random = PoolRandom(seed: seed)
    self.codes = codes
    self.lifecycle = lifecycle
    self.sessionTag = sessionTag
    username = user.username
    password = user.password
    var codeRandom = PoolRandom(seed: seed ^ 0x636F_6465_7331_2345)
    if let given = user.totpSecret {
      totpSecret = given
    } else if case .generated = codes {
      totpSecret = OneTimePassword.base32Encode(codeRandom.bytes(20))
    } else {
      totpSecret = Self.secretCode
    }
    registeredSecret = totpSecret
    sub = seed == 0 ? Self.defaultSub : Self.sub(seed: seed)
    self.codeRandom = codeRandom
    let region = Self.region(of: poolId)
    for device in user.devices { devices[device.key] = PoolDevice(device, confirmed: true, remembered: true) }
    if configuration["user.deviceRemembered"] == "true" && user.devices.isEmpty {
      let device = Self.seededDevice(region: region, seed: seed)
      devices[device.key] = PoolDevice(device, confirmed: true, remembered: true)
      configuredDevice = device
    } else {
      configuredDevice = nil
    }
    self.region = region
    deviceSeed ^= seed
  }

  /// The remembered device `user.deviceRemembered: true` gives a user without listed devices
  /// (`seededDevice`), for a client to sign in with.
  package nonisolated let configuredDevice: RememberedDeviceSecret?
  /// The region part of the pool id (device keys begin with it).
  let region: String
  /// The state of the draws that make new device keys.
  var deviceSeed: UInt64 = 0x6465_7669_6365_4B65

  /// The user's `sub` in a pool seeded with `seed`; that of seed 0 (every pool the fuzzer
  /// makes) is worked out once.
  static func sub(seed: UInt64) -> String {
    var random = PoolRandom(seed: seed ^ 0x7375_6221_0000_0001)
    return uuid(random.bytes(16))
  }
  static let defaultSub = sub(seed: 0)

  /// A pool id's region (before "_") and its name in SRP (after "_"); the default pool id's
  /// are worked out once.
  static func region(of poolId: String) -> String {
    poolId == Self.poolId ? defaultRegion : regionPart(poolId)
  }
  static func poolName(of poolId: String) -> String {
    poolId == Self.poolId ? defaultPoolName : namePart(poolId)
  }
  private static func regionPart(_ poolId: String) -> String {
    String(poolId.split(separator: "_").first ?? "us-east-1")
  }
  private static func namePart(_ poolId: String) -> String {
    String(poolId.split(separator: "_").last ?? Substring(poolId))
  }
  private static let defaultRegion = regionPart(poolId)
  private static let defaultPoolName = namePart(poolId)

  /// A UUID's text for 16 bytes (version 4 bits set).
  static func uuid(_ b: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(36)
    for (k, byte) in b.prefix(16).enumerated() {
      if k == 4 || k == 6 || k == 8 || k == 10 { text.append(UInt8(ascii: "-")) }
      let value = k == 6 ? (byte & 0x0F) | 0x40 : k == 8 ? (byte & 0x3F) | 0x80 : byte
      text.append(digits[Int(value >> 4)])
      text.append(digits[Int(value & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The next `count` requests of `operation` fail with `fault` (after any pending
  /// `injectFault(_:onRequest:)` or `injectError`). Count 0 clears it.
  package func injectFault(operation: String, _ fault: OperationFault, count: Int = 1) {
    operationFaults[operation] = count > 0 ? (fault, count) : nil
    faultFired = false
  }

  /// The codes sent to `username`, oldest first.
  package func messages(for username: String) -> [SentMessage] { outbox.filter { $0.username == username } }

  /// Session `n`'s id: "sim-session-n" for the fuzzer's own pool; zero-padded to Cognito's
  /// shortest session (20 characters; botocore refuses a shorter one before sending it) with
  /// generated codes or a session tag of its own (a pool served by `SimulatedService`).
  private func sessionId(_ n: Int) -> String {
    if case .fixed = codes, sessionTag == Self.defaultSessionTag { return "\(sessionTag)\(n)" }
    let digits = String(n)
    return sessionTag + String(repeating: "0", count: max(0, 9 - digits.count)) + digits
  }

  private var now: Date {
    if case .generated(let clock) = codes { return clock() }
    return Date()
  }

  /// The code for a challenge sent by `medium`: "123456", or a fresh generated one; recorded
  /// in the outbox.
  private func sendCode(_ medium: String, destination: String) -> String {
    var code = Self.code
    if case .generated = codes {
      code = String(format: "%06d", Int(codeRandom.next() % 1_000_000))
      usedCodes.remove(code)
    }
    outbox.append(
      SentMessage(
        username: username, medium: medium, destination: destination, code: code, operation: operation,
        time: now))
    if outbox.count > outboxLimit { outbox.removeFirst(outbox.count - outboxLimit) }
    return code
  }

  /// The next call fails in transit (no answer).
  package func injectNetworkFault() { injectFault(.transport) }
  /// Request number `request` (0: the next one) fails with `kind` instead of being answered.
  package func injectFault(_ kind: SimulatedFault, onRequest request: Int = 0) {
    fault = (kind, request)
    faultFired = false
  }
  /// Request number `request` is answered with Cognito's error `type` (one of
  /// `SimulatedFault.documentedErrors` for its operation) instead of being served.
  package func injectError(_ type: String, onRequest request: Int = 0) {
    injectedError = (type, request)
    faultFired = false
  }
  /// The masked destination the pool reports for a code sent by `medium` (SMS or EMAIL).
  package static func maskedDestination(_ medium: String, firstFactor: Bool = false) -> String {
    firstFactor ? "x***" : medium == "SMS" ? "+1***0100" : "u***@e***"
  }
  /// The TOTP secret AssociateSoftwareToken returns.
  package static let secretCode = "JBSWY3DPEHPK3PXP"
  /// The access token of a signed-in user.
  package static let accessToken = "simulated-access-token"
  /// The next InitiateAuth or RespondToAuthChallenge is answered with a challenge this client
  /// cannot know (a future enum value of ChallengeNameType), whatever the request asks.
  package func injectUnknownChallenge() {
    injectedChallenge = Self.unknownChallenge
    faultFired = false
  }
  /// The next InitiateAuth or RespondToAuthChallenge is answered with DEVICE_SRP_AUTH, whatever
  /// the request asks: a device challenge the client did not ask for (it sent no DEVICE_KEY).
  package func injectDeviceChallenge() {
    injectedChallenge = Self.deviceChallenge
    faultFired = false
  }
  /// The challenge `injectDeviceChallenge` answers with.
  package static let deviceChallenge = "DEVICE_SRP_AUTH"
  /// Every open session expires (time passes).
  package func expireSessions() { sessions.removeAll() }
  /// The user's status changes before the next challenge answer (an administrator resets the
  /// password, say): that answer fails with the status's exception and the session ends.
  package func changeStatus(to status: String) { statusChangePending = status }

  /// Whether a code has Cognito's shape: six digits (botocore SoftwareTokenMFAUserCodeType).
  static func wellFormed(_ code: String) -> Bool { code.count == 6 && code.allSatisfy { $0.isASCII && $0.isNumber } }

  // MARK: - Cognito's rules (A.3, A.4, A.6, A.7)

  private func available(_ factor: String) -> Bool {
    switch factor {
    case "PASSWORD", "PASSWORD_SRP": return settings.passwordSet
    case "SMS_OTP": return settings.smsOTP
    case "EMAIL_OTP": return settings.emailOTP
    case "WEB_AUTHN": return settings.webAuthn
    default: return false
    }
  }

  func challenge(
    _ name: String, _ session: Session, parameters: [String: String] = [:], extra: JSONObject = [:]
  ) -> JSONObject {
    nextSession += 1
    let id = sessionId(nextSession)
    var session = session
    session.flow = context
    store(session, as: id)
    lastChallengeParameters = parameters
    if !issuedChallenges.contains(name) { issuedChallenges.append(name) }
    var body: JSONObject = [
      "ChallengeName": .string(name), "Session": .string(id),
      "ChallengeParameters": .object(parameters.mapValues { .string($0) }),
    ]
    for (k, v) in extra { body[k] = v }
    return body
  }

  /// The tokens (the access token a client sends back; `signin-spec serve` puts real JWTs in its
  /// place), or first the device challenge for a confirmed DEVICE_KEY (`DevicePool.swift`).
  var tokens: JSONObject {
    if let challenge = deviceChallengeBeforeTokens() { return challenge }
    var result: JSONObject = ["AccessToken": .string(Self.accessToken)]
    if let metadata = newDeviceMetadata() { result["NewDeviceMetadata"] = metadata }
    return ["AuthenticationResult": .object(result)]
  }

  /// - Parameter thenCustom: the custom challenge follows the MFA code instead of tokens.
  private func afterFirstFactor(thenCustom: Bool = false) -> JSONObject {
    let mfa = settings.mfa
    if mfa == "off" || mfa == "" { return tokens }
    let active = [
      ("SMS_MFA", settings.smsActive, "sms"), ("SOFTWARE_TOKEN_MFA", settings.totpActive, "totp"),
      ("EMAIL_OTP", settings.emailActive, "email"),
    ]
    .filter(\.1)
    if !active.isEmpty && !thenCustom, let challenge = deviceChallengeReplacingMfa() { return challenge }
    if active.isEmpty {
      if mfa == "optional" { return tokens }
      let types = [
        ("SMS_MFA", settings.poolSms), ("SOFTWARE_TOKEN_MFA", settings.poolTotp), ("EMAIL_OTP", settings.poolEmail),
      ].filter(\.1).map(\.0)
      return challenge(
        "MFA_SETUP", Session(challenge: "MFA_SETUP"),
        parameters: ["MFAS_CAN_SETUP": "[" + types.map { "\"\($0)\"" }.joined(separator: ",") + "]"])
    }
    if let preferred = active.first(where: { $0.2 == settings.preferred })
      ?? (active.count == 1 ? active.first : nil)
    {
      return mfaChallenge(preferred.0, thenCustom: thenCustom)
    }
    let names = active.map(\.0)
    return challenge(
      "SELECT_MFA_TYPE", Session(challenge: "SELECT_MFA_TYPE", offered: names, customAfterMfa: thenCustom),
      parameters: ["MFAS_CAN_CHOOSE": "[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]"])
  }

  private func mfaChallenge(_ name: String, thenCustom: Bool = false, setsUpEmail: Bool = false) -> JSONObject {
    let medium = name == "SMS_MFA" ? "SMS" : name == "EMAIL_OTP" ? "EMAIL" : nil
    var parameters: [String: String] = [:]
    var session = Session(challenge: name, customAfterMfa: thenCustom)
    session.setsUpEmail = setsUpEmail
    if let medium {
      let destination = Self.maskedDestination(medium)
      parameters = ["CODE_DELIVERY_DELIVERY_MEDIUM": medium, "CODE_DELIVERY_DESTINATION": destination]
      session.code = sendCode(medium, destination: destination)
    }
    return challenge(name, session, parameters: parameters)
  }

  private func afterPassword() -> JSONObject {
    if status == "forceChangePassword" {
      return challenge("NEW_PASSWORD_REQUIRED", Session(challenge: "NEW_PASSWORD_REQUIRED"))
    }
    return afterFirstFactor()
  }

  func fail(_ type: String, _ message: String = "") -> CognitoCallError {
    .service(type: type, message: message)
  }

  /// A failed attempt; the fifth ends the flow (lockout, A.5).
  func failedAttempt(_ type: String, _ message: String = "") -> CognitoCallError {
    let flow = context.id
    failures[flow, default: 0] += 1
    if failures[flow, default: 0] >= 5 {
      endFlow(flow)
      return fail("NotAuthorizedException", "Password attempts exceeded")
    }
    return fail(type, message)
  }

  /// Ends flow `flow`: its sessions are invalid from now on.
  private func endFlow(_ flow: Int) {
    if lifecycle == .perFlow {
      sessions.removeAll()
    } else {
      sessions = sessions.filter { $0.value.flow.id != flow }
      failures[flow] = nil
    }
  }

  /// Stores an open session; a persistent pool keeps at most `maxOpenSessions`, dropping the
  /// oldest (Cognito's sessions expire after minutes; an abandoned flow must not grow memory).
  private func store(_ session: Session, as id: String) {
    sessions[id] = session
    if lifecycle == .perFlow {
      issuedSessions.append(id)
    } else {
      openOrder.append(id)
      if openOrder.count > 2 * Self.maxOpenSessions { openOrder.removeAll { sessions[$0] == nil } }
      while sessions.count > Self.maxOpenSessions, !openOrder.isEmpty {
        let oldest = openOrder.removeFirst()
        if let dropped = sessions.removeValue(forKey: oldest) { failures[dropped.flow.id] = nil }
      }
    }
  }
  /// Session ids of a persistent pool in the order they opened (some may be closed).
  private var openOrder: [String] = []
  /// The most sessions a persistent pool keeps open per user.
  package static let maxOpenSessions = 10_000

  /// The flow a request's session belongs to (a per-flow pool has one).
  private func flowOf(_ request: JSONObject) -> Int? {
    if lifecycle == .perFlow { return 0 }
    return request["Session"]?.string.flatMap { sessions[$0]?.flow.id }
  }

  /// Counts a failed request of a flow (an injected fault) toward its lockout.
  private func countFailure(_ operation: String, _ request: JSONObject) {
    guard operation != "InitiateAuth", let flow = flowOf(request) else { return }
    failures[flow, default: 0] += 1
  }

  // MARK: - Operations

  package func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject {
    if let pending = fault {
      if pending.after > 0 {
        fault = (pending.kind, pending.after - 1)
      } else {
        fault = nil
        faultFired = true
        countFailure(operation, request)
        throw pending.kind.error
      }
    }
    if let pending = injectedError {
      if pending.after > 0 {
        injectedError = (pending.type, pending.after - 1)
      } else {
        injectedError = nil
        faultFired = true
        countFailure(operation, request)
        throw Self.echoing(fail(pending.type, "simulated \(pending.type)"), request)
      }
    }
    if let pending = operationFaults[operation] {
      operationFaults[operation] = pending.count > 1 ? (pending.fault, pending.count - 1) : nil
      faultFired = true
      countFailure(operation, request)
      switch pending.fault {
      case .fault(let kind): throw kind.error
      case .error(let type): throw Self.echoing(fail(type, "simulated \(type)"), request)
      }
    }
    self.operation = operation
    do {
      return try serve(operation, request)
    } catch {
      throw Self.echoing(error, request)
    }
  }

  /// Cognito's error with the request echoed in its message, as real services sometimes
  /// do: the answers, parameters and session the client sent (so redaction is exercised).
  /// SRP's values (`srpValues`) are left out: none is a secret the client must redact, and
  /// they are random or read the clock, so a saved case's text would change at every run.
  static func echoing(_ error: CognitoCallError, _ request: JSONObject) -> CognitoCallError {
    guard case .service(let type, let message) = error else { return error }
    var text = message
    var echoed = false
    func add(_ key: String, _ value: String) {
      if !echoed { text.reserveCapacity(message.utf8.count + 200) }
      text += echoed ? ", " : " (request: "
      echoed = true
      text += key
      text += "="
      text += value
    }
    for key in ["AuthParameters", "ChallengeResponses"] {
      // As `stringMap` reads them (`JSONValue.text`), by key.
      guard let fields = request[key]?.object else { continue }
      for (k, v) in fields.sorted(by: { $0.key < $1.key }) where !srpValues.contains(k) {
        if let text = v.text { add(k, text) }
      }
    }
    for key in ["Session", "UserCode"] { if let v = request[key]?.string { add(key, v) } }
    return .service(type: type, message: echoed ? text + ")" : message)
  }

  /// The SRP parameters and answers `echoing` leaves out.
  static let srpValues = ["SRP_A", "PASSWORD_CLAIM_SIGNATURE", "PASSWORD_CLAIM_SECRET_BLOCK", "TIMESTAMP"]

  private func serve(_ operation: String, _ request: JSONObject) throws(CognitoCallError) -> JSONObject {
    if let injected = injectedChallenge, operation == "InitiateAuth" || operation == "RespondToAuthChallenge" {
      // The request is served (its effects happen: the answer is taken or counted), and the
      // answer, a challenge or an error, is replaced.
      injectedChallenge = nil
      faultFired = true
      _ = try? (operation == "InitiateAuth" ? initiate(request) : respond(request))
      let parameters = injected == Self.deviceChallenge ? ["USERNAME": username] : [:]
      return challenge(injected, Session(challenge: injected), parameters: parameters)
    }
    switch operation {
    case "InitiateAuth": return try initiate(request)
    case "RespondToAuthChallenge": return try respond(request)
    case "AssociateSoftwareToken" where request["Session"] == nil && request["AccessToken"] != nil:
      // TOTP set up after sign-in, authorised by the access token.
      try checkAccessToken(request)
      var secret = Self.secretCode
      if case .generated = codes { secret = OneTimePassword.base32Encode(codeRandom.bytes(20)) }
      associatedSecret = secret
      lastSecretCode = secret
      return ["SecretCode": .string(secret)]
    case "VerifySoftwareToken" where request["Session"] == nil && request["AccessToken"] != nil:
      try checkAccessToken(request)
      guard let secret = associatedSecret else {
        throw fail("SoftwareTokenMFANotFoundException", "Software Token MFA has not been associated with the user.")
      }
      let userCode = request["UserCode"]?.string ?? ""
      guard Self.wellFormed(userCode) else { throw fail("InvalidParameterException", "UserCode is six digits") }
      guard codeRight(userCode, totpSecret: secret) == .right else {
        throw fail("EnableSoftwareTokenMFAException", "Code mismatch")
      }
      associatedSecret = nil
      registeredSecret = secret
      config["user.totpRegistered"] = "true"
      return ["Status": .string("SUCCESS")]
    case "AssociateSoftwareToken":
      guard let id = request["Session"]?.string, sessions[id] != nil else {
        throw fail("NotAuthorizedException", "Invalid session for the user")
      }
      var secret = Self.secretCode
      if case .generated = codes {
        secret = OneTimePassword.base32Encode(codeRandom.bytes(20))
        sessions[id]?.secret = secret
      }
      lastSecretCode = secret
      return ["SecretCode": .string(secret), "Session": .string(id)]
    case "VerifySoftwareToken":
      guard let id = request["Session"]?.string, var session = sessions[id] else {
        throw fail("NotAuthorizedException", "Invalid session for the user")
      }
      context = session.flow
      let userCode = request["UserCode"]?.string ?? ""
      guard Self.wellFormed(userCode) else { throw failedAttempt("InvalidParameterException") }
      guard codeRight(userCode, totpSecret: session.secret) == .right else {
        throw failedAttempt("EnableSoftwareTokenMFAException")
      }
      session.tokenVerified = true
      sessions[id] = nil
      nextSession += 1
      let newID = sessionId(nextSession)
      store(session, as: newID)
      return ["Status": .string("SUCCESS"), "Session": .string(newID)]
    case "ConfirmDevice": return try confirmDevice(request)
    case "UpdateDeviceStatus": return try updateDeviceStatus(request)
    case "GetUser": return try getUser(request)
    default:
      throw fail("InvalidActionException", "the simulated pool does not implement \(operation)")
    }
  }

  private func initiate(_ request: JSONObject) throws(CognitoCallError) -> JSONObject {
    let parameters = StringFields(request["AuthParameters"])
    let flow = request["AuthFlow"]?.string ?? ""
    if lifecycle == .perFlow {
      sessions.removeAll()
      failures = [:]
      // The model's configuration is fixed: a new flow starts from it (a password set in an
      // earlier flow does not carry over).
      status = config["user.status"] ?? "confirmed"
      context = FlowContext(id: 0, authFlow: flow, deviceKey: parameters["DEVICE_KEY"])
      forgetFlowDevices()
    } else {
      flowCount += 1
      context = FlowContext(id: flowCount, authFlow: flow, deviceKey: parameters["DEVICE_KEY"])
    }
    let passwordRight = parameters["PASSWORD"] == password
    if !settings.userExists { return try unknownUser(flow, parameters) }
    switch flow {
    case "USER_PASSWORD_AUTH":
      guard passwordRight else { throw fail("NotAuthorizedException", "Incorrect username or password.") }
      try checkStatus()
      return afterPassword()
    case "USER_SRP_AUTH":
      try checkUnconfirmed()
      return try passwordVerifier(parameters, then: .password)
    case "CUSTOM_AUTH":
      if parameters["SRP_A"] != nil {
        try checkUnconfirmed()
        return try passwordVerifier(parameters, then: .custom)
      }
      try checkStatus()
      return customChallenge(round: 1)
    case "USER_AUTH":
      let preferred = parameters["PREFERRED_CHALLENGE"] ?? ""
      let sendsPassword = preferred == "PASSWORD" && available("PASSWORD")
      if sendsPassword && !passwordRight { throw fail("NotAuthorizedException", "Incorrect username or password.") }
      if preferred == "PASSWORD_SRP" && available(preferred) {
        // As USER_SRP_AUTH: the reset-required status once the claim verifies.
        try checkUnconfirmed()
        return try passwordVerifier(parameters, then: .password)
      }
      try checkStatus()
      guard !preferred.isEmpty, available(preferred) else {
        let offered = ["PASSWORD", "PASSWORD_SRP", "SMS_OTP", "EMAIL_OTP", "WEB_AUTHN"].filter(available)
        return challenge(
          "SELECT_CHALLENGE", Session(challenge: "SELECT_CHALLENGE", offered: offered),
          extra: ["AvailableChallenges": .array(offered.map { .string($0) })])
      }
      switch preferred {
      case "PASSWORD": return afterPassword()
      case "PASSWORD_SRP": return try passwordVerifier(parameters, then: .password)
      case "SMS_OTP", "EMAIL_OTP": return firstFactorCode(preferred)
      case "WEB_AUTHN": return webAuthnChallenge()
      default: throw fail("InvalidParameterException", "the simulated pool does not do \(preferred)")
      }
    default:
      throw fail("InvalidParameterException", "the simulated pool does not do \(flow)")
    }
  }

  /// A username with no user (DG "Managing user existence error responses"): LEGACY answers
  /// UserNotFoundException; ENABLED the wrong-password error, or for CUSTOM_AUTH a simulated
  /// challenge no answer passes; USER_AUTH ignores the setting and never names the user.
  /// With SRP (ENABLED) a PASSWORD_VERIFIER is simulated that no signature passes.
  private func unknownUser(_ flow: String, _ parameters: StringFields) throws(CognitoCallError) -> JSONObject {
    let prevent = settings.preventUserExistenceErrors
    let srp = flow == "USER_SRP_AUTH" || (flow == "CUSTOM_AUTH" && parameters["SRP_A"] != nil)
    if srp && prevent {
      return try passwordVerifier(parameters, then: .password, simulated: true)
    }
    if flow == "CUSTOM_AUTH" && prevent {
      return customChallenge(round: 1, simulated: true)
    }
    if prevent || flow == "USER_AUTH" { throw fail("NotAuthorizedException", "Incorrect username or password.") }
    throw fail("UserNotFoundException", "User does not exist.")
  }

  /// A custom challenge with the public parameters a create trigger sets.
  private func customChallenge(round: Int, simulated: Bool = false) -> JSONObject {
    challenge(
      "CUSTOM_CHALLENGE", Session(challenge: "CUSTOM_CHALLENGE", customRound: round, simulated: simulated),
      parameters: ["question": "what is the answer?", "round": String(round)])
  }

  // MARK: - SRP (PASSWORD_VERIFIER)

  /// The user's SRP record, made (salt drawn from `random`) at the first SRP exchange.
  private func userRecord() -> SRPUserRecord {
    if let srpRecord { return srpRecord }
    let record = SRPUserRecord(
      poolName: poolName, userIdForSRP: username, password: password,
      salt: BigUInt(Data(random.bytes(16))))
    srpRecord = record
    return record
  }

  /// The PASSWORD_VERIFIER challenge for the client's SRP_A (in `parameters`); SRP_A missing,
  /// not hex or ≡ 0 mod N is InvalidParameterException.
  private func passwordVerifier(
    _ parameters: StringFields, then next: AfterVerifier, simulated: Bool = false
  ) throws(CognitoCallError) -> JSONObject {
    guard let text = parameters["SRP_A"] else {
      throw fail("InvalidParameterException", "Missing required parameter SRP_A")
    }
    guard let A = BigUInt(text, radix: 16), !text.isEmpty, A % SRPMath.N != 0 else {
      throw fail("InvalidParameterException", "SRP_A is not valid")
    }
    let record = userRecord()
    let exchange = SRPExchange(A: A, record: record, random: &random)
    return challenge(
      "PASSWORD_VERIFIER",
      Session(challenge: "PASSWORD_VERIFIER", simulated: simulated, srp: exchange, afterVerifier: next),
      parameters: exchange.challengeParameters(record: record))
  }

  /// Checks a PASSWORD_VERIFIER answer (its session is already used up) and goes on as a
  /// correct password does. A wrong signature or secret block is a failed attempt, answered
  /// as a wrong password is; a missing answer or a TIMESTAMP not in Cognito's format is
  /// InvalidParameterException.
  private func verifyPasswordClaim(_ answers: StringFields, _ session: Session) throws(CognitoCallError)
    -> JSONObject
  {
    guard let exchange = session.srp else { throw fail("InvalidParameterException", "unexpected challenge") }
    for key in ["PASSWORD_CLAIM_SIGNATURE", "PASSWORD_CLAIM_SECRET_BLOCK", "TIMESTAMP"] where answers[key] == nil {
      throw fail("InvalidParameterException", "Missing required parameter \(key)")
    }
    let timestamp = answers["TIMESTAMP"] ?? ""
    guard SRPMath.isTimestamp(timestamp) else { throw fail("InvalidParameterException", "TIMESTAMP format is invalid") }
    let record = userRecord()
    let expected = exchange.expectedSignature(record: record, poolName: poolName, timestamp: timestamp)
    guard !session.simulated, answers["PASSWORD_CLAIM_SECRET_BLOCK"] == exchange.secretBlock,
      let expected, answers["PASSWORD_CLAIM_SIGNATURE"] == expected
    else { throw failedAttempt("NotAuthorizedException", "Incorrect username or password.") }
    try checkStatus()
    switch session.afterVerifier {
    case .password: return afterPassword()
    case .custom: return customAfterPassword()
    }
  }

  /// CUSTOM_AUTH after PASSWORD_VERIFIER (the model's `customAfterPassword`): a temporary
  /// password needs a new one first; then the define trigger's custom challenge, or with
  /// `pool.customMfa` (mfaThenTokens, mfaThenCustom) the pool's MFA first where the user has
  /// an active MFA type (no MFA_SETUP in a custom flow).
  private func customAfterPassword() -> JSONObject {
    if status == "forceChangePassword" {
      return challenge(
        "NEW_PASSWORD_REQUIRED", Session(challenge: "NEW_PASSWORD_REQUIRED", afterVerifier: .custom))
    }
    let customMfa = settings.customMfa
    let mfa = settings.mfa
    let anyActive = settings.smsActive || settings.totpActive || settings.emailActive
    if customMfa == "none" || mfa == "off" || mfa == "" || !anyActive { return customChallenge(round: 1) }
    return afterFirstFactor(thenCustom: customMfa == "mfaThenCustom")
  }

  /// What a well-formed code is.
  enum CodeVerdict { case right, used, wrong }

  /// A code sent by SMS or email: fixed, "123456" (and "111111" used); generated, the code
  /// sent for this challenge (a code used before is expired).
  private func codeRight(_ answer: String, sent: String?) -> CodeVerdict {
    guard case .generated = codes else {
      return answer == Self.usedCode ? .used : answer == Self.code ? .right : .wrong
    }
    if let sent, answer == sent { return .right }
    return usedCodes.contains(answer) ? .used : .wrong
  }

  /// A TOTP code: fixed, as `codeRight(_:sent:)`; generated, RFC 6238 for `totpSecret` at the
  /// pool's clock, one step either side; a step already used is expired. A right code uses
  /// its step.
  private func codeRight(_ answer: String, totpSecret: String?) -> CodeVerdict {
    guard case .generated(let clock) = codes else { return codeRight(answer, sent: nil) }
    guard let totpSecret,
      let step = OneTimePassword.matchingStep(answer, secret: totpSecret, time: clock().timeIntervalSince1970)
    else { return .wrong }
    let key = UsedStep(secret: totpSecret, step: Int64(step))
    if usedSteps.contains(key) { return .used }
    // A step more than one behind the clock's can no longer match: forget the old ones.
    if usedSteps.count >= 64 {
      let current = Int64(clock().timeIntervalSince1970) / 30
      usedSteps = usedSteps.filter { $0.step >= current - 1 }
    }
    usedSteps.insert(key)
    return .right
  }

  private func checkStatus() throws(CognitoCallError) {
    try checkUnconfirmed()
    if status == "resetRequired" {
      throw fail("PasswordResetRequiredException", "Password reset required for the user")
    }
  }

  /// An SRP sign-in of an unconfirmed user is UserNotConfirmedException at InitiateAuth, whatever
  /// the password (the client has not proved it yet): AWS called answering so for a wrong
  /// password "the intended behavior" for amazon-cognito-identity-js's SRP sign-in
  /// (amazon-archives/amazon-cognito-identity-js#288; amplify-js #11209, aws-sdk-android #1688
  /// report the same), and moto answers USER_SRP_AUTH so. A reset-required user is told only
  /// after a right password (amplify-js #4890: "only … if they have provided the correct
  /// username/password"), so SRP checks that status once the claim verifies.
  private func checkUnconfirmed() throws(CognitoCallError) {
    if status == "unconfirmed" { throw fail("UserNotConfirmedException", "User is not confirmed.") }
  }

  private func firstFactorCode(_ name: String) -> JSONObject {
    let medium = name == "SMS_OTP" ? "SMS" : "EMAIL"
    let destination = Self.maskedDestination(medium, firstFactor: true)
    var session = Session(challenge: name, emailIsFirstFactor: true)
    session.code = sendCode(medium, destination: destination)
    return challenge(
      name, session,
      parameters: ["CODE_DELIVERY_DELIVERY_MEDIUM": medium, "CODE_DELIVERY_DESTINATION": destination])
  }

  /// A PASSWORD_VERIFIER answer without a Session names its flow by the SECRET_BLOCK the pool
  /// sent: Cognito accepts it so, and pycognito relies on it (`pycognito/aws_srp.py`,
  /// `AWSSRP.authenticate_user` sends no Session with PASSWORD_VERIFIER).
  private func verifierSession(_ name: String, _ answers: StringFields) -> String? {
    if name == "DEVICE_SRP_AUTH", let key = answers["DEVICE_KEY"] {
      // pycognito answers DEVICE_SRP_AUTH without a Session as well (`authenticate_user`).
      return sessions.first { $0.value.challenge == name && $0.value.flow.deviceKey == key }?.key
    }
    guard name == "PASSWORD_VERIFIER" || name == "DEVICE_PASSWORD_VERIFIER",
      let block = answers["PASSWORD_CLAIM_SECRET_BLOCK"]
    else { return nil }
    return sessions.first { $0.value.challenge == name && $0.value.srp?.secretBlock == block }?.key
  }

  private func respond(_ request: JSONObject) throws(CognitoCallError) -> JSONObject {
    let answers = StringFields(request["ChallengeResponses"])
    let name = request["ChallengeName"]?.string ?? ""
    guard let id = request["Session"]?.string ?? verifierSession(name, answers), let session = sessions[id] else {
      throw fail("NotAuthorizedException", "Invalid session for the user, session is expired.")
    }
    if let named = answers["USERNAME"], named != username, !session.simulated {
      throw fail("NotAuthorizedException", "Invalid session for the user.")
    }
    context = session.flow
    func consume() { sessions[id] = nil }
    if let changed = statusChangePending {
      statusChangePending = nil
      status = changed
      endFlow(context.id)
      try checkStatus()
    }
    switch name {
    case "SMS_MFA", "SOFTWARE_TOKEN_MFA", "EMAIL_OTP", "SMS_OTP":
      let key = name + "_CODE"  // SMS_MFA_CODE, SOFTWARE_TOKEN_MFA_CODE, EMAIL_OTP_CODE, SMS_OTP_CODE
      let answer = answers[key] ?? ""
      guard Self.wellFormed(answer) else { throw failedAttempt("InvalidParameterException") }
      let verdict =
        name == "SOFTWARE_TOKEN_MFA"
        ? codeRight(answer, totpSecret: registeredSecret) : codeRight(answer, sent: session.code)
      if verdict == .used { throw failedAttempt("ExpiredCodeException") }
      guard verdict == .right else { throw failedAttempt("CodeMismatchException") }
      if let sent = session.code { usedCodes.insert(sent) }
      consume()
      if session.setsUpEmail && lifecycle == .persistent {
        config["user.email"] = "true"
        config["user.emailEnabled"] = "true"
      }
      return session.customAfterMfa ? customChallenge(round: 1) : tokens
    case "SELECT_MFA_TYPE":
      guard let answer = answers["ANSWER"], session.offered.contains(answer) else {
        throw failedAttempt("InvalidParameterException")
      }
      consume()
      return mfaChallenge(answer, thenCustom: session.customAfterMfa)
    case "MFA_SETUP":
      if let email = answers["EMAIL"] {
        guard email.contains("@"), settings.poolEmail else { throw failedAttempt("InvalidParameterException") }
        consume()
        return mfaChallenge("EMAIL_OTP", setsUpEmail: true)
      }
      guard session.tokenVerified else { throw fail("NotAuthorizedException", "no software token was verified") }
      consume()
      if lifecycle == .persistent {
        // Cognito registers the verified secret and makes TOTP the user's enabled MFA.
        config["user.totpRegistered"] = "true"
        config["user.totpEnabled"] = "true"
        if let secret = session.secret { registeredSecret = secret }
      }
      return tokens
    case "SELECT_CHALLENGE":
      let answer = answers["ANSWER"] ?? ""
      guard session.offered.contains(answer) else { throw failedAttempt("InvalidParameterException") }
      consume()
      if answer == "PASSWORD" {
        guard answers["PASSWORD"] == password else {
          throw fail("NotAuthorizedException", "Incorrect username or password.")
        }
        return afterPassword()
      }
      if answer == "SMS_OTP" || answer == "EMAIL_OTP" { return firstFactorCode(answer) }
      if answer == "PASSWORD_SRP" { return try passwordVerifier(answers, then: .password) }
      if answer == "WEB_AUTHN" { return webAuthnChallenge() }
      throw fail("InvalidParameterException", "the simulated pool does not do \(answer)")
    case "CUSTOM_CHALLENGE":
      consume()
      switch answers["ANSWER"] {
      case "right" where session.simulated: throw fail("NotAuthorizedException", "Incorrect username or password.")
      case "right": return tokens
      case "fail": throw fail("NotAuthorizedException", "Incorrect username or password.")
      default:
        let rounds = settings.customRounds
        if session.customRound < rounds {
          return customChallenge(round: session.customRound + 1, simulated: session.simulated)
        }
        throw fail("NotAuthorizedException", "Incorrect username or password.")
      }
    case "PASSWORD_VERIFIER" where session.srp != nil:
      consume()
      return try verifyPasswordClaim(answers, session)
    case "WEB_AUTHN" where session.webAuthnChallenge != nil:
      consume()
      return try verifyPasskey(answers, session)
    case "DEVICE_SRP_AUTH":
      consume()
      return try deviceVerifier(answers, session)
    case "DEVICE_PASSWORD_VERIFIER" where session.srp != nil:
      consume()
      return try verifyDeviceClaim(answers, session)
    case "NEW_PASSWORD_REQUIRED":
      guard let newPassword = answers["NEW_PASSWORD"], newPassword.count >= 8 else {
        throw failedAttempt("InvalidPasswordException")
      }
      consume()
      status = "confirmed"
      if lifecycle == .persistent {
        password = newPassword
        srpRecord = nil
      }
      // In CUSTOM_AUTH with SRP the define trigger's step follows the new password.
      return session.afterVerifier == .custom ? customAfterPassword() : afterFirstFactor()
    default:
      throw fail("InvalidParameterException", "unexpected challenge \(name)")
    }
  }
}
