/// An adapter's answer to `hello`: who it is, how its step names map to the model's, and what
/// its client supports.
public struct AdapterHello: Sendable, Equatable, Codable {
  /// What the client supports. A case that needs a flow or a challenge not listed here is
  /// unsupported by this client, not a failure.
  public struct Capabilities: Sendable, Equatable, Codable {
    /// Auth flows, by the names of `SignInRequestOptions.AuthFlow`.
    public var flows: [String]
    /// Cognito challenges the client can answer, by `ChallengeName` (`SMS_MFA`, `MFA_SETUP`, …).
    public var challenges: [String]

    public init(flows: [String], challenges: [String]) {
      self.flows = flows
      self.challenges = challenges
    }
  }

  public var id: Int
  public var type: String
  /// The protocol version the adapter speaks; it must be the one `hello` asked for.
  public var `protocol`: Int
  /// The client under test, as "name version".
  public var client: String
  /// Each step name the adapter reports, mapped to a model step id or an Amplify Swift step
  /// name (`AuthSignInStep`'s case name, the models' `swift:` names).
  public var steps: [String: String]
  public var capabilities: Capabilities

  public init(id: Int, protocol: Int, client: String, steps: [String: String], capabilities: Capabilities) {
    self.id = id
    self.type = "hello"
    self.protocol = `protocol`
    self.client = client
    self.steps = steps
    self.capabilities = capabilities
  }
}
