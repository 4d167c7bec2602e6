import SignInClient

/// What a user of the client's public API sees after one call: the step returned with all
/// its associated values, or the error thrown and the step the client is on afterwards (nil
/// when the flow ended and it is signed out), and `isSignedIn`.
package struct Observation: Sendable, Equatable, CustomStringConvertible {
  /// The call's result.
  package enum Outcome: Sendable, Equatable {
    case returned(AuthSignInStep)
    case threw(AuthError, now: AuthSignInStep?)
  }

  package let outcome: Outcome
  package let isSignedIn: Bool

  package init(_ outcome: Outcome, isSignedIn: Bool) {
    self.outcome = outcome
    self.isSignedIn = isSignedIn
  }

  package var description: String {
    let signedIn = isSignedIn ? ", signed in" : ""
    switch outcome {
    case .returned(let step): return step.name + signedIn
    case .threw(let error, let now):
      return "error \(ErrorType.name(of: error)): \(error) -> "
        + (now.map { "stays on \($0.name)" } ?? "signed out") + signedIn
    }
  }
}
