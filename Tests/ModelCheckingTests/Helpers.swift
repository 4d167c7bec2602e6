import ModelChecking
import SignInModel

/// Builds a small model from the sections a test cares about.
func smallModel(
  configuration: String = "  pool.mfa: [off, required]\n  user.phone: bool",
  flow: String = "  flow.tries: {domain: 0..2, initial: 0}",
  definitions: String = "  mfaRequired: \"pool.mfa == required\"",
  options: String = "  mfaType:\n    SMS: \"user.phone\"",
  signIn: String,
  steps: String,
  routes: String = ""
) throws -> SignInModel {
  let yaml = """
    model: small
    generation: test
    platforms: [swift]
    configuration:
    \(configuration)
    flow:
    \(flow)
    definitions:
    \(definitions)
    options:
    \(options)
    responses:
      correctPassword: the right password
      correctCode: the right code
      wrongCode: a wrong code
      selectSMS: picks SMS
      failingAnswer: the define trigger fails authentication
      correctAnswer: the right custom answer
    signIn:
      responses:
    \(signIn)
    steps:
    \(steps)
      done:
        ends: signedIn
    \(routes)
    """
  return try ModelLoader.load(yaml: yaml, file: "small.yaml")
}

extension CheckReport {
  func verdict(_ invariant: Invariant) -> Verdict? {
    results.first { $0.invariant == invariant }?.verdict
  }

  func counterexample(_ invariant: Invariant) -> Counterexample? {
    if case .violated(let c)? = verdict(invariant) { return c }
    return nil
  }
}

extension Counterexample {
  /// "signIn(correctPassword) -> code", one entry per call.
  var calls: [String] {
    steps.map { step in
      let outcome: String
      switch step.outcome {
      case .step(let id): outcome = id
      case .error(let name, _): outcome = "error \(name)"
      case .restart(let reason): outcome = "restart \(reason)"
      case .undetermined(let place): outcome = "undetermined \(place)"
      }
      return "\(step.call)(\(step.response)) -> \(outcome)"
    }
  }

  func value(of variable: String) -> String?? {
    configuration.first { $0.variable == variable }.map(\.value)
  }
}
