import AdapterFuzzing
import ArgumentParser
import ClientAdapters
import ClientBugs
import Conformance
import Dispatch
import Foundation
import Fuzzing
import ModelChecking
import Reporting
import SignInClient
import SignInModel

/// Fuzzes the reference client (or a deliberately broken one) against the model.
struct Fuzz: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Drive the reference client with random configurations, responses and faults; check every step against the model.",
    discussion: """
      Examples:
        signin-spec fuzz --time 30s --seed 42
        signin-spec fuzz --runs 20000 --shard 2/4 --corpus corpus-2
        signin-spec fuzz --runs 2000 --client stuckOnUnknownChallenge --no-save --format markdown
        signin-spec fuzz --runs 2000 --adapter "python3 adapters/boto3/adapter.py" --corpus counterexamples/adapters/boto3

      With --adapter the client under test is any client behind an adapter process (JSON lines on its
      stdin/stdout, docs/guide/adapters.md), one per job, against pools served over HTTP in this process.
      Cases the client cannot run (a flow or challenge its hello does not list) are counted, not failed.
      Exit 5 when the adapter misbehaves (crashes, hangs, answers garbage).
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, markdown }

  @Option(help: "The model (default: models/2026-all-platforms.yaml).")
  var model = "models/2026-all-platforms.yaml"

  @Option(help: "Number of cases to run.")
  var runs: Int?

  @Option(help: "Run for this long: 30s, 2m, or seconds.")
  var time: String?

  @Option(help: "Seed; the same seed and model give the same run on any machine (default: random, printed).")
  var seed: UInt64?

  @Option(help: "Parallel workers (default: the number of cores).")
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @Option(help: "K/N: run only the cases whose index is K-1 modulo N, so N machines split one seed space.")
  var shard: String = "1/1"

  @Option(help: "reference, or a deliberate bug: \(DeliberateBug.allCases.map(\.rawValue).joined(separator: ", ")).")
  var client = "reference"

  @Option(
    help: ArgumentHelp(
      "Fuzz the client behind this adapter command (split as a shell splits a simple command, no expansion).",
      valueName: "command"))
  var adapter: String?

  @Option(help: "With --adapter: seconds each adapter call may take before the adapter counts as hung.")
  var adapterTimeLimit: Double = AdapterProcess.defaultTimeLimit

  @Option(
    help: ArgumentHelp(
      "With --adapter: a running `signin-spec serve` for this model to use (default: one started in this process).",
      valueName: "url"))
  var endpoint: String?

  @Option(help: "Where shrunk failures are saved (named by content hash).")
  var corpus = "counterexamples"

  @Flag(help: "Do not save failures.")
  var noSave = false

  @Option(help: "Output format: text, json or markdown (for $GITHUB_STEP_SUMMARY).")
  var format: Format = .text

  @Option(
    help: ArgumentHelp(
      "The share of cases drawn from configurations that do SRP's arithmetic (SRP flows, device tracking), 0 to 1.",
      discussion: "An SRP case costs about a hundred times a case without SRP; see docs/guide/fuzzing.md."))
  var srpShare: Double = Fuzzer.defaultSRPShare

  func validate() throws {
    if runs == nil && time == nil { throw ValidationError("give --runs N or --time DURATION") }
    if let runs { try OptionChecks.range(runs, 1...1_000_000_000, "--runs") }
    if let time { try OptionChecks.seconds(Self.seconds(time), time, "--time", limit: 7 * 86_400) }
    if client != "reference" && DeliberateBug(rawValue: client) == nil {
      let suggestion = Suggestions.closest(to: client, among: ["reference"] + DeliberateBug.allCases.map(\.rawValue))
      throw ValidationError("unknown client '\(client)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
    }
    guard Self.shard(shard) != nil else {
      throw ValidationError("--shard takes K/N with 1 <= K <= N <= 1000000, not '\(shard)'")
    }
    try OptionChecks.range(jobs, 1...OptionChecks.maxJobs, "--jobs")
    guard srpShare.isFinite, (0...1).contains(srpShare) else {
      throw ValidationError("--srp-share takes a number from 0 to 1, not \(srpShare)")
    }
    if !noSave { try OptionChecks.folder(corpus, "--corpus") }
    try OptionChecks.adapter(adapter, client: client, timeLimit: adapterTimeLimit)
    if let endpoint {
      guard adapter != nil else {
        throw ValidationError("--endpoint goes with --adapter: the adapter's client calls it")
      }
      guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
        throw ValidationError("--endpoint takes an http:// or https:// URL, not '\(endpoint)'")
      }
    }
  }

  @Sendable static func printProgress(_ cases: Int, _ found: Int) {
    FileHandle.standardError.write(Data("\r  \(cases) cases on worker 1, \(found) failures".utf8))
  }

  /// A rate for the summary, or "none ran".
  static func rate(_ value: Double?) -> String {
    value.map { String(format: $0 < 10 ? "%.1f" : "%.0f", $0) } ?? "none ran"
  }

  static func seconds(_ text: String) -> Double? {
    if text.hasSuffix("m"), let v = Double(text.dropLast()) { return v * 60 }
    if text.hasSuffix("s"), let v = Double(text.dropLast()) { return v }
    return Double(text)
  }

  static func shard(_ text: String) -> (Int, Int)? {
    let parts = text.split(separator: "/").compactMap { Int($0) }
    guard parts.count == 2, (1...1_000_000).contains(parts[1]), (1...parts[1]).contains(parts[0]) else { return nil }
    return (parts[0], parts[1])
  }

  /// Prints why no configuration can be drawn and gives the exit status: 2 when the model's
  /// constraints have no solution (at the line of the first constraint that clashes), 4 otherwise.
  func refuse(_ problem: ConfigurationError) -> ExitCode {
    if case .unsatisfiable(let lines, _) = problem {
      printError("\(model):\(lines.first ?? 1): error: \(problem)")
      return ExitStatus.badModel
    }
    printError("\(model): error: \(problem)")
    return ExitStatus.inconclusive
  }

  func run() async throws {
    let loaded: SignInModel
    do { loaded = try ModelLoader.load(file: model) } catch {
      printError(error.description)
      throw ExitStatus.badModel
    }
    let seed = self.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
    guard let parts = Self.shard(shard) else {
      throw ValidationError("--shard takes K/N with 1 <= K <= N <= 1000000, not '\(shard)'")
    }
    let (k, n) = parts
    let bugs: Set<DeliberateBug> = DeliberateBug(rawValue: client).map { [$0] } ?? []
    let clientUnderTest: ClientUnderTestRun
    do {
      clientUnderTest = try await ClientUnderTestRun.start(
        adapter, endpoint: endpoint.flatMap(URL.init(string:)), jobs: jobs, model: loaded, timeLimit: adapterTimeLimit)
    } catch {
      printError("error: the client under test misbehaved: \(error)")
      throw ExitStatus.clientMisbehaved
    }
    defer { clientUnderTest.stop() }
    let fuzzers =
      (clientUnderTest.workers?.executors ?? [CaseExecutor(model: loaded, hooks: DeliberateBug.hooks(for: bugs))])
      .map { Fuzzer(executor: $0, srpShare: srpShare) }
    let fuzzer = fuzzers[0]
    let clientName = clientUnderTest.workers.map { $0.profile.name } ?? client
    if let problem = fuzzer.configurationProblem {
      if let profile = clientUnderTest.workers?.profile, case .notCovered = problem {
        printError(
          "\(model): error: no configuration of the model runs on \(profile.name): it lists the flows "
            + (profile.flows ?? []).sorted().joined(separator: ", ") + " (hello's capabilities.flows)")
        throw ExitStatus.inconclusive
      }
      throw refuse(problem)
    }
    let deadline = time.flatMap(Self.seconds).map { DispatchTime.now() + $0 }
    let total = runs ?? 100_000_000
    let showProgress = format == .text && isatty(1) != 0 && ProcessInfo.processInfo.environment["CI"] == nil
    if format == .text {
      print(
        "fuzz \(loaded.name), client \(clientName)" + (adapter.map { " through adapter `\($0)`" } ?? "")
          + ", seed \(seed), shard \(k)/\(n), \(jobs) jobs")
    }
    // Shard, then job: index i belongs to shard (i mod n) and job ((i div n) mod jobs).
    let perJob = runs.map { ($0 + jobs - 1) / jobs } ?? Int.max
    let plans = (0..<jobs).map { job in stride(from: k - 1 + job * n, to: total, by: n * jobs).prefix(perJob) }
    let progress: (@Sendable (Int, Int) -> Void)? = showProgress ? Self.printProgress : nil
    let summaries = await withTaskGroup(of: FuzzSummary.self) { group in
      for (job, indices) in plans.enumerated() {
        let report = job == 0 ? progress : nil
        let fuzzer = fuzzers[job % fuzzers.count]
        group.addTask { await fuzzer.run(seed: seed, indices: indices, deadline: deadline, progress: report) }
      }
      var all: [FuzzSummary] = []
      for await s in group { all.append(s) }
      return all
    }
    if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
    if let failure = summaries.lazy.compactMap(\.clientFailure).first {
      ClientUnderTestRun.waitIfInterrupted()
      printError("error: the client under test misbehaved: \(failure)")
      throw ExitStatus.clientMisbehaved
    }
    if let problem = summaries.lazy.compactMap(\.configurationProblem).first { throw refuse(problem) }
    var summary = FuzzSummary()
    summary.allTransitions = summaries.first?.allTransitions ?? []
    for s in summaries { summary.add(s) }
    // One finding per root cause, from the smallest case index: the same for any --jobs.
    summary.findings = FuzzFinding.merged(summaries.flatMap(\.findings))
    var saved: [String] = []
    if !noSave {
      for finding in summary.findings {
        var file = CounterexampleFile(
          finding: finding, model: loaded, client: clientName, tool: "signin-spec \(SignInSpec.version)")
        file.adapter = adapter.map { CounterexampleFile.AdapterReference(command: $0, client: clientName) }
        saved.append(try file.write(to: corpus))
      }
    }
    let coveredCount = summary.allTransitions.filter { summary.covered[$0] != nil }.count
    if format == .json {
      let object: [String: Any] = [
        "format": "signin-spec-fuzz-report", "version": 1, "tool": "signin-spec \(SignInSpec.version)",
        "model": loaded.name, "client": clientName, "seed": String(seed), "shard": "\(k)/\(n)", "cases": summary.cases,
        "calls": summary.calls, "seconds": summary.seconds, "failures": summary.findings.count, "saved": saved,
        "transitions": summary.allTransitions.count, "covered": coveredCount, "neverExercised": summary.neverExercised,
        "srpCases": summary.srpCases, "srpShare": srpShare,
        "unsupported": summary.unsupported, "unsupportedCases": summary.unsupported.values.reduce(0, +),
      ].merging(adapter.map { ["adapter": $0] } ?? [:]) { $1 }
      let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
      print(String(decoding: data, as: UTF8.self))
    } else if format == .markdown {
      let failures = zip(summary.findings, saved + Array(repeating: "(not saved)", count: summary.findings.count)).map {
        FuzzMarkdown.Failure(
          message: $0.execution.message ?? "", originalLength: $0.originalLength,
          shrunkLength: $0.fuzzCase.calls.count, file: $1)
      }
      print(
        FuzzMarkdown(
          model: loaded.name, client: clientName, seed: String(seed), shard: "\(k)/\(n)", cases: summary.cases,
          calls: summary.calls, seconds: summary.seconds, covered: coveredCount,
          transitions: summary.allTransitions.count,
          neverExercised: summary.neverExercised, failures: failures
        ).render(), terminator: "")
    } else {
      print(
        String(
          format: "  %d cases, %d calls in %.2f s (%.0f calls/s)", summary.cases, summary.calls, summary.seconds,
          Double(summary.calls) / max(summary.seconds, 1e-9)))
      print(
        "  SRP cases: \(summary.srpCases) of \(summary.cases) (--srp-share \(srpShare)); cases/s run, SRP "
          + Self.rate(summary.srpCasesPerSecond) + ", without SRP " + Self.rate(summary.otherCasesPerSecond))
      print("  transition coverage: \(coveredCount)/\(summary.allTransitions.count)")
      if let profile = clientUnderTest.workers?.profile {
        let unsupported = summary.unsupported.values.reduce(0, +)
        print(
          "  unsupported by this client: \(unsupported) case\(unsupported == 1 ? "" : "s") not judged past the call "
            + "where the pool asked for a challenge its hello does not list; configurations drawn only for its flows ("
            + (profile.flows ?? []).sorted().joined(separator: ", ") + ")")
        for (reason, count) in summary.unsupported.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
          print("    \(reason): \(count)")
        }
      }
      let never = summary.neverExercised
      if !never.isEmpty {
        print("  never exercised (\(never.count)):")
        for t in never { print("    \(t)") }
      }
      print("  failures: \(summary.findings.count)")
      for (finding, path) in zip(
        summary.findings, saved + Array(repeating: "(not saved)", count: summary.findings.count))
      {
        print("    \(finding.execution.message ?? "")")
        print("      root cause: \(finding.rootCause)")
        print(
          "      shrunk from \(finding.originalLength) to \(finding.fuzzCase.calls.count) calls, found after "
            + String(format: "%.2f s", finding.secondsToFind) + "; stands for \(finding.rawFailures) failing case"
            + (finding.rawFailures == 1 ? "" : "s") + "; saved as \(path)")
      }
      print(
        "  replay with: signin-spec replay \(corpus)"
          + (adapter.map { " --adapter \(AdapterCommand.quoted($0))" } ?? "")
          + "   (seed \(seed))")
    }
    if !summary.findings.isEmpty { throw ExitStatus.violation }
  }
}
