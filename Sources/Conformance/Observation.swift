import SignInClient

/// What the client did on one call: the step it returned, or the error it threw and the
/// step it is on afterwards (nil when the flow ended and it is signed out).
package enum Observation: Sendable, Equatable, CustomStringConvertible {
  case returned(AuthSignInStep)
  case threw(AuthError, now: AuthSignInStep?)

  package var description: String {
    switch self {
    case .returned(let step): return step.name
    case .threw(let error, let now): return "error \(error) -> " + (now.map { "stays on \($0.name)" } ?? "signed out")
    }
  }
}
