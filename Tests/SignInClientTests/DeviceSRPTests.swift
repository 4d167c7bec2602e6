import BigInt
import CognitoSRPMath
import CognitoWire
import Foundation
import Testing

@testable import SignInClient
@testable import SimulatedCognito

/// Cognito's device tracking in front of the simulated pool, with the server side of device
/// SRP done for real: the pool signs the user in (SRP, MFA); this backend adds
/// `NewDeviceMetadata` to the tokens of a sign-in without DEVICE_KEY, keeps the verifier and
/// salt ConfirmDevice sends, and for a sign-in with a confirmed DEVICE_KEY holds the tokens
/// back behind DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER, whose signature it checks against
/// that verifier (`SRPExchange`, the pool's own PASSWORD_VERIFIER arithmetic, with the device
/// key as the user id and the group key as the pool name). A DEVICE_KEY it does not know in a
/// PASSWORD_VERIFIER answer is ResourceNotFoundException ("Device does not exist."), as
/// amplify-android's fixture scripts it.
actor DeviceTrackingPool: CognitoBackend {
  struct Device {
    var groupKey: String
    /// Made from ConfirmDevice's DeviceSecretVerifierConfig; nil until then.
    var record: SRPUserRecord?
  }

  /// Tokens held back behind the device challenges, by the session of the next one.
  struct Pending {
    var tokens: JSONObject
    var deviceKey: String
    var exchange: SRPExchange?
  }

  let pool: SimulatedUserPool
  private(set) var devices: [String: Device] = [:]
  private(set) var requests: [(operation: String, body: JSONObject)] = []
  /// Device keys whose DEVICE_PASSWORD_VERIFIER answer verified.
  private(set) var verified: [String] = []
  /// The DEVICE_KEY of the flow's last InitiateAuth or PASSWORD_VERIFIER answer.
  private var flowDeviceKey: String?
  private var pending: [String: Pending] = [:]
  private var random = PoolRandom(seed: 7)
  private var issued = 0
  /// Errors answered instead, once, by operation or challenge name.
  private var failures: [String: CognitoCallError] = [:]

  init(configuration: [String: String] = [:]) { pool = SimulatedUserPool(configuration: configuration) }

  /// Answers the next request of `name` (an operation, or a challenge of RespondToAuthChallenge)
  /// with `error`.
  func failNext(_ name: String, with error: CognitoCallError) { failures[name] = error }

  func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject {
    requests.append((operation, request))
    let challenge = request["ChallengeName"]?.string
    if let error = failures.removeValue(forKey: challenge ?? operation) ?? failures.removeValue(forKey: operation) {
      throw error
    }
    switch (operation, challenge) {
    case ("ConfirmDevice", _): return try confirm(request)
    case ("RespondToAuthChallenge", "DEVICE_SRP_AUTH"): return try deviceSRP(request)
    case ("RespondToAuthChallenge", "DEVICE_PASSWORD_VERIFIER"): return try deviceVerifier(request)
    case ("InitiateAuth", _):
      let (forwarded, key) = SignInClient.withoutDeviceKey(request)
      flowDeviceKey = key
      return try await afterPool(pool.send(operation, forwarded))
    default:
      let (forwarded, key) = SignInClient.withoutDeviceKey(request)
      if challenge == "PASSWORD_VERIFIER" {
        if let key, devices[key]?.record == nil {
          throw .service(type: "ResourceNotFoundException", message: "Device does not exist.")
        }
        flowDeviceKey = key
      }
      return try await afterPool(pool.send(operation, forwarded))
    }
  }

  private func newSession() -> String {
    issued += 1
    return "device-session-\(issued)"
  }

  /// The pool's answer, with the tokens held back behind the device challenges for a confirmed
  /// device, or given a new device otherwise.
  private func afterPool(_ response: JSONObject) -> JSONObject {
    guard var result = response["AuthenticationResult"]?.object else { return response }
    if let key = flowDeviceKey, devices[key]?.record != nil {
      let session = newSession()
      pending[session] = Pending(tokens: response, deviceKey: key)
      return [
        "ChallengeName": .string("DEVICE_SRP_AUTH"), "Session": .string(session),
        "ChallengeParameters": .object(["USERNAME": .string(SimulatedUserPool.username)]),
      ]
    }
    issued += 1
    let key = "us-east-1_\(issued)d0e1-c0de"
    let groupKey = "-group\(issued)"
    devices[key] = Device(groupKey: groupKey, record: nil)
    result["NewDeviceMetadata"] = .object(["DeviceKey": .string(key), "DeviceGroupKey": .string(groupKey)])
    return ["AuthenticationResult": .object(result)]
  }

  private func confirm(_ request: JSONObject) throws(CognitoCallError) -> JSONObject {
    guard request["AccessToken"]?.string == SimulatedUserPool.accessToken else {
      throw .service(type: "NotAuthorizedException", message: "Invalid Access Token")
    }
    guard let key = request["DeviceKey"]?.string, var device = devices[key] else {
      throw .service(type: "ResourceNotFoundException", message: "Device does not exist.")
    }
    let config = request["DeviceSecretVerifierConfig"]?.stringMap ?? [:]
    guard let verifier = config["PasswordVerifier"].flatMap({ Data(base64Encoded: $0) }),
      let salt = config["Salt"].flatMap({ Data(base64Encoded: $0) })
    else { throw .service(type: "InvalidParameterException", message: "DeviceSecretVerifierConfig is not valid") }
    device.record = SRPUserRecord(userIdForSRP: key, salt: BigUInt(salt), verifier: BigUInt(verifier))
    devices[key] = device
    return ["UserConfirmationNecessary": .bool(false)]
  }

  private func deviceSRP(_ request: JSONObject) throws(CognitoCallError) -> JSONObject {
    guard let session = request["Session"]?.string, var held = pending.removeValue(forKey: session),
      held.exchange == nil
    else { throw .service(type: "NotAuthorizedException", message: "Invalid session for the user.") }
    let answers = request["ChallengeResponses"]?.stringMap ?? [:]
    guard answers["DEVICE_KEY"] == held.deviceKey, let record = devices[held.deviceKey]?.record else {
      throw .service(type: "ResourceNotFoundException", message: "Device does not exist.")
    }
    guard answers["USERNAME"] == SimulatedUserPool.username, let text = answers["SRP_A"],
      let A = BigUInt(text, radix: 16), A % SRPMath.N != 0
    else { throw .service(type: "InvalidParameterException", message: "USERNAME or SRP_A is not valid") }
    let exchange = SRPExchange(A: A, record: record, random: &random)
    held.exchange = exchange
    let next = newSession()
    pending[next] = held
    var parameters = exchange.challengeParameters(record: record)
    parameters["USERNAME"] = SimulatedUserPool.username
    parameters["USER_ID_FOR_SRP"] = nil
    parameters["DEVICE_KEY"] = held.deviceKey
    return [
      "ChallengeName": .string("DEVICE_PASSWORD_VERIFIER"), "Session": .string(next),
      "ChallengeParameters": .object(parameters.mapValues { .string($0) }),
    ]
  }

  private func deviceVerifier(_ request: JSONObject) throws(CognitoCallError) -> JSONObject {
    guard let session = request["Session"]?.string, let held = pending.removeValue(forKey: session),
      let exchange = held.exchange
    else { throw .service(type: "NotAuthorizedException", message: "Invalid session for the user.") }
    let answers = request["ChallengeResponses"]?.stringMap ?? [:]
    guard answers["DEVICE_KEY"] == held.deviceKey, let device = devices[held.deviceKey], let record = device.record
    else { throw .service(type: "ResourceNotFoundException", message: "Device does not exist.") }
    let timestamp = answers["TIMESTAMP"] ?? ""
    guard answers["USERNAME"] == SimulatedUserPool.username, SRPMath.isTimestamp(timestamp) else {
      throw .service(type: "InvalidParameterException", message: "USERNAME or TIMESTAMP is not valid")
    }
    let expected = exchange.expectedSignature(record: record, poolName: device.groupKey, timestamp: timestamp)
    guard answers["PASSWORD_CLAIM_SECRET_BLOCK"] == exchange.secretBlock, let expected,
      answers["PASSWORD_CLAIM_SIGNATURE"] == expected
    else { throw .service(type: "NotAuthorizedException", message: "Incorrect username or password.") }
    verified.append(held.deviceKey)
    return held.tokens
  }
}

/// Remembered devices (ConfirmDevice, DEVICE_SRP_AUTH, DEVICE_PASSWORD_VERIFIER) against a
/// pool that checks the device's SRP for real.
@Suite("Remembered devices: ConfirmDevice and device SRP")
struct DeviceSRPTests {
  static let user = SimulatedUserPool.username
  static let sms = PoolSRPTests.sms

  /// Fixed bytes whose first has its top bit set (so a salt needs Cognito's leading zero byte);
  /// SRP's 128-byte `a` is cut to 32 bytes, as in `PoolSRPTests`, to keep BigInt quick.
  static let random: @Sendable (Int) -> [UInt8] = { n in
    (0..<(n == 128 ? 32 : n)).map { UInt8(truncatingIfNeeded: 0x9d &+ $0 &* 31) }
  }

  static func client(_ backend: any CognitoBackend, devices: [String: RememberedDevice] = [:]) -> SignInClient {
    SignInClient(
      backend: backend, clientId: "c", userPoolId: SimulatedUserPool.poolId, random: random, devices: devices)
  }

  /// The challenge name of each RespondToAuthChallenge in `requests`, and the other operations'
  /// names.
  static func names(_ requests: [(operation: String, body: JSONObject)]) -> [String] {
    requests.map { $0.body["ChallengeName"]?.string ?? $0.operation }
  }

  static func deviceKey(_ body: JSONObject) -> String? {
    (body["AuthParameters"] ?? body["ChallengeResponses"])?.object?["DEVICE_KEY"]?.string
  }

  /// Signs in with the user's password, answering SMS MFA when the pool asks.
  static func signIn(_ client: SignInClient) async throws -> AuthSignInResult {
    let result = try await client.signIn(username: user, password: SimulatedUserPool.password)
    if case .confirmSignInWithSMSMFACode = result.nextStep {
      return try await client.confirmSignIn(challengeResponse: SimulatedUserPool.code)
    }
    return result
  }

  /// A client that signed in once on `backend` and confirmed the device it was given.
  static func confirmedClient(_ backend: DeviceTrackingPool) async throws -> (SignInClient, RememberedDevice) {
    let client = Self.client(backend)
    #expect(try await signIn(client).isSignedIn)
    await client.signOut()
    return (client, try #require(await client.rememberedDevice(for: user)))
  }

  @Test(
    "a sign-in ending with NewDeviceMetadata confirms the device (a new random password's verifier) and remembers it")
  func confirmDevice() async throws {
    let backend = DeviceTrackingPool()
    let client = Self.client(backend)
    #expect(try await client.signIn(username: Self.user, password: SimulatedUserPool.password).isSignedIn)
    let requests = await backend.requests
    #expect(Self.names(requests) == ["InitiateAuth", "PASSWORD_VERIFIER", "ConfirmDevice"])
    #expect(requests.allSatisfy { Self.deviceKey($0.body) == nil }, "no device yet, no DEVICE_KEY")

    let device = try #require(await client.rememberedDevice(for: Self.user))
    let issued = try #require(await backend.devices[device.key])
    #expect(device.groupKey == issued.groupKey)
    #expect(Data(base64Encoded: device.password)?.count == 40, "base64 of 40 random bytes")

    let confirm = try #require(requests.last?.body)
    #expect(confirm["AccessToken"]?.string == SimulatedUserPool.accessToken)
    #expect(confirm["DeviceKey"]?.string == device.key)
    #expect(confirm["DeviceName"]?.string?.isEmpty == false)
    let config = confirm["DeviceSecretVerifierConfig"]?.stringMap ?? [:]
    let saltBytes = try #require(config["Salt"].flatMap { Data(base64Encoded: $0) }).map { $0 }
    let verifierBytes = try #require(config["PasswordVerifier"].flatMap { Data(base64Encoded: $0) }).map { $0 }
    // 16 random bytes whose top bit is set: Cognito's padding puts a zero byte first.
    #expect(saltBytes == [0] + Self.random(16))
    let salt = BigUInt(Data(saltBytes))
    let v = SRPMath.verifier(
      salt: salt, poolName: device.groupKey, userIdForSRP: device.key, password: device.password)
    #expect(verifierBytes == SRPMath.bytes(SRPMath.padHex(v)), "v = g^x of the remembered password, padded hex bytes")
    #expect(issued.record?.verifier == v && issued.record?.salt == salt)
  }

  @Test(
    "the next signIn sends DEVICE_KEY and passes DEVICE_SRP_AUTH, DEVICE_PASSWORD_VERIFIER inside; so does an init device"
  )
  func deviceSignIn() async throws {
    let backend = DeviceTrackingPool()
    let (client, device) = try await Self.confirmedClient(backend)
    let before = await backend.requests.count
    #expect(try await client.signIn(username: Self.user, password: SimulatedUserPool.password).nextStep == .done)
    let requests = Array(await backend.requests.dropFirst(before))
    #expect(
      Self.names(requests) == ["InitiateAuth", "PASSWORD_VERIFIER", "DEVICE_SRP_AUTH", "DEVICE_PASSWORD_VERIFIER"],
      "no ConfirmDevice for a device Cognito knows")
    #expect(requests.allSatisfy { Self.deviceKey($0.body) == device.key })
    let srpAuth = requests[2].body
    #expect(Set((srpAuth["ChallengeResponses"]?.stringMap ?? [:]).keys) == ["USERNAME", "DEVICE_KEY", "SRP_A"])
    #expect(srpAuth["Session"]?.string == "device-session-2")
    let verifier = requests[3].body
    #expect(
      Set((verifier["ChallengeResponses"]?.stringMap ?? [:]).keys)
        == ["USERNAME", "DEVICE_KEY", "PASSWORD_CLAIM_SECRET_BLOCK", "PASSWORD_CLAIM_SIGNATURE", "TIMESTAMP"])
    #expect(verifier["Session"]?.string == "device-session-3")
    #expect(await backend.verified == [device.key])
    #expect(await client.rememberedDevice(for: Self.user) == device)

    let fresh = Self.client(backend, devices: [Self.user: device])
    #expect(try await fresh.signIn(username: Self.user, password: SimulatedUserPool.password).isSignedIn)
    #expect(await backend.verified == [device.key, device.key])
  }

  @Test(
    "a device claim the pool refuses: NotAuthorizedException, signed out, device forgotten; the next signIn gets one")
  func wrongDeviceSignature() async throws {
    let backend = DeviceTrackingPool()
    let (client, device) = try await Self.confirmedClient(backend)
    await client.remember(
      RememberedDevice(key: device.key, groupKey: device.groupKey, password: "not the device's password"),
      for: Self.user)
    do {
      _ = try await client.signIn(username: Self.user, password: SimulatedUserPool.password)
      Issue.record("a wrong device signature signed in")
    } catch {
      guard case .notAuthorized(let message) = error else {
        Issue.record("expected notAuthorized, got \(error)")
        return
      }
      #expect(message == "Incorrect username or password.")
      #expect(error.description == "not authorized: Incorrect username or password.; call signIn to start again")
    }
    #expect(await client.currentStep == nil)
    #expect(await client.isSignedIn == false)
    #expect(await client.rememberedDevice(for: Self.user) == nil)
    #expect(await backend.verified.isEmpty)

    let before = await backend.requests.count
    #expect(try await client.signIn(username: Self.user, password: SimulatedUserPool.password).isSignedIn)
    let requests = Array(await backend.requests.dropFirst(before))
    #expect(Self.names(requests) == ["InitiateAuth", "PASSWORD_VERIFIER", "ConfirmDevice"])
    #expect(requests.allSatisfy { Self.deviceKey($0.body) == nil })
    let renewed = try #require(await client.rememberedDevice(for: Self.user))
    #expect(renewed.key != device.key)
  }

  @Test("after an MFA answer the device challenges are answered inside confirmSignIn, which is done")
  func afterMFA() async throws {
    let backend = DeviceTrackingPool(configuration: Self.sms)
    let (client, device) = try await Self.confirmedClient(backend)
    let before = await backend.requests.count
    let first = try await client.signIn(username: Self.user, password: SimulatedUserPool.password)
    #expect(first.nextStep.name == "confirmSignInWithSMSMFACode", "this pool does not suppress MFA")
    #expect(try await client.confirmSignIn(challengeResponse: SimulatedUserPool.code).nextStep == .done)
    #expect(await client.isSignedIn)
    let requests = Array(await backend.requests.dropFirst(before))
    #expect(
      Self.names(requests) == [
        "InitiateAuth", "PASSWORD_VERIFIER", "SMS_MFA", "DEVICE_SRP_AUTH", "DEVICE_PASSWORD_VERIFIER",
      ])
    #expect(await backend.verified == [device.key])
  }

  @Test("a device remembered for another username is never sent; the user gets a device of its own")
  func otherUsername() async throws {
    let other = RememberedDevice(key: "us-east-1_0ther", groupKey: "-other", password: "other-password")
    let backend = DeviceTrackingPool()
    let client = Self.client(backend, devices: ["someone-else": other])
    #expect(try await Self.signIn(client).isSignedIn)
    #expect(await backend.requests.allSatisfy { Self.deviceKey($0.body) == nil })
    #expect(await client.rememberedDevice(for: "someone-else") == other)
    let own = try #require(await client.rememberedDevice(for: Self.user))
    #expect(own.key != other.key)
  }

  @Test(
    "ConfirmDevice failing leaves the user signed in and remembers no device",
    arguments: [
      CognitoCallError.service(type: "InternalErrorException", message: "simulated"),
      .service(type: "NotAuthorizedException", message: "Access Token has been revoked"), .network("connection reset"),
    ])
  func confirmDeviceFails(_ failure: CognitoCallError) async throws {
    let backend = DeviceTrackingPool()
    await backend.failNext("ConfirmDevice", with: failure)
    let client = Self.client(backend)
    let result = try await client.signIn(username: Self.user, password: SimulatedUserPool.password)
    #expect(result.nextStep == .done)
    #expect(await client.isSignedIn)
    #expect(await client.currentStep == .done)
    #expect(await client.rememberedDevice(for: Self.user) == nil)
    #expect(Self.names(await backend.requests).last == "ConfirmDevice")
  }

  @Test(
    "ResourceNotFoundException to PASSWORD_VERIFIER with DEVICE_KEY: forgotten, answered again without it, new device")
  func deviceNotFound() async throws {
    let gone = RememberedDevice(key: "us-east-1_90ne", groupKey: "-gone", password: "gone-password")
    let backend = DeviceTrackingPool()
    let client = Self.client(backend, devices: [Self.user: gone])
    #expect(try await client.signIn(username: Self.user, password: SimulatedUserPool.password).isSignedIn)
    let requests = await backend.requests
    #expect(Self.names(requests) == ["InitiateAuth", "PASSWORD_VERIFIER", "PASSWORD_VERIFIER", "ConfirmDevice"])
    #expect(requests.map { Self.deviceKey($0.body) } == [gone.key, gone.key, nil, nil])
    #expect(
      requests[1].body["ChallengeResponses"]?.object?.filter { $0.key != "DEVICE_KEY" }
        == requests[2].body["ChallengeResponses"]?.object, "the same answer, without DEVICE_KEY")
    let renewed = try #require(await client.rememberedDevice(for: Self.user))
    #expect(renewed.key != gone.key)
  }

  @Test(
    "an error at DEVICE_SRP_AUTH ends the flow, unretried; NotAuthorized, ResourceNotFound forget the device",
    arguments: [
      ("ResourceNotFoundException", AuthError.notAuthorized("the session is not valid any more"), true),
      ("NotAuthorizedException", .notAuthorized("simulated"), true),
      ("InternalErrorException", .service(type: "InternalErrorException", message: "simulated"), false),
    ])
  func deviceChallengeError(type: String, expected: AuthError, forgets: Bool) async throws {
    let backend = DeviceTrackingPool()
    let (client, device) = try await Self.confirmedClient(backend)
    await backend.failNext("DEVICE_SRP_AUTH", with: .service(type: type, message: "simulated"))
    await #expect(throws: expected) {
      try await client.signIn(username: Self.user, password: SimulatedUserPool.password)
    }
    #expect(await client.currentStep == nil)
    #expect(Self.names(await backend.requests).filter { $0 == "DEVICE_SRP_AUTH" }.count == 1)
    #expect(await client.rememberedDevice(for: Self.user) == (forgets ? nil : device))
  }

  @Test(
    "InitiateAuth with DEVICE_KEY answered ResourceNotFoundException: forgotten, sent again without it (once)")
  func initiateAuthDeviceNotFound() async throws {
    let tokens: JSONObject = ["AuthenticationResult": .object(["AccessToken": .string("t")])]
    let notFound = CognitoCallError.service(type: "ResourceNotFoundException", message: "Device does not exist.")
    let backend = ScriptedBackend([
      .init(operation: "InitiateAuth", result: .failure(notFound)),
      .init(operation: "InitiateAuth", result: .success(tokens)),
    ])
    let device = RememberedDevice(key: "us-east-1_90ne", groupKey: "-gone", password: "gone-password")
    let client = Self.client(backend, devices: ["u": device])
    let options = SignInOptions(authFlow: .userPassword)
    #expect(try await client.signIn(username: "u", password: "pw", options: options).isSignedIn)
    #expect(await backend.requests.map { Self.deviceKey($0.body) } == [device.key, nil])
    #expect(await client.rememberedDevice(for: "u") == nil)

    let plain = ScriptedBackend([
      .init(operation: "InitiateAuth", result: .failure(notFound)),
      .init(operation: "InitiateAuth", result: .success(tokens)),
    ])
    await #expect(throws: AuthError.notAuthorized("the session is not valid any more")) {
      try await Self.client(plain).signIn(username: "u", password: "pw", options: options)
    }
    #expect(await plain.requests.count == 1)
  }

  @Test("DEVICE_SRP_AUTH with no device remembered for the user is an invalid service response, and signed out")
  func deviceChallengeWithoutDevice() async throws {
    let backend = ScriptedBackend([
      .init(
        operation: "InitiateAuth",
        result: .success([
          "ChallengeName": .string("DEVICE_SRP_AUTH"), "Session": .string("s"),
          "ChallengeParameters": .object(["USERNAME": .string("u")]),
        ]))
    ])
    let client = Self.client(backend)
    let expected = AuthError.invalidServiceResponse("DEVICE_SRP_AUTH, but no device is remembered for this user")
    await #expect(throws: expected) {
      try await client.signIn(username: "u", password: "pw", options: SignInOptions(authFlow: .userPassword))
    }
    #expect(await client.currentStep == nil)
    #expect(await backend.requests.count == 1, "nothing is sent for it")
  }
}
