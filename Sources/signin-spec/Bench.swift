import ArgumentParser
import ClientAdapters
import Dispatch
import Foundation
import Fuzzing
import ModelChecking
import ModelTestSupport
import SignInClient
import SignInModel
import SymbolicChecking

/// Measures both engines on the shipped models and on scaled synthetic models.
struct Bench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure the explicit search and the Z3 proofs: time per model, states per second, scaling.",
    discussion: """
      Examples:
        signin-spec bench
        signin-spec bench models/2023-swift.yaml
        signin-spec bench --bugs
        signin-spec bench --adapters --adapter "python3 adapters/boto3/adapter.py"
        signin-spec bench --adapter-bugs
      """)

  @OptionGroup var modelOptions: ModelOptions

  @Option(help: "Model to scale for the scaling table (default: the first model).")
  var scale: String?

  @Option(help: "Scaling factors (repeatable; default 1, 2, 4, 8).")
  var factor: [Int] = [1, 2, 4, 8]

  @Flag(help: "Also time the Spacer engine on each model (slow on the 2026 model).")
  var spacer = false

  @Flag(
    help: "Only the deliberate-bug table: cases and seconds to find each bug, shrunk length (2026 model by default).")
  var bugs = false

  @Option(help: "Seed of the deliberate-bug table.")
  var seed: UInt64 = 3

  @Flag(help: "Only the fuzzer table: oracle transitions/s and client sessions/s per core.")
  var fuzzer = false

  @Flag(
    help:
      "Only the adapter table: calls/s on USER_PASSWORD_AUTH through the table adapter (the protocol alone), the reference adapter and each --adapter, beside a call through serve."
  )
  var adapters = false

  @Option(help: "With --adapters: another adapter command to time (repeatable).")
  var adapter: [String] = []

  @Option(help: "With --adapters: sign-ins per adapter.")
  var signIns = 2_000

  @Flag(help: "Only the deliberate-bug table through the reference adapter beside in process (2026 model by default).")
  var adapterBugs = false

  func validate() throws {
    for k in factor { try OptionChecks.range(k, 1...64, "--factor") }
    try OptionChecks.range(signIns, 1...1_000_000, "--sign-ins")
    for command in adapter {
      do { _ = try AdapterCommand(parsing: command) } catch { throw ValidationError("--adapter: \(error)") }
    }
  }

  static func time<T>(_ work: () -> T) -> (T, Double) {
    let start = DispatchTime.now()
    let result = work()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
  }

  func run() async throws {
    if adapters {
      let commands = [Self.tableAdapter, AdapterCommand(program: Self.referenceAdapter).text] + adapter
      if try await !Self.adapterTable(adapters: commands, signIns: signIns) { throw ExitStatus.clientMisbehaved }
      return
    }
    if adapterBugs {
      var options = ModelOptions()
      options.models = [modelOptions.models.first ?? "models/2026-all-platforms.yaml"]
      let model = try options.loadModels()[0]
      if try await !Self.adapterBugTable(model: model, seed: seed, runs: 20_000) { throw ExitStatus.violation }
      return
    }
    if bugs {
      var options = ModelOptions()
      options.models = [modelOptions.models.first ?? "models/2026-all-platforms.yaml"]
      let model = try options.loadModels()[0]
      if await !Self.bugTable(model: model, seed: seed, runs: 20_000) { throw ExitStatus.violation }
      return
    }
    let models = try modelOptions.loadModels()
    if fuzzer {
      await Self.fuzzerTable(models)
      return
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    print("machine: \(cores) cores; times are wall-clock seconds after the build")
    print()
    print(
      "explicit engine".padding(toLength: 30, withPad: " ", startingAt: 0)
        + "classes   states      transitions  1 worker  \(cores) workers  states/s (1 worker)")
    for model in models {
      let (one, t1) = Self.time { ExplicitChecker(model: model, jobs: 1).check() }
      let (_, tn) = Self.time { ExplicitChecker(model: model, jobs: cores).check() }
      let s = one.statistics
      print(
        model.name.padding(toLength: 30, withPad: " ", startingAt: 0)
          + String(
            format: "%-9d %-11d %-12d %-9.3f %-10.3f %.0f", s.configurationClasses, s.states, s.transitions, t1, tn,
            Double(s.states) / max(t1, 1e-9)))
    }
    print()
    var total = 0.0
    print("Z3 proofs (backward fixpoint), seconds per invariant")
    for model in models {
      let (report, t) = Self.time { SymbolicChecker(model: model).prove() }
      total += t
      let parts = report.results.map { "\($0.invariant.rawValue) \(String(format: "%.2f", $0.seconds))" }
      let allProven = report.results.allSatisfy { $0.verdict == .proven }
      print("  \(model.name): \(String(format: "%.2f", t)) s total, \(allProven ? "all proven" : "NOT all proven")")
      print("    " + parts.joined(separator: ", "))
    }
    print(String(format: "  all shipped models: %.2f s (goal: under 1 s)", total))
    if spacer {
      print()
      print("Z3 proofs (Spacer)")
      for model in models {
        let (report, t) = Self.time {
          SymbolicChecker(model: model, engine: .spacer, timeoutMilliseconds: 120_000).prove()
        }
        print(
          "  \(model.name): \(String(format: "%.2f", t)) s, "
            + report.results.map { "\($0.invariant.rawValue) \(String(format: "%.2f", $0.seconds))" }.joined(
              separator: ", "))
      }
    }
    print()
    await Self.fuzzerTable(models)
    let base = try scale.map { try ModelLoader.load(file: $0) } ?? models[0]
    print()
    print("scaling \(base.name): factor × (steps, configuration variables)")
    print("factor  steps  config vars  explicit s  Z3 s    explicit/base  Z3/base")
    var baseTimes: (Double, Double)? = nil
    for k in factor {
      let model = SyntheticModels.scaled(base, factor: k)
      let (_, te) = Self.time { ExplicitChecker(model: model, jobs: cores).check() }
      let (proof, tz) = Self.time { SymbolicChecker(model: model).prove() }
      if baseTimes == nil { baseTimes = (te, tz) }
      let proven = proof.results.allSatisfy { $0.verdict == .proven }
      print(
        String(
          format: "%-7d %-6d %-12d %-11.3f %-7.2f %-14.1f %.1f%@", k, model.steps.count - 1, model.configurationCount,
          te, tz,
          te / baseTimes!.0, tz / baseTimes!.1, proven ? "" : "  (not all proven)"))
    }
    // A long linear chain of states, one call each (`CounterChain`).
    print()
    print("Z3 on a linear chain of N states (CounterChain), every property")
    for length in [20, 50, 200] {
      let chain = try CounterChain.model(length: length)
      let (proof, t) = Self.time { SymbolicChecker(model: chain).prove() }
      let verdicts = Set(proof.results.map { "\($0.verdict)".prefix(while: { $0 != "(" }) }).sorted()
      print(String(format: "  N = %d: %.2f s; ", length, t) + verdicts.joined(separator: ", "))
    }
  }
}
