import ModelChecking

/// What a user should see after one call: the model's outcome, the exception it names, the
/// options a selection step offers, and the values the server sent that the step carries.
package struct Expectation: Sendable {
  package let outcome: TraceOutcome
  /// The error's type (`error: NAME`, a restart's `exception:`); nil: not compared.
  package let exception: String?
  package let offered: [String]
  /// nil: the step's values and secrets are not compared.
  package let sent: SentValues?
}
