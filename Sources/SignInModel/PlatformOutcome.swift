/// What one platform's client reports instead of the model's server-neutral outcome
/// (`platforms:` on a rule or a client call): it throws an error, or it signs the user out.
///
/// The flow itself goes where the rule says on every platform; only what the call reports
/// differs (e.g. Android throws `PasswordResetRequiredException` where Swift reports the
/// `resetPassword` step). `simulate --platform` shows it; the engines check the rule's outcome.
public struct PlatformOutcome: Sendable, Equatable {
  public enum Form: Sendable, Equatable {
    /// The call throws this error.
    case error(String)
    /// The call returns normally and the user is signed out (`{result: signedOut}`).
    case signedOut
  }

  public let platform: String
  public let form: Form

  public init(platform: String, form: Form) {
    self.platform = platform
    self.form = form
  }
}

extension Array where Element == PlatformOutcome {
  /// The form stated for `platform`, if any.
  public func form(on platform: String) -> PlatformOutcome.Form? {
    first { $0.platform == platform }?.form
  }
}
