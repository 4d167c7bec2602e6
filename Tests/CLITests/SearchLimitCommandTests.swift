import Foundation
import Testing

/// Exit codes of `verify` when the explicit search stops at a limit.
@Suite("verify at a search limit: 4 when nothing was found, 1 when a violation was")
struct SearchLimitCommandTests {
  /// One configuration class of 4,002 states (a counter up to 4,000); `verifies` on signIn.
  static func chain(verifies: String) -> String {
    """
    model: chain
    generation: test
    platforms: [swift]
    configuration:
      pool.mfa: [required]
    flow:
      flow.n: {domain: 0..4000, initial: 0}
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
            - goto: done
              verifies: mfa
          wrongCode:
            - when: "flow.n < 4000"
              error: CodeMismatchException
              set: {flow.n: "flow.n + 1"}
            - when: "flow.n == 4000"
              restart: lockout
      done:
        ends: signedIn
    """
  }

  /// The invariants this model does not make vacuous (it has no selection step, no define trigger).
  static let invariants = ["terminates", "deterministic", "staysInDomain", "noFactorSkipped", "stepsReachable"]
    .flatMap { ["--invariant", $0] }

  @Test("a search stopped by --max-states inside one class with nothing violated exits 4")
  func inconclusive() throws {
    let path = try CommandLineTests.temporaryModel(Self.chain(verifies: "firstFactor"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let full = try CommandLineTests.run(["verify", "--engines", "explicit"] + Self.invariants + [path])
    #expect(full.status == 0, "\(full.stdout)\(full.stderr)")
    let run = try CommandLineTests.run(
      ["verify", "--engines", "explicit", "--max-states", "100"] + Self.invariants + [path])
    #expect(run.status == 4, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("UNKNOWN: the explicit search stopped: --max-states 100 reached"))
    // What it did not find violated is no verdict: UNKNOWN on each line and in the summary.
    #expect(!run.stdout.contains("  holds "), "\(run.stdout)")
    #expect(run.stdout.contains("  UNKNOWN   terminates"), "\(run.stdout)")
    #expect(run.stdout.contains("5 checks: 0 hold, 5 unknown (the explicit search stopped)"), "\(run.stdout)")
  }

  @Test("a stopped search does not disagree with Z3: Z3's vacuous verdicts stand beside UNKNOWN, no DISAGREE")
  func stoppedBesideZ3() throws {
    let path = try CommandLineTests.temporaryModel(Self.chain(verifies: "firstFactor"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    // The model has no selection step and no define trigger: Z3 says offersAreUsable and
    // failAuthenticationRestarts are vacuous, which the stopped search cannot say.
    let run = try CommandLineTests.run([
      "verify", "--max-states", "100", "--invariant", "offersAreUsable", "--invariant", "failAuthenticationRestarts",
      path,
    ])
    #expect(run.status == 4, "\(run.stdout)\(run.stderr)")
    #expect(!run.stdout.contains("DISAGREE"), "\(run.stdout)")
    #expect(!run.stderr.contains("disagree"), "\(run.stderr)")
    #expect(run.stdout.contains("[Z3: vacuous]"), "\(run.stdout)")
  }

  @Test("a violation found before the limit stopped the search exits 1")
  func findingFirst() throws {
    let path = try CommandLineTests.temporaryModel(Self.chain(verifies: "mfa"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try CommandLineTests.run(["verify", "--engines", "explicit", "--max-states", "100", path])
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("UNKNOWN: the explicit search stopped"))
    #expect(run.stdout.contains("noFactorSkipped"))
  }
}
