import Evolution
import SignInModel
import Testing

/// An update that sets a flow variable outside its domain (the explicit search reports it under
/// `staysInDomain` and explores no state past it) ends the class's search there in `lint` and
/// `diff` too: a counter incremented by a rule whose guard does not bound it once gave their
/// explorer new states without end (one edited guard of the 2026 model kept `lint` running
/// for over 5 minutes).
@Suite("Class exploration past a domain")
struct OutOfDomainUpdateTests {
  /// `code`'s wrong answer counts `flow.tries` (domain 0..2) with no bound in its guard.
  static let model = """
    format: 3
    model: unbounded-counter
    generation: test
    platforms: [swift]
    configuration:
      pool.mfa: {domain: [off, required], default: required}
    flow:
      flow.tries: {domain: 0..2, initial: 0}
    definitions:
      mfaRequired: "pool.mfa == required"
    responses:
      correctPassword: the right password
      correctCode: the right code
      wrongCode: a wrong code
    signIn:
      responses:
        correctPassword:
          - when: "pool.mfa == required"
            goto: code
            verifies: firstFactor
          - when: "pool.mfa == off"
            goto: done
            verifies: firstFactor
    steps:
      code:
        names: {swift: code}
        responses:
          correctCode:
            - goto: done
              verifies: mfa
          wrongCode:
            - when: "flow.tries >= 0"
              error: CodeMismatchException
              set: {flow.tries: "flow.tries + 1"}
      done:
        names: {swift: done}
        ends: signedIn
    """

  @Test(
    "the explorer stops at the update, recording it, whether it keeps transitions or not", arguments: [true, false])
  func stopsAtTheDomain(recordsTransitions: Bool) throws {
    let model = try ModelLoader.load(yaml: Self.model, file: "unbounded-counter.yaml")
    let explorer = ClassExplorer(space: JointSpace([model]), recordsTransitions: recordsTransitions)
    var classes = 0
    var states: Set<String> = []
    var wrongCodeGiven = false
    explorer.explore { c in
      guard let b = c.behaviours[0] else { return }
      classes += 1
      for code in b.transitions { states.insert(explorer.vocabulary.decode(code).state) }
      if let wrong = model.responses.firstIndex(where: { $0.name == "wrongCode" }), !recordsTransitions {
        wrongCodeGiven = wrongCodeGiven || b.responsesGiven[wrong]
      }
    }
    #expect(classes == 2)
    if recordsTransitions {
      // Transitions start from signIn's state and from `code` at 0, 1 and 2 tries; the update to 3
      // is a transition to no state (once it was packed into another state's number).
      let rest = "flow.mfaVerified=false, flow.authFailed=false"
      #expect(
        states == [
          "flow.tries=0, flow.firstFactorVerified=false, \(rest)",
          "flow.tries=0, flow.firstFactorVerified=true, \(rest)",
          "flow.tries=1, flow.firstFactorVerified=true, \(rest)",
          "flow.tries=2, flow.firstFactorVerified=true, \(rest)",
        ])
    } else {
      #expect(wrongCodeGiven)
    }
  }

  @Test("lint and diff answer on it")
  func lintAndDiffAnswer() throws {
    let model = try ModelLoader.load(yaml: Self.model, file: "unbounded-counter.yaml")
    let warnings = Linter(model: model).warnings()
    #expect(!warnings.contains { $0.rule == "excludedConfigurations" })
    let diff = ModelDiff(old: model, new: model)
    #expect(diff.compared == 2)
    #expect(diff.unchanged == 2 && diff.changed.isEmpty && !diff.isBreaking)
  }
}
