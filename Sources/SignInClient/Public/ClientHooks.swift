/// The three decisions of the client that a test double may change, and nothing else: the
/// fuzzer's catalogue of broken clients (module `ClientBugs`) is built from them. The
/// reference client uses `ClientHooks.reference`, which changes nothing.
public struct ClientHooks: Sendable {
  /// Whether the client stays on its step after `error`, given whether it was on a
  /// challenge and what the reference client decided.
  public var staysOnStepAfterError: @Sendable (_ error: AuthError, _ wasOnChallenge: Bool, _ reference: Bool) -> Bool
  /// The step shown for a challenge, given Cognito's challenge name and parameters and the
  /// reference mapping.
  public var presentedStep: @Sendable (
    _ challengeName: String, _ parameters: [String: String], _ reference: AuthSignInStep
  ) -> AuthSignInStep
  /// The session kept for a new challenge, given the one Cognito sent and the session of
  /// the challenge the client is on (nil at the first challenge of a flow).
  public var keptSession: @Sendable (_ received: String?, _ current: String?) -> String?

  public init(
    staysOnStepAfterError: @escaping @Sendable (AuthError, Bool, Bool) -> Bool = { _, _, reference in reference },
    presentedStep: @escaping @Sendable (String, [String: String], AuthSignInStep) -> AuthSignInStep = { $2 },
    keptSession: @escaping @Sendable (String?, String?) -> String? = { received, _ in received }
  ) {
    self.staysOnStepAfterError = staysOnStepAfterError
    self.presentedStep = presentedStep
    self.keptSession = keptSession
  }

  /// The reference client's own decisions.
  public static let reference = ClientHooks()
}
