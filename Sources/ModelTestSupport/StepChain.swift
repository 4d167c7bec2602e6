import SignInModel

/// A model whose steps form one long chain: each right code leads to the next code step, the
/// last to done; a wrong code counts `flow.retries` up and the fifth restarts (the shape of
/// `scripts/big-model.py chain`). Step `code<k>` is `k + 1` calls from signIn, the worst shape
/// for a bounded search that unrolls one call at a time (on a 50-step chain it ran past 150 s).
package enum StepChain {
  /// The model's YAML; with `orphan`, one more code step that nothing leads to; with
  /// `deadEnd`, the last right code leads to a step whose one rule never holds (`terminates`
  /// is broken 52 calls deep).
  package static func yaml(length: Int, orphan: Bool = false, deadEnd: Bool = false) -> String {
    var steps = ""
    for i in 0..<length {
      let next = i < length - 1 ? "code\(i + 1)" : deadEnd ? "stuck" : "done"
      steps += codeStep("code\(i)", next: next, last: i == length - 1)
    }
    if orphan { steps += codeStep("orphan", next: "done", last: true) }
    if deadEnd {
      steps +=
        "  stuck:\n    names: {swift: stuck}\n    responses:\n      correctCode:\n"
        + "        - when: \"flow.retries == 5\"\n          goto: done\n"
    }
    return """
      model: steps\(length)
      generation: test
      platforms: [swift]
      configuration:
        pool.mfa: [off, required]
      flow:
        flow.retries: {domain: 0..5, initial: 0}
      definitions:
        mfaRequired: "pool.mfa == required"
      responses:
        correctPassword: the right password
        correctCode: the right code
        wrongCode: a wrong code
      signIn:
        responses:
          correctPassword:
            - goto: code0
              verifies: firstFactor
      steps:
      \(steps)  done:
          ends: signedIn

      """
  }

  private static func codeStep(_ name: String, next: String, last: Bool) -> String {
    "  \(name):\n    names: {swift: \(name)}\n    responses:\n      correctCode:\n        - goto: \(next)\n"
      + (last ? "          verifies: mfa\n" : "")
      + "      wrongCode:\n        - when: \"flow.retries < 4\"\n          error: CodeMismatchException\n"
      + "          set: {flow.retries: \"flow.retries + 1\"}\n        - when: \"flow.retries == 4\"\n"
      + "          restart: \"NotAuthorizedException: lockout\"\n"
  }

  package static func model(length: Int, orphan: Bool = false, deadEnd: Bool = false) throws -> SignInModel {
    try ModelLoader.load(yaml: yaml(length: length, orphan: orphan, deadEnd: deadEnd), file: "steps\(length).yaml")
  }
}
