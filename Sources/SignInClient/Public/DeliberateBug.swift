/// Bugs the client can be told to have, so the fuzzer's catalogue of broken clients can show
/// that `signin-spec fuzz` finds each kind. Never set outside tests and benchmarks.
public enum DeliberateBug: String, Sendable, CaseIterable {
  /// SOFTWARE_TOKEN_MFA is reported as the SMS code step.
  case wrongStepMapping
  /// A new session from Cognito is ignored; the first one is re-sent.
  case sessionNotRefreshed
  /// A wrong code ends the flow instead of allowing a retry.
  case retryRefusedAfterWrongCode
  /// After NotAuthorized the client stays on the step (the sticky error state of C.6).
  case noRestartAfterFailAuthentication
  /// The MFA selection step offers every MFA type, usable or not.
  case offersUnusableType
  /// An unknown challenge leaves the client on its previous step instead of ending the flow.
  case stuckOnUnknownChallenge
}
