/// What one call of a simulation did, in the shape of `simulate --format json`.
public struct CallRecord: Sendable, Equatable {
  /// How the call ended.
  public enum Kind: String, Sendable {
    /// The flow goes on at a step the platform reports (or a step that ends it, like resetPassword).
    case step
    /// An error: a retryable one (the flow stays on its step) or a step the platform throws.
    case error
    /// The flow is over; a new signIn is needed.
    case restart
    /// The user is signed in.
    case done
    /// The call (`signOut`) signed the user out; `stepID` is the step the flow is still on, if any.
    case signedOut
  }

  /// The call made: `signIn` or `confirmSignIn`.
  public let call: String
  public let response: String
  public let kind: Kind
  /// The model's step id after the call (for an error, the step it stays on or the step thrown).
  public let stepID: String?
  /// The platform's name of that step (nil when the platform throws it or has none).
  public let step: String?
  /// The error's name as the platform reports it (for a restart: the exception it reports).
  public let error: String?
  /// The exception behind the outcome, whatever the platform calls it: Cognito's exception,
  /// or the model's neutral name for a failure that never reached Cognito (`NetworkError`).
  /// A step some platform throws (`resetPassword`) names its exception here on every platform.
  public let exception: String?
  /// Why the flow restarted.
  public let reason: String?

  public init(
    call: String, response: String, kind: Kind, stepID: String?, step: String?, error: String?, reason: String?,
    exception: String? = nil
  ) {
    self.call = call
    self.response = response
    self.kind = kind
    self.stepID = stepID
    self.step = step
    self.error = error
    self.reason = reason
    self.exception = exception
  }

  /// The outcome as one phrase: the step's name, `error NAME`, `restart REASON` or `done`.
  public var outcomeText: String {
    switch kind {
    case .done: return "done"
    case .signedOut:
      return "signedOut" + (stepID.map { " (the flow stays on \(step ?? $0))" } ?? "")
    case .restart:
      var named = ""
      if let error, error != exception {
        named = " (\(error)" + (exception.map { " [\($0)]" } ?? "") + ")"
      } else if let shown = error ?? exception, reason?.hasPrefix(shown) != true {
        named = " [\(shown)]"
      }
      return "restart \(reason ?? "")" + named
    case .error:
      let name = (error ?? "") + (exception.map { $0 == error ? "" : " [\($0)]" } ?? "")
      guard let stepID else { return "error \(name)" }
      return step == nil ? "error \(name) (\(stepID))" : "error \(name) (stays on \(step!))"
    case .step:
      guard let step else { return "\(stepID ?? "?") (no name on this platform)" }
      return stepID == step || stepID == nil ? step : "\(step) [\(stepID!)]"
    }
  }

  /// One line: `signIn(correctPassword) -> CONFIRM_SIGN_IN_WITH_SMS_CODE [confirmSignInWithSMSMFACode]`.
  public var text: String { "\(call)(\(response)) -> \(outcomeText)" }

  /// The call as a JSON object (every key present; null where it does not apply).
  public var jsonObject: [String: String?] {
    [
      "call": call, "response": response.isEmpty ? nil : response, "outcome": kind.rawValue, "stepId": stepID,
      "step": step,
      "exception": exception, "error": error, "reason": reason,
    ]
  }
}
