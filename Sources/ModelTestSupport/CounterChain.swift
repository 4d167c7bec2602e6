import SignInModel

/// A model whose one configuration walks a long linear chain of states: each code counts
/// `flow.n` up by one until `length`, where the right code reaches done and a wrong one restarts. The state
/// graph is a path of `length + 2` states, the worst shape for a search that proves one
/// call at a time (Z3 once took 16 s at 20 and minutes at 50).
package enum CounterChain {
  /// The model's YAML; `verifies` is the factor the password marks (`mfa` breaks
  /// `noFactorSkipped`, since done then follows without a first factor).
  package static func yaml(length: Int, verifies: String = "firstFactor") -> String {
    """
    model: chain\(length)
    generation: test
    platforms: [swift]
    configuration:
      pool.mfa: [required]
    flow:
      flow.n: {domain: 0..\(length), initial: 0}
    definitions:
      mfaRequired: "pool.mfa == required"
    responses:
      correctPassword: the right password
      correctCode: the right code
      wrongCode: a wrong code
    signIn:
      responses:
        correctPassword:
          - goto: code
            verifies: \(verifies)
    steps:
      code:
        names: {swift: confirmSignInWithSMSMFACode}
        responses:
          correctCode:
            - when: "flow.n == \(length)"
              goto: done
              verifies: mfa
            - when: "flow.n < \(length)"
              error: CodeMismatchException
              set: {flow.n: "flow.n + 1"}
          wrongCode:
            - when: "flow.n < \(length)"
              error: CodeMismatchException
              set: {flow.n: "flow.n + 1"}
            - when: "flow.n == \(length)"
              restart: lockout
      done:
        ends: signedIn
    """
  }

  package static func model(length: Int, verifies: String = "firstFactor") throws -> SignInModel {
    try ModelLoader.load(yaml: yaml(length: length, verifies: verifies), file: "chain\(length).yaml")
  }
}
