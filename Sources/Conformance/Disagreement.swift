import ModelChecking
import SignInClient

/// How a client's call differed from what the model expects: the one verdict reason that
/// conformance runs, the fuzzer, counterexample files and replays share. Reporters render
/// it with `description`; nothing matches on the text.
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
    }
  }
}
