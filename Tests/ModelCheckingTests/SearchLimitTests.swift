import ModelChecking
import SignInModel
import Testing

/// `--max-states` and `--max-depth` stop the search inside one configuration class, not only
/// between classes: a single class with thousands of states stops near the limit.
@Suite("Explicit-search limits inside one configuration class")
struct SearchLimitTests {
  /// One class of 4,002 states: every wrong code counts up to 4,000, then restarts.
  static func longChain(signInVerifies: String = "firstFactor") throws -> SignInModel {
    try smallModel(
      configuration: "  pool.mfa: [required]\n  user.phone: bool",
      flow: "  flow.n: {domain: 0..4000, initial: 0}",
      signIn: """
            correctPassword:
              - goto: code
                verifies: \(signInVerifies)
        """,
      steps: """
          code:
            names: {swift: confirmSignInWithSMSMFACode}
            responses:
              correctCode:
                - goto: done
                  verifies: mfa
              wrongCode:
                - when: "flow.n < 4000"
                  error: CodeMismatchException
                  set: {flow.n: "flow.n + 1"}
                - when: "flow.n == 4000"
                  restart: lockout
        """)
  }

  @Test("without limits the chain is explored to its end")
  func unlimited() throws {
    let report = ExplicitChecker(model: try Self.longChain(), jobs: 1).check()
    #expect(report.incomplete == nil)
    #expect(report.statistics.states > 4000)
  }

  @Test("--max-states stops inside the class, near the limit, with the reason")
  func maxStates() throws {
    var checker = ExplicitChecker(model: try Self.longChain(), jobs: 1)
    checker.limits = ExplicitLimits(maxStates: 100)
    let report = checker.check()
    #expect(report.incomplete?.contains("--max-states 100") == true)
    #expect(report.statistics.states > 100)
    #expect(report.statistics.states < 110)
    // The chain declares no step facts: the properties that read them are NOT CHECKED, the rest hold.
    let findings = report.results.filter {
      switch $0.verdict {
      case .holds, .notChecked: return false
      case .vacuous, .violated: return true
      }
    }
    #expect(findings.isEmpty, "a partial search reports no reachability or vacuity finding")
  }

  @Test("--max-depth stops inside the class at the first state deeper than the limit")
  func maxDepth() throws {
    var checker = ExplicitChecker(model: try Self.longChain(), jobs: 1)
    checker.limits = ExplicitLimits(maxDepth: 20)
    let report = checker.check()
    #expect(report.incomplete?.contains("--max-depth 20") == true)
    #expect(report.statistics.states < 100, "the unlimited search explores over 4,000 states")
  }

  @Test("a violation found before the limit is kept, with its counterexample")
  func violationBeforeLimit() throws {
    var checker = ExplicitChecker(model: try Self.longChain(signInVerifies: "mfa"), jobs: 1)
    checker.limits = ExplicitLimits(maxStates: 100)
    let report = checker.check()
    #expect(report.incomplete != nil)
    #expect(report.counterexample(.noFactorSkipped) != nil)
  }
}
