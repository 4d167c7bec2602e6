/// A call a client makes besides answering the current step (`clientCalls:`): a new `signIn`
/// or a `signOut`, while a flow is in progress (`inFlow`) or once the user is signed in
/// (`signedIn`). What the clients do here is client behaviour, not the server's: `simulate`
/// and the scenarios read it; the engines check each flow from `signIn`, which a cancelled flow
/// followed by a new one already is.
public struct ClientCall: Sendable {
  /// What the call does to the flow.
  public enum Effect: String, Sendable, CaseIterable {
    /// The flow is dropped; a `signIn` then runs as a first one.
    case cancel
    /// The flow goes on where it was.
    case keep
    /// The flow (or the signed-in session) ends: the user is signed out.
    case end
  }

  /// What the call does in one situation, and what it reports.
  public struct Situation: Sendable {
    public let effect: Effect
    /// The model's neutral report: an error or a result (neither for a `cancel` that runs on).
    public let report: PlatformOutcome.Form?
    /// Per-platform reports that differ from `report`.
    public let platforms: [PlatformOutcome]
    public let source: String?
    public let line: Int

    public init(
      effect: Effect, report: PlatformOutcome.Form?, platforms: [PlatformOutcome], source: String?, line: Int
    ) {
      self.effect = effect
      self.report = report
      self.platforms = platforms
      self.source = source
      self.line = line
    }

    /// The model's neutral error name, if the call reports one (`InvalidStateException`).
    public var neutralError: String? {
      if case .error(let name)? = report { return name }
      return nil
    }

    /// What the call reports on `platform`.
    public func report(on platform: String) -> PlatformOutcome.Form? { platforms.form(on: platform) ?? report }
  }

  /// `signIn` or `signOut`.
  public let name: String
  public let inFlow: Situation?
  public let signedIn: Situation?
  public let line: Int

  /// The calls `clientCalls:` may describe.
  public static let names = ["signIn", "signOut"]

  public init(name: String, inFlow: Situation?, signedIn: Situation?, line: Int) {
    self.name = name
    self.inFlow = inFlow
    self.signedIn = signedIn
    self.line = line
  }
}
