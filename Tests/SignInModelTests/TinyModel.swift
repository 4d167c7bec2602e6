import SignInModel

/// A small valid model that tests edit to make one thing wrong at a time.
enum TinyModel {
  static let yaml = """
    model: tiny
    generation: test
    platforms: [swift, android]
    configuration:
      pool.mfa: [off, required]
      user.phone: bool
    flow:
      flow.tries: {domain: 0..2, initial: 0}
    definitions:
      mfaRequired: "pool.mfa == required"
    options:
      mfaType:
        SMS: "user.phone"
    responses:
      correctPassword: the right password
      correctCode: the right code
      wrongCode: a wrong code
      selectSMS: picks SMS
    signIn:
      responses:
        correctPassword:
          - when: "pool.mfa == off"
            goto: done
            verifies: firstFactor
          - when: "pool.mfa == required"
            goto: code
            verifies: firstFactor
    steps:
      code:
        names: {swift: confirmSignInWithSMSMFACode, android: {error: SomeException}}
        responses:
          correctCode:
            - goto: done
              verifies: mfa
          wrongCode:
            - when: "flow.tries < 2"
              error: CodeMismatchException
              set: {flow.tries: "flow.tries + 1"}
            - when: "flow.tries == 2"
              restart: lockout
      done:
        ends: signedIn
    """

  /// `yaml` with the first occurrence of `old` replaced by `new` (which must occur).
  static func replacing(_ old: String, with new: String) -> String {
    precondition(yaml.contains(old), "the tiny model has no '\(old)'")
    guard let range = yaml.range(of: old) else { return yaml }
    return yaml.replacingCharacters(in: range, with: new)
  }

  /// The diagnostics loading `text` produces (empty when it loads).
  static func diagnostics(_ text: String) -> [ModelDiagnostic] {
    do {
      _ = try ModelLoader.load(yaml: text, file: "tiny.yaml")
      return []
    } catch {
      return error.diagnostics
    }
  }
}
