import CognitoWire

/// The input shapes of the operations `signin-spec serve` answers, as Cognito checks them before
/// anything else (botocore's service model for cognito-idp: required members, string lengths,
/// patterns, enumerations). A member of the wrong JSON type is SerializationException; a broken
/// constraint is InvalidParameterException with Cognito's message, e.g. "1 validation error
/// detected: Value at 'session' failed to satisfy constraint: Member must have length greater
/// than or equal to 20".
enum RequestShape {
  /// One string member's constraints.
  struct Member: Sendable {
    var required = false
    var min: Int? = nil
    var max: Int? = nil
    /// The characters the value may hold (botocore's pattern is a character class repeated).
    var allowed: (@Sendable (Character) -> Bool)? = nil
    var pattern: String? = nil
    var values: [String]? = nil
  }

  static let word: @Sendable (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
  static let clientId = Member(required: true, min: 1, max: 128, allowed: { word($0) || $0 == "+" }, pattern: "[\\w+]+")
  static let session = Member(min: 20, max: 2048)
  static let accessToken = Member(
    allowed: { word($0) || "-=.".contains($0) }, pattern: "[A-Za-z0-9-_=.]+")
  static let deviceKey = Member(
    required: true, min: 1, max: 55,
    allowed: { word($0) || $0 == "-" }, pattern: "[\\w-]+_[0-9a-f-]+")

  static let authFlows = [
    "USER_SRP_AUTH", "REFRESH_TOKEN_AUTH", "REFRESH_TOKEN", "CUSTOM_AUTH", "ADMIN_NO_SRP_AUTH", "USER_PASSWORD_AUTH",
    "ADMIN_USER_PASSWORD_AUTH", "USER_AUTH",
  ]
  static let challengeNames = [
    "SMS_MFA", "EMAIL_OTP", "SOFTWARE_TOKEN_MFA", "SELECT_MFA_TYPE", "MFA_SETUP", "PASSWORD_VERIFIER",
    "CUSTOM_CHALLENGE", "SELECT_CHALLENGE", "DEVICE_SRP_AUTH", "DEVICE_PASSWORD_VERIFIER", "ADMIN_NO_SRP_AUTH",
    "NEW_PASSWORD_REQUIRED", "SMS_OTP", "PASSWORD", "WEB_AUTHN", "PASSWORD_SRP",
  ]

  /// The string members of each operation (maps and structures are checked for their type).
  static let strings: [String: [String: Member]] = [
    "InitiateAuth": [
      "AuthFlow": Member(required: true, values: authFlows), "ClientId": clientId, "Session": session,
    ],
    "RespondToAuthChallenge": [
      "ClientId": clientId, "ChallengeName": Member(required: true, values: challengeNames), "Session": session,
    ],
    "AssociateSoftwareToken": ["AccessToken": accessToken, "Session": session],
    "VerifySoftwareToken": [
      "AccessToken": accessToken, "Session": session,
      "UserCode": Member(required: true, min: 6, max: 6, allowed: { $0.isASCII && $0.isNumber }, pattern: "[0-9]+"),
      "FriendlyDeviceName": Member(min: 0, max: 131_072),
    ],
    "ConfirmDevice": [
      "AccessToken": Member(required: true, allowed: accessToken.allowed, pattern: accessToken.pattern),
      "DeviceKey": deviceKey, "DeviceName": Member(min: 1, max: 1024),
    ],
    "UpdateDeviceStatus": [
      "AccessToken": Member(required: true, allowed: accessToken.allowed, pattern: accessToken.pattern),
      "DeviceKey": deviceKey, "DeviceRememberedStatus": Member(values: ["remembered", "not_remembered"]),
    ],
    "GetUser": ["AccessToken": Member(required: true, allowed: accessToken.allowed, pattern: accessToken.pattern)],
  ]

  /// Members that are maps of strings or structures.
  static let objects: [String: [String]] = [
    "InitiateAuth": ["AuthParameters", "ClientMetadata", "AnalyticsMetadata", "UserContextData"],
    "RespondToAuthChallenge": ["ChallengeResponses", "ClientMetadata", "AnalyticsMetadata", "UserContextData"],
    "ConfirmDevice": ["DeviceSecretVerifierConfig"],
  ]

  /// Maps whose values must be strings.
  static let stringMaps: Set<String> = ["AuthParameters", "ChallengeResponses", "ClientMetadata"]

  /// The member's name as Cognito's messages spell it (lower camel case).
  static func spelled(_ name: String) -> String { name.prefix(1).lowercased() + name.dropFirst() }

  static func invalid(_ message: String) -> CognitoCallError {
    .service(type: "InvalidParameterException", message: "1 validation error detected: " + message)
  }

  /// Checks `request` against `operation`'s shape.
  static func check(_ operation: String, _ request: JSONObject) throws(CognitoCallError) {
    for name in objects[operation] ?? [] {
      guard let value = request[name] else { continue }
      guard let object = value.object else {
        throw .service(type: "SerializationException", message: "\(name) must be an object")
      }
      if stringMaps.contains(name), let key = object.first(where: { $0.value.string == nil })?.key {
        throw .service(type: "SerializationException", message: "\(name).\(key) must be a string")
      }
    }
    for (name, member) in (strings[operation] ?? [:]).sorted(by: { $0.key < $1.key }) {
      guard let value = request[name], value != .null else {
        if member.required {
          throw invalid("Value null at '\(spelled(name))' failed to satisfy constraint: Member must not be null")
        }
        continue
      }
      guard let text = value.string else {
        throw .service(type: "SerializationException", message: "\(name) must be a string")
      }
      let at = "Value at '\(spelled(name))' failed to satisfy constraint: Member must"
      if let min = member.min, text.count < min {
        throw invalid("\(at) have length greater than or equal to \(min)")
      }
      if let max = member.max, text.count > max {
        throw invalid("\(at) have length less than or equal to \(max)")
      }
      if let allowed = member.allowed, let pattern = member.pattern, text.isEmpty || !text.allSatisfy(allowed) {
        throw invalid("\(at) satisfy regular expression pattern: \(pattern)")
      }
      if let values = member.values, !values.contains(text) {
        throw invalid("\(at) satisfy enum value set: [\(values.joined(separator: ", "))]")
      }
    }
  }
}
