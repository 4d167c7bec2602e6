import BigInt
import CognitoSRPMath
import CognitoWire
import Foundation

/// A remembered device as its owner's client keeps it: the keys Cognito issued
/// (NewDeviceMetadata) and the random password the client made the verifier from.
package struct RememberedDeviceSecret: Sendable, Equatable, Codable {
  package var key: String
  package var groupKey: String
  package var password: String

  package init(key: String, groupKey: String, password: String) {
    self.key = key
    self.groupKey = groupKey
    self.password = password
  }
}

/// A device as the pool keeps it: its keys, and once confirmed the salt and verifier the client
/// sent (`ConfirmDevice`, DeviceSecretVerifierConfig).
struct PoolDevice: Sendable {
  let key: String
  let groupKey: String
  var record: SRPUserRecord?
  var confirmed: Bool
  /// Remembered (`pool.deviceTracking` always, or UpdateDeviceStatus remembered): may replace MFA.
  var remembered: Bool
  /// Given by the configuration or a users file rather than confirmed in a flow.
  var configured = false

  init(key: String, groupKey: String) {
    self.key = key
    self.groupKey = groupKey
    confirmed = false
    remembered = false
  }

  /// A device whose password is known: the verifier is made here, with a salt drawn from the key.
  init(_ secret: RememberedDeviceSecret, confirmed: Bool, remembered: Bool) {
    key = secret.key
    groupKey = secret.groupKey
    var random = PoolRandom(seed: UInt64(truncatingIfNeeded: secret.key.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
    record = SRPUserRecord(
      poolName: secret.groupKey, userIdForSRP: secret.key, password: secret.password,
      salt: BigUInt(Data(random.bytes(16))))
    self.confirmed = confirmed
    self.remembered = remembered
    configured = true
  }
}

extension SimulatedUserPool {
  /// The most devices issued but not confirmed that the pool keeps per user (oldest dropped).
  package static let maxPendingDevices = 1_000

  /// The remembered device of a configuration with `user.deviceRemembered: true` (the same for the
  /// same seed, so a harness can give its client the device the pool knows).
  package static func seededDevice(region: String = "us-east-1", seed: UInt64 = 0) -> RememberedDeviceSecret {
    var random = PoolRandom(seed: seed ^ 0x6465_7669_6365_0001)
    return RememberedDeviceSecret(
      key: "\(region)_\(uuid(random.bytes(16)))", groupKey: "-" + groupKeyText(random.bytes(9)),
      password: Data(random.bytes(40)).base64EncodedString())
  }

  /// Nine characters of [a-zA-Z0-9] as Cognito's device group keys have after their "-".
  static func groupKeyText(_ bytes: [UInt8]) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    return String(bytes.map { alphabet[Int($0) % alphabet.count] })
  }

  /// The confirmed device InitiateAuth named, if the flow has not answered its challenge yet.
  private var unverifiedDevice: PoolDevice? {
    guard let key = context.deviceKey, !context.deviceVerified, let device = devices[key], device.confirmed,
      device.record != nil
    else { return nil }
    return device
  }

  /// DEVICE_SRP_AUTH where tokens would be issued to a flow that named a confirmed device.
  func deviceChallengeBeforeTokens() -> JSONObject? {
    guard unverifiedDevice != nil else { return nil }
    return challenge("DEVICE_SRP_AUTH", Session(challenge: "DEVICE_SRP_AUTH"), parameters: ["USERNAME": username])
  }

  /// DEVICE_SRP_AUTH in place of MFA: USER_SRP_AUTH, `pool.deviceSuppressesMfa`, and a remembered
  /// device (botocore InitiateAuth DEVICE_KEY; DeviceConfigurationType.ChallengeRequiredOnNewDevice).
  func deviceChallengeReplacingMfa() -> JSONObject? {
    guard context.authFlow == "USER_SRP_AUTH", settings.deviceSuppressesMfa,
      unverifiedDevice?.remembered == true
    else { return nil }
    return deviceChallengeBeforeTokens()
  }

  /// NewDeviceMetadata for tokens where the pool tracks devices and the flow did not sign in on
  /// a confirmed device: a new device key, pending until ConfirmDevice.
  func newDeviceMetadata() -> JSONValue? {
    guard settings.deviceTracking != "off", !context.deviceVerified else { return nil }
    var random = PoolRandom(seed: UInt64(truncatingIfNeeded: devices.count &+ pendingDevices.count) ^ deviceSeed)
    deviceSeed = random.next()
    let device = PoolDevice(
      key: "\(region)_\(Self.uuid(random.bytes(16)))", groupKey: "-" + Self.groupKeyText(random.bytes(9)))
    devices[device.key] = device
    pendingDevices.append(device.key)
    if pendingDevices.count > Self.maxPendingDevices {
      let dropped = pendingDevices.removeFirst()
      if devices[dropped]?.confirmed == false { devices[dropped] = nil }
    }
    return .object(["DeviceKey": .string(device.key), "DeviceGroupKey": .string(device.groupKey)])
  }

  /// A per-flow pool forgets the devices confirmed in earlier flows: each flow starts from the
  /// configuration, where `user.deviceRemembered` says whether a device is remembered.
  func forgetFlowDevices() {
    devices = devices.filter { $0.value.configured }
    pendingDevices.removeAll()
  }

  /// The DEVICE_SRP_AUTH answer (USERNAME, DEVICE_KEY, SRP_A): DEVICE_PASSWORD_VERIFIER with the
  /// device's salt, B and a secret block.
  func deviceVerifier(_ answers: StringFields, _ session: Session) throws(CognitoCallError) -> JSONObject {
    guard let key = answers["DEVICE_KEY"], key == session.flow.deviceKey, let device = devices[key],
      let record = device.record
    else { throw fail("ResourceNotFoundException", "Device does not exist.") }
    guard let text = answers["SRP_A"] else {
      throw fail("InvalidParameterException", "Missing required parameter SRP_A")
    }
    guard !text.isEmpty, let A = BigUInt(text, radix: 16), A % SRPMath.N != 0 else {
      throw fail("InvalidParameterException", "SRP_A is not valid")
    }
    let exchange = SRPExchange(A: A, record: record, random: &random)
    var next = Session(challenge: "DEVICE_PASSWORD_VERIFIER")
    next.srp = exchange
    return challenge(
      "DEVICE_PASSWORD_VERIFIER", next,
      parameters: [
        "SALT": String(record.salt, radix: 16), "SRP_B": String(exchange.B, radix: 16),
        "SECRET_BLOCK": exchange.secretBlock, "USERNAME": username, "DEVICE_KEY": key,
      ])
  }

  /// The DEVICE_PASSWORD_VERIFIER answer: the signature with the device's key (group key in place
  /// of the pool name); right, the flow goes on to its tokens.
  func verifyDeviceClaim(_ answers: StringFields, _ session: Session) throws(CognitoCallError) -> JSONObject {
    guard let exchange = session.srp, let key = session.flow.deviceKey, let device = devices[key],
      let record = device.record
    else { throw fail("ResourceNotFoundException", "Device does not exist.") }
    for name in ["PASSWORD_CLAIM_SIGNATURE", "PASSWORD_CLAIM_SECRET_BLOCK", "TIMESTAMP"] where answers[name] == nil {
      throw fail("InvalidParameterException", "Missing required parameter \(name)")
    }
    let timestamp = answers["TIMESTAMP"] ?? ""
    guard SRPMath.isTimestamp(timestamp) else { throw fail("InvalidParameterException", "TIMESTAMP format is invalid") }
    let expected = exchange.expectedSignature(record: record, poolName: device.groupKey, timestamp: timestamp)
    guard answers["PASSWORD_CLAIM_SECRET_BLOCK"] == exchange.secretBlock, let expected,
      answers["PASSWORD_CLAIM_SIGNATURE"] == expected
    else { throw failedAttempt("NotAuthorizedException", "Incorrect username or password.") }
    context.deviceVerified = true
    return tokens
  }

  /// Whether `request` carries the access token this pool issued (`signin-spec serve` checks
  /// its JWTs and passes this one on).
  func checkAccessToken(_ request: JSONObject) throws(CognitoCallError) {
    guard request["AccessToken"]?.string == Self.accessToken else {
      throw fail("NotAuthorizedException", "Invalid Access Token")
    }
  }

  /// ConfirmDevice: stores the device's salt and verifier; `UserConfirmationNecessary` where the
  /// pool remembers devices only when the user opts in.
  func confirmDevice(_ request: JSONObject) throws(CognitoCallError) -> JSONObject {
    try checkAccessToken(request)
    guard let key = request["DeviceKey"]?.string, let device = devices[key] else {
      throw fail("ResourceNotFoundException", "Device does not exist.")
    }
    let config = request["DeviceSecretVerifierConfig"]?.object ?? [:]
    guard let verifierText = config["PasswordVerifier"]?.string, let saltText = config["Salt"]?.string,
      let verifier = Data(base64Encoded: verifierText), let salt = Data(base64Encoded: saltText),
      !verifier.isEmpty, !salt.isEmpty
    else {
      throw fail(
        "InvalidParameterException", "DeviceSecretVerifierConfig needs PasswordVerifier and Salt, base64")
    }
    let optIn = settings.deviceTracking == "userOptIn"
    var confirmed = device
    confirmed.record = SRPUserRecord(userIdForSRP: key, salt: BigUInt(salt), verifier: BigUInt(verifier))
    confirmed.confirmed = true
    confirmed.remembered = !optIn
    devices[key] = confirmed
    pendingDevices.removeAll { $0 == key }
    return ["UserConfirmationNecessary": .bool(optIn)]
  }

  /// UpdateDeviceStatus: remembered or not_remembered.
  func updateDeviceStatus(_ request: JSONObject) throws(CognitoCallError) -> JSONObject {
    try checkAccessToken(request)
    guard let key = request["DeviceKey"]?.string, devices[key]?.confirmed == true else {
      throw fail("ResourceNotFoundException", "Device does not exist.")
    }
    switch request["DeviceRememberedStatus"]?.string {
    case "remembered": devices[key]?.remembered = true
    case "not_remembered": devices[key]?.remembered = false
    default:
      throw fail("InvalidParameterException", "DeviceRememberedStatus must be remembered or not_remembered")
    }
    return [:]
  }

  /// GetUser: the user's name, attributes and MFA settings.
  func getUser(_ request: JSONObject) throws(CognitoCallError) -> JSONObject {
    try checkAccessToken(request)
    var attributes: [JSONValue] = [.object(["Name": .string("sub"), "Value": .string(sub)])]
    if config["user.email"] == "true" {
      attributes.append(.object(["Name": .string("email"), "Value": .string(Self.email)]))
      attributes.append(.object(["Name": .string("email_verified"), "Value": .string("true")]))
    }
    if config["user.phone"] == "true" {
      attributes.append(.object(["Name": .string("phone_number"), "Value": .string(Self.phoneNumber)]))
      attributes.append(.object(["Name": .string("phone_number_verified"), "Value": .string("true")]))
    }
    var mfaSettings: [String] = []
    if config["user.smsEnabled"] == "true" && config["user.phone"] == "true" { mfaSettings.append("SMS_MFA") }
    if config["user.totpEnabled"] == "true" && config["user.totpRegistered"] == "true" {
      mfaSettings.append("SOFTWARE_TOKEN_MFA")
    }
    if config["user.emailEnabled"] == "true" && config["user.email"] == "true" { mfaSettings.append("EMAIL_OTP") }
    var body: JSONObject = [
      "Username": .string(username), "UserAttributes": .array(attributes),
      "UserMFASettingList": .array(mfaSettings.map { .string($0) }),
    ]
    let preferred = ["sms": "SMS_MFA", "totp": "SOFTWARE_TOKEN_MFA", "email": "EMAIL_OTP"][
      config["user.preferred"] ?? ""]
    if let preferred, mfaSettings.contains(preferred) { body["PreferredMfaSetting"] = .string(preferred) }
    return body
  }

  /// The user's configuration now (a persistent pool's changes included).
  package var configuration: [String: String] { config }

  /// The user's attributes an ID token carries (email, phone_number where the user has them).
  package var attributes: [String: String] {
    var result: [String: String] = [:]
    if config["user.email"] == "true" { result["email"] = Self.email }
    if config["user.phone"] == "true" { result["phone_number"] = Self.phoneNumber }
    return result
  }

  /// The email address and phone number a user with `user.email` / `user.phone` has (masked in
  /// challenges as `maskedDestination` shows).
  package static let email = "user@example.com"
  package static let phoneNumber = "+15555550100"
}
