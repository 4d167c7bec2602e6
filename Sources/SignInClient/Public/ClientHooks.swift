import CognitoWire

/// The decisions of the client that a test double may change, and nothing else: the
/// fuzzer's catalogue of broken clients (module `ClientBugs`) is built from them. The
/// reference client uses `ClientHooks.reference`, which changes nothing.
public struct ClientHooks: Sendable {
  /// Whether the client stays on its step after `error`, given whether it was on a
  /// challenge and what the reference client decided.
  public var staysOnStepAfterError: @Sendable (_ error: AuthError, _ wasOnChallenge: Bool, _ reference: Bool) -> Bool
  /// The step shown for a challenge, given Cognito's challenge name and parameters and the
  /// reference mapping.
  public var presentedStep:
    @Sendable (
      _ challengeName: String, _ parameters: [String: String], _ reference: AuthSignInStep
    ) -> AuthSignInStep
  /// The session kept for a new challenge, given the one Cognito sent, the session of the
  /// challenge the client is on (nil at the first challenge of a flow) and the last session
  /// kept in any earlier exchange (of this flow or an earlier one).
  public var keptSession: @Sendable (_ received: String?, _ current: String?, _ last: String?) -> String?
  /// The error reported for Cognito's failure, given the failure as received (unredacted)
  /// and the reference client's error.
  public var reportedError: @Sendable (_ received: CognitoCallError, _ reference: AuthError) -> AuthError
  /// `isSignedIn`, given the reference answer and the current step.
  public var reportsSignedIn: @Sendable (_ reference: Bool, _ step: AuthSignInStep?) -> Bool
  /// The `isSignedIn` of a call's result, given the reference answer and the step returned.
  public var resultSignedIn: @Sendable (_ reference: Bool, _ step: AuthSignInStep) -> Bool
  /// Whether the flow ends after the `count`-th retryable failure in one flow (the
  /// reference leaves that to Cognito: false).
  public var endsFlowAfterFailures: @Sendable (_ count: Int) -> Bool
  /// Whether a `signIn` that fails puts back the challenge that was in progress before it
  /// (the reference: false, a failed signIn leaves the client signed out).
  public var keepsFlowOnFailedSignIn: @Sendable (_ error: AuthError) -> Bool
  /// Whether `signOut` leaves a signed-in user signed in (the reference: false).
  public var keepsUserOnSignOut: Bool
  /// Whether the client stays on its step after `error` from a request made once Cognito
  /// took the answer (AssociateSoftwareToken before TOTP setup). The reference: false, the
  /// answer's session is used up and the user must sign in again.
  public var staysAfterTakenAnswer: @Sendable (_ error: AuthError) -> Bool

  public init(
    staysOnStepAfterError: @escaping @Sendable (AuthError, Bool, Bool) -> Bool = { _, _, reference in reference },
    presentedStep: @escaping @Sendable (String, [String: String], AuthSignInStep) -> AuthSignInStep = { $2 },
    keptSession: @escaping @Sendable (String?, String?, String?) -> String? = { received, _, _ in received },
    reportedError: @escaping @Sendable (CognitoCallError, AuthError) -> AuthError = { $1 },
    reportsSignedIn: @escaping @Sendable (Bool, AuthSignInStep?) -> Bool = { reference, _ in reference },
    resultSignedIn: @escaping @Sendable (Bool, AuthSignInStep) -> Bool = { reference, _ in reference },
    endsFlowAfterFailures: @escaping @Sendable (Int) -> Bool = { _ in false },
    keepsFlowOnFailedSignIn: @escaping @Sendable (AuthError) -> Bool = { _ in false },
    keepsUserOnSignOut: Bool = false,
    staysAfterTakenAnswer: @escaping @Sendable (AuthError) -> Bool = { _ in false }
  ) {
    self.staysOnStepAfterError = staysOnStepAfterError
    self.presentedStep = presentedStep
    self.keptSession = keptSession
    self.reportedError = reportedError
    self.reportsSignedIn = reportsSignedIn
    self.resultSignedIn = resultSignedIn
    self.endsFlowAfterFailures = endsFlowAfterFailures
    self.keepsFlowOnFailedSignIn = keepsFlowOnFailedSignIn
    self.keepsUserOnSignOut = keepsUserOnSignOut
    self.staysAfterTakenAnswer = staysAfterTakenAnswer
  }

  /// The reference client's own decisions.
  public static let reference = ClientHooks()
}
