import ArgumentParser
import Evolution
import Foundation
import Fuzzing
import HTMLReporting
import ModelChecking
import Reporting
import SafeFiles
import SignInModel
import SymbolicChecking

/// Checks every invariant of every model and prints the verdicts.
struct Verify: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check every invariant of the models; print each verdict and the shortest counterexamples.",
    discussion: """
      Examples:
        signin-spec verify
        signin-spec verify models/2026-all-platforms.yaml --invariant terminates --platform swift
        signin-spec verify --format markdown >> "$GITHUB_STEP_SUMMARY"
        signin-spec verify --sarif verify.sarif --junit verify.junit.xml
        signin-spec verify --html report.html
        signin-spec verify docs/guide/examples/broken-2023.yaml --save findings
        signin-spec replay findings
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, sarif, markdown }
  enum Engines: String, ExpressibleByArgument, CaseIterable { case both, explicit, z3 }

  @OptionGroup var modelOptions: ModelOptions

  @Option(name: .customLong("invariant"), help: "Check only this invariant (repeatable).")
  var invariantNames: [String] = []

  @Option(
    name: .customLong("property"),
    help: "Check only this property: a built-in invariant or one the model states (repeatable).")
  var propertyNames: [String] = []

  @Option(help: "Output format: text, json, sarif (SARIF 2.1.0) or markdown (for $GITHUB_STEP_SUMMARY).")
  var format: Format = .text

  @Option(help: "Also write a SARIF 2.1.0 log (findings at model lines, counterexamples as code flows) to this file.")
  var sarif: String?

  @Option(help: "Also write a JUnit XML report (one test case per model and invariant) to this file.")
  var junit: String?

  @Option(
    help: ArgumentHelp(
      "Also write a self-contained HTML page (verdicts, diagrams, counterexamples stepped call by call) to this file.",
      valueName: "file"))
  var html: String?

  @Option(
    name: .customLong("max-diagram-steps"),
    help: "With --html: diagrams of more steps than this are not drawn (0 for no limit).")
  var maxDiagramSteps: Int = HTMLReport.defaultMaxDiagramSteps

  @Option(help: "Show step names as this platform calls them (swift, js, android, flutter).")
  var platform: String?

  @Option(help: "Engines to run: both (explicit search and Z3, compared), explicit, or z3.")
  var engines: Engines = .both

  @Option(help: "Time limit for each Z3 query, in seconds (1 to 86400).")
  var timeout: Int = 60

  @Option(
    name: .customLong("z3-budget"),
    help: """
      Wall-clock budget of Z3 on one model in seconds (0 for none); past it the properties not \
      yet decided are UNKNOWN naming it (exit 4). A query never runs longer than the budget.
      """)
  var z3Budget: Int = Int(FixpointLimits.defaultRunBudgetSeconds)

  @OptionGroup var searchLimit: SearchLimitOptions

  @Option(help: "Worker threads for the explicit search (1 to 256; default: the number of cores).")
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @Flag(help: "Exit 1 when `signin-spec lint` has a warning the model does not acknowledge.")
  var strict = false

  @Option(
    help: ArgumentHelp(
      "Write each counterexample as a replayable counterexample file into this folder (created if missing).",
      valueName: "dir"))
  var save: String?

  @OptionGroup var explicitLimits: ExplicitLimitOptions

  @OptionGroup var pendingMemory: PendingMemoryOption

  func validate() throws {
    try OptionChecks.range(jobs, 1...OptionChecks.maxJobs, "--jobs")
    try OptionChecks.range(timeout, 1...OptionChecks.maxSeconds, "--timeout", unit: " seconds")
    try OptionChecks.range(z3Budget, 0...OptionChecks.maxSeconds, "--z3-budget", unit: " seconds")
    try OptionChecks.output(junit, "--junit")
    try OptionChecks.output(sarif, "--sarif")
    try OptionChecks.output(html, "--html")
    try OptionChecks.range(maxDiagramSteps, 0...Int.max, "--max-diagram-steps")
    if engines == .z3 && format != .text {
      throw ValidationError("--format \(format.rawValue) needs the explicit engine (--engines both or explicit)")
    }
    if engines == .z3 && html != nil {
      throw ValidationError("--html needs the explicit engine (--engines both or explicit)")
    }
    if engines == .z3 && sarif != nil {
      throw ValidationError("--sarif needs the explicit engine (--engines both or explicit)")
    }
    if let save {
      if save.isEmpty { throw ValidationError("--save: the folder name is empty") }
      try OptionChecks.folder(save, "--save")
      if engines == .z3 { throw ValidationError("--save needs the explicit engine (--engines both or explicit)") }
    }
  }

  /// Z3 on `model`: each query at most `timeout` seconds and never longer than the run's `budget`.
  static func checker(
    _ model: SignInModel, timeout: Int, budget: Int, maxBranches: Int,
    searchWorkLimit: UInt64 = FixpointLimits.defaultSearchWorkLimit
  ) -> SymbolicChecker {
    let seconds = budget > 0 ? min(timeout, budget) : timeout
    var checker = SymbolicChecker(model: model, timeoutMilliseconds: UInt32(seconds * 1000))
    checker.limits.runBudgetSeconds = Double(budget)
    checker.limits.maxBranches = maxBranches
    checker.limits.searchWorkLimit = searchWorkLimit
    return checker
  }

  func run() throws {
    let models = try modelOptions.loadModels()
    if let platform {
      for model in models where !model.platforms.contains(platform) {
        let suggestion = Suggestions.closest(to: platform, among: model.platforms)
        throw ValidationError(
          "model \(model.name) has no platform '\(platform)'"
            + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
      }
    }
    // Every lint warning, computed beside the explicit search; those the models do not
    // acknowledge print before the verdicts (standard error for JSON, so it stays one document).
    // Lint and the explicit search's second worker read copies of the models loaded again, so
    // the threads share no object (`ModelLoader.reload`).
    let pendingBytes = pendingMemory.bytes
    let lint = Background {
      models.map { model in
        var linter = Linter(model: ModelLoader.copyForThread(model) ?? model)
        linter.maxPendingBytes = pendingBytes
        return linter.warnings()
      }
    }
    var lintWarnings = 0
    var lintPrinted = false
    func printLint() {
      if lintPrinted { return }
      lintPrinted = true
      for warnings in lint.wait() {
        let open = warnings.filter { $0.acknowledged == nil }
        lintWarnings += open.count
        for w in open {
          let line = "\(w.location): warning: [\(w.rule)] \(w.target): \(w.message)"
          if format == .text { print(line) } else { printError(line) }
        }
      }
      if lintWarnings > 0 && format == .text { print() }
    }
    let selection = try PropertySelection.resolve(
      invariantNames: invariantNames, propertyNames: propertyNames, models: models)
    var reports: [CheckReport] = []
    var proofs: [ProofReport] = []
    var disagreement = false
    var z3Failed = false
    var inconclusive = false
    if engines != .z3 {
      for model in models {
        if let refusal = ConstraintCounter.refusal(in: model) {
          printError(
            "\(model.file):\(refusal.line): error: the constraint '\(refusal.text)' cannot be counted: "
              + "\(refusal.reason)")
          throw ExitStatus.badModel
        }
      }
    }
    // Z3 proves the models one after another beside the explicit search (its fixpoints run on
    // one thread), each proof printed with its model's explicit verdicts.
    let z3Queue = DispatchQueue(label: "verify.z3")
    let proofsAhead = models.map { model -> Background<ProofReport>? in
      guard engines != .explicit else { return nil }
      let invariants = selection[ObjectIdentifier(model)] ?? []
      let checker = Self.checker(
        model, timeout: timeout, budget: z3Budget, maxBranches: searchLimit.z3MaxBranches,
        searchWorkLimit: searchLimit.workLimit)
      return Background(on: z3Queue) { checker.prove(invariants: invariants) }
    }
    for (m, model) in models.enumerated() {
      let invariants = selection[ObjectIdentifier(model)] ?? []
      var checker = ExplicitChecker(model: model, jobs: jobs)
      if engines != .z3 {
        // A copy per worker the cores can run at once; more workers than cores take them in turn.
        let copies = min(jobs, ProcessInfo.processInfo.activeProcessorCount) - 1
        checker.workerSystems = (0..<max(0, copies)).compactMap { _ in
          ModelLoader.copyForThread(model).map(TransitionSystem.init)
        }
      }
      checker.limits = explicitLimits.limits(pendingBytes: pendingMemory.bytes)
      checker.progress = SearchProgress.terminalLine(model.name)
      let report = engines == .z3 ? nil : checker.check(invariants: invariants)
      SearchProgress.finish(checker.progress)
      if let reason = report?.incomplete {
        inconclusive = true
        printError(ExplicitLimitOptions.stoppedWarning(model.file, reason, verdicts: "the verdicts below"))
      }
      let proof = proofsAhead[m]?.wait()
      if let proof, proof.results.contains(where: { if case .unknown = $0.verdict { true } else { false } }) {
        inconclusive = true
      }
      if let proof {
        proofs.append(proof)
        z3Failed =
          z3Failed
          || proof.results.contains {
            switch $0.verdict {
            case .unknown, .failed: return true
            default: return false
            }
          }
      }
      printLint()
      if let report {
        reports.append(report)
        if let proof, report.incomplete == nil, !EngineAgreement.disagreements(report, proof).isEmpty {
          disagreement = true
        }
        if format == .text {
          print(TextReport.render(report, proof: proof, platform: platform))
          print()
        }
      } else if let proof, format == .text {
        print(ProofTextReport.render(proof, platform: platform))
        print()
      }
    }
    printLint()
    if engines == .z3 {
      if proofs.contains(where: { $0.results.contains { Self.isViolation($0.verdict) } }) {
        throw ExitStatus.violation
      }
      if z3Failed { throw ExitStatus.inconclusive }
      return
    }
    switch format {
    case .text: print(TextReport.summary(reports))
    case .json: print(try JSONReport(reports: reports, proofs: proofs, version: SignInSpec.version).encoded())
    case .sarif: print(try VerifyFindings.sarif(reports, toolVersion: SignInSpec.version, platform: platform).encoded())
    case .markdown: print(VerifyFindings.markdown(reports, platform: platform), terminator: "")
    }
    if let sarif {
      let log = try VerifyFindings.sarif(reports, toolVersion: SignInSpec.version, platform: platform).encoded()
      do { try SafeFile.write(Data(log.utf8), to: sarif) } catch {
        printError("error: --sarif: \(error.description)")
        throw ExitStatus.usage
      }
    }
    if let html {
      try HTMLPage.write(
        reports, proofs: proofs, lint: lint.wait(), platform: platform, maxDiagramSteps: maxDiagramSteps, to: html)
    }
    if let save { try saveCounterexamples(reports, to: save) }
    if let junit {
      do {
        try SafeFile.write(Data(JUnitReport.render(reports, platform: platform).utf8), to: junit)
      } catch {
        printError("error: --junit: \(error.description)")
        throw ExitStatus.usage
      }
    }
    if disagreement {
      printError("error: the explicit engine and Z3 disagree (see DISAGREE above); this is a bug in signin-spec")
      throw ExitStatus.internalError
    }
    // A search stopped at a limit has partial verdicts (reachability and vacuity need every class).
    // A violation found before a limit stopped the search is a finding (exit 1); otherwise a
    // search stopped at a limit is inconclusive (exit 4).
    if reports.contains(where: { $0.results.contains { !$0.verdict.passed } }) { throw ExitStatus.violation }
    if reports.contains(where: { $0.incomplete != nil }) { throw ExitStatus.inconclusive }
    if inconclusive { throw ExitStatus.inconclusive }
    if strict && lintWarnings > 0 {
      printError("error: \(lintWarnings) lint warnings not acknowledged in a lint: section (--strict)")
      throw ExitStatus.violation
    }
  }

  /// Writes each violation's counterexample into `folder` (one file per model and invariant,
  /// named by invariant, model and content hash, so saving again replaces the same files).
  func saveCounterexamples(_ reports: [CheckReport], to folder: String) throws {
    for report in reports {
      for result in report.results {
        guard case .violated(let counterexample) = result.verdict else { continue }
        let file = CounterexampleFile(
          counterexample: counterexample, model: report.model, tool: "signin-spec \(SignInSpec.version)")
        let path: String
        do { path = try file.write(to: folder) } catch {
          printError("error: --save: \(error)")
          throw ExitStatus.usage
        }
        let line = "saved \(result.invariant.rawValue) counterexample of \(report.model.name): \(path)"
        if format == .text { print(line) } else { printError(line) }
      }
    }
  }

  /// Violated, vacuous or not checked without the model's acknowledgement: a finding (exit 1),
  /// unlike unknown (exit 4).
  static func isViolation(_ verdict: ProofVerdict) -> Bool {
    switch verdict {
    case .violated, .vacuous: return true
    case .notChecked(_, let acknowledged): return acknowledged == nil
    case .proven, .unknown, .failed: return false
    }
  }
}
