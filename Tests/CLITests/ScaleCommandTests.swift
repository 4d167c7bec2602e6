import Foundation
import Testing

/// Z3's limits on big models: a model with more transition branches than `--z3-max-branches`
/// is UNKNOWN before Z3 is called, and `--z3-budget` bounds the whole Z3 run; both name
/// their option. (The generated 1,000- and 10,000-element models: `ScaleLongTests`.)
@Suite("Z3's limits for big models: --z3-max-branches and --z3-budget")
struct ScaleCommandTests {
  @Test(
    "a model over --z3-max-branches is UNKNOWN naming the count and the option, exit 4; verify keeps the explicit verdicts"
  )
  func branchLimit() throws {
    let prove = try CommandLineTests.run(["prove", "--z3-max-branches", "10", "models/2023-swift.yaml"])
    #expect(prove.status == 4, "\(prove.stdout)\(prove.stderr)")
    #expect(prove.stdout.contains("transition branches, more than the 10 Z3 is given (--z3-max-branches 10"))
    let verify = try CommandLineTests.run(["verify", "--z3-max-branches", "10", "models/2023-swift.yaml"])
    #expect(verify.status == 4, "\(verify.stdout)\(verify.stderr)")
    #expect(verify.stdout.contains("  holds     terminates "), "the explicit engine's verdicts stand")
    #expect(verify.stdout.contains("[Z3: unknown (the model has"), "\(verify.stdout)")
  }

  @Test("the default limits prove every shipped model")
  func defaultsProve() throws {
    let run = try CommandLineTests.run(["prove", "models/2026-all-platforms.yaml"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(!run.stdout.contains("UNKNOWN"))
  }

  @Test(
    "a negative or non-numeric --z3-budget or --z3-max-branches is bad usage naming the option",
    arguments: [["--z3-budget", "-1"], ["--z3-budget", "soon"], ["--z3-max-branches", "-5"]])
  func badValues(option: [String]) throws {
    for command in ["prove", "verify"] {
      let run = try CommandLineTests.run([command] + option + ["models/2023-swift.yaml"])
      #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
      #expect(run.stderr.contains(option[0]), "\(run.stderr)")
    }
  }
}

/// Generated models of 1,000 and 10,000 configuration variables, unreachable steps, chained
/// steps and chained routes (`scripts/big-model.py`): `verify` with both engines answers, or
/// names the limit it stopped at, and is never killed by a signal.
@Suite("verify on generated big models")
struct ScaleLongTests {
  static func model(_ kind: String, _ size: Int) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(kind)-\(size).yaml").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "scripts/big-model.py", kind, String(size)]
    FileManager.default.createFile(atPath: path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return path
  }

  @Test(
    "verify answers or names its limit, with no signal",
    arguments: ["variables", "unreachable", "chain", "routes"], [1_000, 10_000])
  func verifies(kind: String, size: Int) throws {
    let run = try CommandLineTests.run(["verify", try Self.model(kind, size)])
    // 1: the generated models leave three properties NOT CHECKED (no facts); 4: UNKNOWN.
    #expect([1, 4].contains(run.status), "\(kind) \(size): exit \(run.status)\n\(run.stderr.suffix(2_000))")
    #expect(run.stdout.contains("1 model, 13 checks:"), "\(kind) \(size): \(run.stdout.suffix(1_000))")
    let unknownZ3 = run.stdout.contains("[Z3: unknown (")
    #expect(
      !unknownZ3 || run.stdout.contains("(--z3-budget ") || run.stdout.contains("(--z3-max-branches "),
      "an UNKNOWN names the limit it reached")
  }

  @Test(
    "a chain of 50 or 200 code steps: verify decides every property with Z3 too, no UNKNOWN",
    arguments: [50, 200])
  func chains(size: Int) throws {
    // Without the run's wall-clock budget, which a loaded machine could reach (the other
    // wall-clock limits, --property-budget and --timeout, are far above what these need).
    let run = try CommandLineTests.run(["verify", "--z3-budget", "0", try Self.model("chain", size)])
    // 1: the three properties the generated models leave NOT CHECKED.
    #expect(run.status == 1, "chain \(size): exit \(run.status)\n\(run.stderr.suffix(2_000))")
    #expect(run.stdout.contains("1 model, 13 checks: 8 hold, 2 vacuous, 3 not checked"), "\(run.stdout.suffix(1_000))")
    #expect(!run.stdout.contains("[Z3: unknown"), "\(run.stdout)")
  }
}
