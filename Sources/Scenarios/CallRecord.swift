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
  /// The error's name (for a restart: the exception named in its reason, if any).
  public let error: String?
  /// Why the flow restarted.
  public let reason: String?

  public init(
    call: String, response: String, kind: Kind, stepID: String?, step: String?, error: String?, reason: String?
  ) {
    self.call = call
    self.response = response
    self.kind = kind
    self.stepID = stepID
    self.step = step
    self.error = error
    self.reason = reason
  }

  /// The outcome as one phrase: the step's name, `error NAME`, `restart REASON` or `done`.
  public var outcomeText: String {
    switch kind {
    case .done: return "done"
    case .signedOut:
      return "signedOut" + (stepID.map { " (the flow stays on \(step ?? $0))" } ?? "")
    case .restart: return "restart \(reason ?? "")"
    case .error:
      guard let stepID else { return "error \(error ?? "")" }
      return step == nil ? "error \(error ?? "") (\(stepID))" : "error \(error ?? "") (stays on \(step!))"
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
      "error": error, "reason": reason,
    ]
  }
}
