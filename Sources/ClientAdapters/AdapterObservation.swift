/// What an adapter saw after a call, as a user of its client sees it: the answer to `signIn`,
/// `confirmSignIn`, `signOut` and `reset`.
///
/// After a call that returned, `step` is the result's next step and `isSignedIn` the result's
/// own `isSignedIn`. After a call that threw, `error` is set, `step` is the step the client
/// says it is still on (nil when the flow ended) and `isSignedIn` what its public API says.
public struct AdapterObservation: Sendable, Equatable, Codable {
  /// An error, by type (Cognito's exception name for Cognito's errors, else the client's own).
  public struct ObservedError: Sendable, Equatable, Codable {
    public var type: String
    public var message: String

    public init(type: String, message: String) {
      self.type = type
      self.message = message
    }
  }

  /// Where a code was sent, as the step reports it.
  public struct Delivery: Sendable, Equatable, Codable {
    /// `SMS`, `EMAIL` or `UNKNOWN`.
    public var medium: String
    /// The masked destination, e.g. `+1***0100`.
    public var destination: String

    public init(medium: String, destination: String) {
      self.medium = medium
      self.destination = destination
    }
  }

  public var id: Int
  /// The step, in the adapter's own names (mapped by its `hello`); nil when there is none.
  public var step: String?
  public var error: ObservedError?
  public var delivery: Delivery?
  /// The options of a selection step, by Cognito's names (`SMS_MFA`, `PASSWORD_SRP`, …).
  public var options: [String]?
  /// The TOTP secret of a setup step (base32).
  public var totpSecret: String?
  /// The username a TOTP setup step names (the account label of its setup URI).
  public var totpUsername: String?
  /// The challenge parameters the step carries (a custom challenge's, for example).
  public var challengeParameters: [String: String]?
  public var isSignedIn: Bool

  public init(
    id: Int, step: String?, error: ObservedError? = nil, delivery: Delivery? = nil, options: [String]? = nil,
    totpSecret: String? = nil, totpUsername: String? = nil, challengeParameters: [String: String]? = nil,
    isSignedIn: Bool
  ) {
    self.id = id
    self.step = step
    self.error = error
    self.delivery = delivery
    self.options = options
    self.totpSecret = totpSecret
    self.totpUsername = totpUsername
    self.challengeParameters = challengeParameters
    self.isSignedIn = isSignedIn
  }

  enum CodingKeys: String, CodingKey {
    case id, type, step, error, delivery, options, totpSecret, totpUsername, challengeParameters, isSignedIn
  }

  /// Reads an observation: `id`, `type` ("observation"), `step` (a string or null) and
  /// `isSignedIn` are required; the other members may be left out when they have no value.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let type = try c.decode(String.self, forKey: .type)
    guard type == "observation" else {
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: c, debugDescription: "the type is \(type), not observation")
    }
    id = try c.decode(Int.self, forKey: .id)
    guard c.contains(.step) else {
      throw DecodingError.keyNotFound(
        CodingKeys.step, .init(codingPath: c.codingPath, debugDescription: "an observation names its step or null"))
    }
    step = try c.decodeIfPresent(String.self, forKey: .step)
    error = try c.decodeIfPresent(ObservedError.self, forKey: .error)
    delivery = try c.decodeIfPresent(Delivery.self, forKey: .delivery)
    options = try c.decodeIfPresent([String].self, forKey: .options)
    totpSecret = try c.decodeIfPresent(String.self, forKey: .totpSecret)
    totpUsername = try c.decodeIfPresent(String.self, forKey: .totpUsername)
    challengeParameters = try c.decodeIfPresent([String: String].self, forKey: .challengeParameters)
    isSignedIn = try c.decode(Bool.self, forKey: .isSignedIn)
  }

  /// Writes every required member, null ones too; optional members only when they have a value.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode("observation", forKey: .type)
    try c.encode(step, forKey: .step)
    try c.encode(error, forKey: .error)
    try c.encode(delivery, forKey: .delivery)
    try c.encodeIfPresent(options, forKey: .options)
    try c.encodeIfPresent(totpSecret, forKey: .totpSecret)
    try c.encodeIfPresent(totpUsername, forKey: .totpUsername)
    try c.encodeIfPresent(challengeParameters, forKey: .challengeParameters)
    try c.encode(isSignedIn, forKey: .isSignedIn)
  }
}
