import ModelChecking
import SignInClient

/// How a client's call differed from what the model expects: the one verdict reason that
/// conformance runs, the fuzzer, counterexample files and replays share. Reporters render
/// it with `description`; nothing matches on the text (`field` names the root cause).
package enum Disagreement: Sendable, Equatable, CustomStringConvertible {
  /// The client returned a step other than the one the model goes to.
  case wrongStep(returned: String, expected: String)
  /// A selection step offers other options than the model's.
  case wrongOffers(offered: [String], expected: [String])
  /// The model expects a retryable error; the client threw one that ends the flow.
  case flowEndedOnRetryableError(AuthError)
  /// The client threw the expected retryable error but is not on the step it should stay on.
  case wrongStepAfterError(AuthError, now: String?, expected: String)
  /// The model ends the flow; the client threw but stays on a step.
  case flowContinued(AuthError, stays: String)
  /// The client returned a step where the model expects an error or a restart.
  case returnedInstead(String, expected: TraceOutcome)
  /// The client threw where the model expects a step.
  case threwInstead(AuthError, expected: TraceOutcome)
  /// The error's type is not the one the model names.
  case wrongErrorType(AuthError, expected: String)
  /// A value the step carries (its `field`) differs from what the server sent.
  case wrongDetail(field: DetailField, shown: String, expected: String)
  /// The client's `isSignedIn` differs from the model's step.
  case wrongSignedIn(shown: Bool, expected: Bool)
  /// The `isSignedIn` of the call's result differs from the model's step.
  case resultSignedIn(shown: Bool, expected: Bool)
  /// A secret the user typed or the server issued appears in what the client shows.
  case secretShown(SecretKind, place: String)

  /// A value a step carries, as a user reads it.
  package enum DetailField: String, Sendable, Equatable {
    case deliveryMedium = "codeDeliveryDetails.medium"
    case deliveryDestination = "codeDeliveryDetails.destination"
    case challengeParameters = "additionalInfo"
    case sharedSecret = "totpSetupDetails.sharedSecret"
    case setupUsername = "totpSetupDetails.username"
  }

  /// What kind of secret was shown.
  package enum SecretKind: String, Sendable, Equatable, CaseIterable {
    case password, code, session, totpSecret, token
  }

  /// The property the call broke and the field it is about: the root cause findings are
  /// deduplicated by (with the step and the response class).
  package var field: String {
    switch self {
    case .wrongStep: return "step"
    case .wrongOffers: return "offers"
    case .flowEndedOnRetryableError, .wrongStepAfterError, .flowContinued: return "flow"
    case .returnedInstead, .threwInstead: return "outcome"
    case .wrongErrorType: return "errorType"
    case .wrongDetail(let field, _, _): return field.rawValue
    case .wrongSignedIn: return "isSignedIn"
    case .resultSignedIn: return "result.isSignedIn"
    case .secretShown(let kind, _): return "secret.\(kind.rawValue)"
    }
  }

  /// The property: conformance to the model, or secret hygiene.
  package var property: String {
    if case .secretShown = self { return "secrets: nothing secret in any error or description" }
    return "conformance: every call does what the model says"
  }

  package var description: String {
    switch self {
    case .wrongStep(let returned, let expected): return "returned \(returned), the model expects \(expected)"
    case .wrongOffers(let offered, let expected):
      return "offers \(offered.joined(separator: ", ")), the model offers \(expected.joined(separator: ", "))"
    case .flowEndedOnRetryableError(let error):
      return "threw \(error), which ends the flow; the model expects a retryable error"
    case .wrongStepAfterError(let error, let now, _): return "threw \(error) but is now on \(now ?? "no step")"
    case .flowContinued(let error, let stays):
      return "threw \(error) but stays on \(stays); the model expects the flow to end"
    case .returnedInstead(let step, let expected): return "returned \(step); the model expects \(expected)"
    case .threwInstead(let error, let expected): return "threw \(error); the model expects \(expected)"
    case .wrongErrorType(let error, let expected):
      return "threw \(ErrorType.name(of: error)) (\(error)); the model names \(expected)"
    case .wrongDetail(let field, let shown, let expected):
      return "shows \(field.rawValue) \(shown); the server sent \(expected)"
    case .wrongSignedIn(let shown, let expected):
      return "isSignedIn is \(shown); the model's step says \(expected)"
    case .resultSignedIn(let shown, let expected):
      return "the result's isSignedIn is \(shown); the model's step says \(expected)"
    case .secretShown(let kind, let place): return "shows a \(kind.rawValue) in \(place)"
    }
  }
}
