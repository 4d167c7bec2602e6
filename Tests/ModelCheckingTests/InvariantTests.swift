import ModelChecking
import SignInModel
import Testing

/// Each invariant on a small model where it holds and on one where it fails; the checker
/// must find the failure, and the counterexample must be the shortest one.
@Suite("Invariants on small models")
struct InvariantTests {
  static let mfaSignIn = """
        correctPassword:
          - when: "pool.mfa == off"
            goto: done
            verifies: firstFactor
          - when: "pool.mfa == required"
            goto: code
            verifies: firstFactor
    """
  static let boundedCodeStep = """
      code:
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
    """

  @Test("a correct small model satisfies every invariant it can witness")
  func correctModelHolds() throws {
    let model = try smallModel(signIn: Self.mfaSignIn, steps: Self.boundedCodeStep)
    let report = ExplicitChecker(model: model, jobs: 1).check()
    for invariant in [
      Invariant.terminates, .noFactorSkipped, .deterministic, .isSignedInIffDone, .staysInDomain,
      .stepsReachable, .doneReachable,
    ] {
      #expect(report.verdict(invariant) == .holds, "\(invariant)")
    }
    #expect(
      report.verdict(.failAuthenticationRestarts) == .vacuous(reason: "no reachable transition fails authentication"))
    #expect(report.verdict(.offersAreUsable) == .vacuous(reason: "no selection step is reachable"))
    #expect(report.statistics.configurations == 4)
  }

  @Test("terminates: an unbounded retry is a cycle, reported as the shortest lasso")
  func unboundedRetry() throws {
    let steps = """
        code:
          responses:
            correctCode:
              - goto: done
                verifies: mfa
            wrongCode:
              - error: CodeMismatchException
      """
    let report = ExplicitChecker(model: try smallModel(signIn: Self.mfaSignIn, steps: steps), jobs: 1).check()
    let c = try #require(report.counterexample(.terminates))
    #expect(c.calls == ["signIn(correctPassword) -> code", "confirmSignIn(wrongCode) -> error CodeMismatchException"])
    #expect(c.loopStartsAt == 1)
    #expect(c.value(of: "pool.mfa") == .some("required"))
    #expect(c.value(of: "user.phone") == .some(nil), "the flow never reads user.phone")
  }

  @Test("terminates: a step whose responses all lead nowhere is a dead end")
  func deadEnd() throws {
    let steps = """
        code:
          responses:
            correctCode:
              - when: "user.phone"
                goto: done
                verifies: mfa
      """
    let report = ExplicitChecker(model: try smallModel(signIn: Self.mfaSignIn, steps: steps), jobs: 1).check()
    let c = try #require(report.counterexample(.terminates))
    #expect(c.message == "dead end: no response leads anywhere from step 'code'")
    #expect(
      c.calls == [
        "signIn(correctPassword) -> code",
        "confirmSignIn(correctCode) -> undetermined response 'correctCode' at step 'code': no rule matches",
      ])
    #expect(report.counterexample(.deterministic)?.message == "response 'correctCode' at step 'code': no rule matches")
  }

  @Test("deterministic: two rules that both match are reported with their lines")
  func ambiguousRules() throws {
    let signIn = """
          correctPassword:
            - goto: done
              verifies: firstFactor
            - when: "pool.mfa == required"
              goto: code
              verifies: firstFactor
      """
    let report = ExplicitChecker(model: try smallModel(signIn: signIn, steps: Self.boundedCodeStep), jobs: 1).check()
    let c = try #require(report.counterexample(.deterministic))
    #expect(c.message == "response 'correctPassword' at step 'signIn': rules at lines 24, 26 all match")
    #expect(c.calls == ["signIn(correctPassword) -> undetermined " + c.message], "the ambiguous call itself")
  }

  @Test("noFactorSkipped: done without MFA where it is required")
  func mfaSkipped() throws {
    let signIn = """
          correctPassword:
            - goto: done
              verifies: firstFactor
      """
    let steps = "  code:\n    responses:\n      correctCode:\n        - goto: done\n          verifies: mfa"
    let report = ExplicitChecker(model: try smallModel(signIn: signIn, steps: steps), jobs: 1).check()
    let c = try #require(report.counterexample(.noFactorSkipped))
    #expect(c.message == "reached 'done' without an MFA factor although mfaRequired holds")
    #expect(c.calls == ["signIn(correctPassword) -> done"])
    #expect(c.value(of: "pool.mfa") == .some("required"))
    #expect(
      report.counterexample(.stepsReachable)?.message
        == "unreachable under every configuration: 'code' (small.yaml:27): no rule leads to it")
  }

  @Test("noFactorSkipped: done without any first factor")
  func firstFactorSkipped() throws {
    let signIn = "    correctPassword:\n      - goto: done"
    let report = ExplicitChecker(
      model: try smallModel(definitions: "  canSignIn: \"true\"", signIn: signIn, steps: ""), jobs: 1
    ).check()
    #expect(report.counterexample(.noFactorSkipped)?.message == "reached 'done' without verifying a first factor")
  }

  @Test("failAuthenticationRestarts: a failed define trigger that lets the flow go on")
  func failAuthenticationWithoutRestart() throws {
    let signIn = "    correctPassword:\n      - goto: custom\n        verifies: firstFactor"
    let steps = """
        custom:
          responses:
            correctAnswer:
              - goto: done
            failingAnswer:
              - when: "flow.tries < 2"
                error: NotAuthorizedException
                failAuthentication: true
                set: {flow.tries: "flow.tries + 1"}
              - when: "flow.tries == 2"
                restart: gave up
                failAuthentication: true
      """
    let report = ExplicitChecker(
      model: try smallModel(definitions: "  canSignIn: \"true\"", signIn: signIn, steps: steps), jobs: 1
    ).check()
    let c = try #require(report.counterexample(.failAuthenticationRestarts))
    #expect(
      c.calls == [
        "signIn(correctPassword) -> custom", "confirmSignIn(failingAnswer) -> error NotAuthorizedException",
        "confirmSignIn(correctAnswer) -> done",
      ])
    #expect(report.verdict(.terminates) == .holds)
  }

  @Test("failAuthenticationRestarts holds when the failure restarts the flow")
  func failAuthenticationRestarts() throws {
    let signIn = "    correctPassword:\n      - goto: custom\n        verifies: firstFactor"
    let steps = """
        custom:
          responses:
            correctAnswer:
              - goto: done
            failingAnswer:
              - restart: "NotAuthorizedException"
                failAuthentication: true
      """
    let report = ExplicitChecker(
      model: try smallModel(definitions: "  canSignIn: \"true\"", signIn: signIn, steps: steps), jobs: 1
    ).check()
    #expect(report.verdict(.failAuthenticationRestarts) == .holds)
  }

  @Test("offersAreUsable: offering SMS to a user without a phone, and offering nothing")
  func unusableOffer() throws {
    let signIn = "    correctPassword:\n      - goto: select\n        verifies: firstFactor"
    func steps(_ when: String) -> String {
      """
        select:
          offers:
            from: mfaType
            when:
              SMS: "\(when)"
          responses:
            selectSMS:
              - when: "offered(SMS)"
                goto: done
                verifies: mfa
              - when: "!offered(SMS)"
                restart: not offered
      """
    }
    let unusable = ExplicitChecker(model: try smallModel(signIn: signIn, steps: steps("true")), jobs: 1).check()
    let c = try #require(unusable.counterexample(.offersAreUsable))
    #expect(c.message == "step 'select' offers SMS, which this user cannot use (user.phone is false)")
    #expect(c.value(of: "user.phone") == .some("false"))
    #expect(c.calls == ["signIn(correctPassword) -> select"])

    let usable = ExplicitChecker(model: try smallModel(signIn: signIn, steps: steps("user.phone")), jobs: 1).check()
    #expect(usable.counterexample(.offersAreUsable)?.message == "step 'select' offers an empty list of mfaType options")
  }

  @Test("staysInDomain: an update past the end of a range")
  func outOfDomain() throws {
    let steps = """
        code:
          responses:
            correctCode:
              - goto: done
                verifies: mfa
            wrongCode:
              - when: "flow.tries < 3"
                error: CodeMismatchException
                set: {flow.tries: "flow.tries + 1"}
              - when: "flow.tries == 3"
                restart: lockout
      """
    let report = ExplicitChecker(model: try smallModel(signIn: Self.mfaSignIn, steps: steps), jobs: 1).check()
    let c = try #require(report.counterexample(.staysInDomain))
    #expect(c.message == "'flow.tries' is set to 3, outside its domain 0..2")
    #expect(c.length == 4, "signIn, then three wrong codes")
  }

  @Test("isSignedInIffDone: a step that claims to be signed in")
  func falseSignedIn() throws {
    let steps = Self.boundedCodeStep.replacingOccurrences(of: "  code:\n", with: "  code:\n    isSignedIn: true\n")
    let report = ExplicitChecker(model: try smallModel(signIn: Self.mfaSignIn, steps: steps), jobs: 1).check()
    #expect(
      report.counterexample(.isSignedInIffDone)?.message
        == "step 'code' reports isSignedIn = true but is not the done step")
  }

  @Test("doneReachable: a user who can sign in but every path restarts")
  func doneUnreachable() throws {
    let signIn = """
          correctPassword:
            - when: "user.phone"
              goto: done
              verifies: firstFactor
            - when: "!user.phone"
              restart: no phone
      """
    let report = ExplicitChecker(
      model: try smallModel(
        configuration: "  user.phone: bool", definitions: "  canSignIn: \"true\"", signIn: signIn, steps: ""), jobs: 1
    ).check()
    let c = try #require(report.counterexample(.doneReachable))
    #expect(c.value(of: "user.phone") == .some("false"))
    #expect(c.message.hasSuffix("every path ends in restart: no phone"))
  }

  @Test("the counterexample is the shortest over all configurations and the same with one or two workers")
  func shortestAndStable() throws {
    let steps = """
        code:
          responses:
            correctCode:
              - when: "user.phone"
                goto: done
                verifies: mfa
              - when: "!user.phone"
                goto: code2
        code2:
          responses:
            correctCode:
              - error: Broken
      """
    let model = try smallModel(signIn: Self.mfaSignIn, steps: steps)
    let one = ExplicitChecker(model: model, jobs: 1).check()
    let two = ExplicitChecker(model: model, jobs: 2).check()
    let c = try #require(one.counterexample(.terminates))
    #expect(c.length == 3)
    #expect(c == two.counterexample(.terminates))
    #expect(one.statistics.configurations == two.statistics.configurations)
  }
}
