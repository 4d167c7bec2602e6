import Foundation
import Testing

/// `prove --rlimit`: Z3's deterministic resource limit per query, UNKNOWN (exit 4) past it.
@Suite("prove at Z3's resource limit: UNKNOWN with the reason, exit 4")
struct ProveLimitCommandTests {
  @Test("a tiny --rlimit makes every proof that needs Z3 to work UNKNOWN naming the limit, exit 4")
  func tinyResourceLimit() throws {
    let run = try CommandLineTests.run(["prove", "--rlimit", "1", "models/2023-swift.yaml"])
    #expect(run.status == 4, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("UNKNOWN"))
    #expect(run.stdout.contains("the resource limit (--rlimit 1 per query)"), "\(run.stdout)")
    // Properties with no bad case at all (false at every step) are proven without a search.
    for name in ["terminates", "noFactorSkipped", "doneReachable", "stepsReachable"] {
      #expect(run.stdout.contains("UNKNOWN             \(name) "), "\(name): \(run.stdout)")
    }
  }

  @Test("the default --rlimit proves every shipped model (the limit is far above what they need)")
  func defaultProves() throws {
    let run = try CommandLineTests.run(["prove", "models/2024-flutter.yaml"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(!run.stdout.contains("UNKNOWN"))
  }

  @Test(
    "a negative or non-numeric --rlimit is bad usage naming the option", arguments: ["-1", "lots", "9999999999999"])
  func badResourceLimit(value: String) throws {
    let run = try CommandLineTests.run(["prove", "--rlimit", value, "models/2023-swift.yaml"])
    #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("--rlimit"), "\(run.stderr)")
  }

  @Test("--max-iterations 1 ends every fixpoint that needs a second iteration: UNKNOWN naming the option, exit 4")
  func iterationLimit() throws {
    let run = try CommandLineTests.run(["prove", "--max-iterations", "1", "models/2023-swift.yaml"])
    #expect(run.status == 4, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("no fixpoint after 1 iterations, the limit (--max-iterations 1)"), "\(run.stdout)")
  }

  @Test(
    "a --max-iterations or --property-budget out of range is bad usage naming the option",
    arguments: [
      ["--max-iterations", "0"], ["--max-iterations", "-3"], ["--property-budget", "-1"],
      ["--property-budget", "99999999999"], ["--property-budget", "nan"],
    ])
  func badFixpointLimits(option: [String]) throws {
    let run = try CommandLineTests.run(["prove"] + option + ["models/2023-swift.yaml"])
    #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains(option[0]), "\(run.stderr)")
  }

  @Test(
    "--search-rlimit 1 stops the bounded search after its first depth: every shipped model's steps are still reachable, through fixpoints",
    arguments: ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"])
  func tinySearchLimit(model: String) throws {
    let run = try CommandLineTests.run(["prove", "--search-rlimit", "1", "--property", "stepsReachable", model])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    // The search stopped before its second depth: only signIn, zero calls deep.
    #expect(run.stdout.contains("bounded search found paths to 1 of the "), "\(run.stdout)")
    #expect(run.stdout.contains("reachable steps within 0 calls,"), "\(run.stdout)")
    #expect(run.stdout.contains("configurations' simulation the other"), "\(run.stdout)")
  }

  @Test(
    "a negative or non-numeric --search-rlimit is bad usage naming the option, for prove and verify",
    arguments: ["-1", "lots", "99999999999999999999"])
  func badSearchLimit(value: String) throws {
    for command in ["prove", "verify"] {
      let run = try CommandLineTests.run([command, "--search-rlimit", value, "models/2023-swift.yaml"])
      #expect(run.status == 64, "\(command): \(run.stdout)\(run.stderr)")
      #expect(run.stderr.contains("--search-rlimit"), "\(command): \(run.stderr)")
    }
    // Past the parser, the range check names the option and its range.
    let run = try CommandLineTests.run(["prove", "--search-rlimit=-1", "models/2023-swift.yaml"])
    #expect(run.status == 64 && run.stderr.contains("--search-rlimit must be from 0 to"), "\(run.stderr)")
  }

  @Test("--search-rlimit 0 is no limit: the bounded search alone finds a path to each step of the 2023 model")
  func noSearchLimit() throws {
    let run = try CommandLineTests.run(
      ["prove", "--search-rlimit", "0", "--property", "stepsReachable", "models/2023-swift.yaml"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("bounded search found a path to each of the 10 steps (Z3)"), "\(run.stdout)")
  }
}
