import SignInClient

/// What a user of the client's public API sees after one call: the step returned with all
/// its associated values and the result's `isSignedIn`, or the error thrown and the step the
/// client is on afterwards (nil when the flow ended and it is signed out), and the client's
/// `isSignedIn` after the call.
package struct Observation: Sendable, Equatable, CustomStringConvertible {
  /// The call's result.
  package enum Outcome: Sendable, Equatable {
    case returned(AuthSignInStep)
    case threw(AuthError, now: AuthSignInStep?)
  }

  package let outcome: Outcome
  /// The client's `isSignedIn` after the call.
  package let isSignedIn: Bool
  /// The `isSignedIn` of the result the call returned (nil: it threw).
  package let resultSignedIn: Bool?

  package init(_ outcome: Outcome, isSignedIn: Bool, resultSignedIn: Bool? = nil) {
    self.outcome = outcome
    self.isSignedIn = isSignedIn
    self.resultSignedIn = resultSignedIn
  }

  /// The error the call threw, by the name the models use (nil: it returned).
  package var errorName: String? {
    if case .threw(let error, _) = outcome { return ErrorType.name(of: error) }
    return nil
  }

  package var description: String {
    var signedIn = isSignedIn ? ", signed in" : ""
    if let resultSignedIn, resultSignedIn != isSignedIn {
      signedIn += resultSignedIn ? ", the result says signed in" : ", the result says not signed in"
    }
    switch outcome {
    case .returned(let step): return step.name + signedIn
    case .threw(let error, let now):
      return "error \(ErrorType.name(of: error)): \(error) -> "
        + (now.map { "stays on \($0.name)" } ?? "signed out") + signedIn
    }
  }
}
