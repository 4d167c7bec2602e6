/// A message the fuzzer sends an adapter (protocol v1, `schemas/adapter-protocol.v1.schema.json`):
/// one JSON object per line on the adapter's stdin, with an integer `id` the answer echoes.
public struct AdapterRequest: Sendable, Equatable, Codable {
  /// What is asked.
  public enum Body: Sendable, Equatable {
    /// The first message: the protocol version and the Cognito endpoint every call goes to.
    case hello(protocol: Int, endpoint: String)
    /// A new case: forget everything (flow, signed-in user, remembered devices) and use this pool,
    /// app client and user from now on.
    case reset(poolId: String, clientId: String, username: String, password: String)
    /// `signIn`: the password is nil for a flow without one (passwordless USER_AUTH, custom auth).
    case signIn(username: String, password: String?, options: SignInRequestOptions)
    /// `confirmSignIn` with the user's answer: a code, a selection, a new password, an address.
    case confirmSignIn(answer: String)
    /// `signOut`.
    case signOut

    /// The message's `type`.
    public var type: String {
      switch self {
      case .hello: return "hello"
      case .reset: return "reset"
      case .signIn: return "signIn"
      case .confirmSignIn: return "confirmSignIn"
      case .signOut: return "signOut"
      }
    }
  }

  public var id: Int
  public var body: Body

  public init(id: Int, _ body: Body) {
    self.id = id
    self.body = body
  }

  enum CodingKeys: String, CodingKey {
    case id, type, `protocol`, endpoint, poolId, clientId, username, password, options, answer
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(Int.self, forKey: .id)
    let type = try c.decode(String.self, forKey: .type)
    switch type {
    case "hello":
      body = .hello(
        protocol: try c.decode(Int.self, forKey: .protocol), endpoint: try c.decode(String.self, forKey: .endpoint))
    case "reset":
      body = .reset(
        poolId: try c.decode(String.self, forKey: .poolId), clientId: try c.decode(String.self, forKey: .clientId),
        username: try c.decode(String.self, forKey: .username), password: try c.decode(String.self, forKey: .password))
    case "signIn":
      body = .signIn(
        username: try c.decode(String.self, forKey: .username),
        password: try c.decodeIfPresent(String.self, forKey: .password),
        options: try c.decodeIfPresent(SignInRequestOptions.self, forKey: .options) ?? SignInRequestOptions())
    case "confirmSignIn":
      body = .confirmSignIn(answer: try c.decode(String.self, forKey: .answer))
    case "signOut":
      body = .signOut
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: c, debugDescription: "unknown request type \(type)")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(body.type, forKey: .type)
    switch body {
    case .hello(let version, let endpoint):
      try c.encode(version, forKey: .protocol)
      try c.encode(endpoint, forKey: .endpoint)
    case .reset(let poolId, let clientId, let username, let password):
      try c.encode(poolId, forKey: .poolId)
      try c.encode(clientId, forKey: .clientId)
      try c.encode(username, forKey: .username)
      try c.encode(password, forKey: .password)
    case .signIn(let username, let password, let options):
      try c.encode(username, forKey: .username)
      try c.encode(password, forKey: .password)
      try c.encode(options, forKey: .options)
    case .confirmSignIn(let answer):
      try c.encode(answer, forKey: .answer)
    case .signOut:
      break
    }
  }
}

/// The options of a `signIn` request.
public struct SignInRequestOptions: Sendable, Equatable, Codable {
  /// The auth flows of protocol v1, by Amplify Swift's `AuthFlowType` names.
  public enum AuthFlow: String, Sendable, Equatable, Codable, CaseIterable {
    case userSRP, userPassword, customWithSRP, customWithoutSRP, userAuth
  }

  /// The flow; nil lets the client use its default.
  public var authFlow: AuthFlow?
  /// USER_AUTH's preferred first factor, by Cognito's name (`PASSWORD`, `PASSWORD_SRP`,
  /// `SMS_OTP`, `EMAIL_OTP`, `WEB_AUTHN`); nil for none.
  public var preferredFirstFactor: String?

  public init(authFlow: AuthFlow? = nil, preferredFirstFactor: String? = nil) {
    self.authFlow = authFlow
    self.preferredFirstFactor = preferredFirstFactor
  }
}
