import ArgumentParser
import Evolution
import Foundation
import HTMLReporting
import ModelChecking
import Reporting
import SignInModel
import SymbolicChecking

/// Checks the models and writes one self-contained HTML page of the results.
struct Report: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write one self-contained HTML page: verdicts, flow diagrams, counterexamples stepped call by call.",
    discussion: """
      Checks the models as verify does (both engines by default) and writes the page: each \
      model's verdicts, its flow diagram, its lint warnings, and each counterexample with its \
      configuration, a diagram of the flow under that configuration with the path in red, and \
      buttons (or the arrow keys) that step through the calls. --fuzz adds a fuzz run's coverage \
      (a file fuzz --format json wrote); --diff OLD adds what changed from OLD to the one MODEL \
      given. The page needs no network (style, script and SVG diagrams are inline); diagrams need \
      Graphviz's dot on PATH (make graphviz), without it the page shows their DOT source.

      Exit status: 0 the page is written, whatever the verdicts (verify --html writes the same \
      page and exits by the verdicts); 2 a model file is malformed; 3 the engines disagree; \
      64 bad usage or a file that cannot be read or written.

      Examples:
        signin-spec report --html report.html
        signin-spec report --html report.html models/2023-swift.yaml --platform swift
        signin-spec fuzz --runs 2000 --format json > fuzz.json && signin-spec report --html report.html --fuzz fuzz.json
        signin-spec report --html report.html models/2026-all-platforms.yaml --diff main:models/2026-all-platforms.yaml
      """)

  enum Engines: String, ExpressibleByArgument, CaseIterable { case both, explicit }

  @OptionGroup var modelOptions: ModelOptions

  @Option(help: ArgumentHelp("Write the HTML page to this file.", valueName: "file"))
  var html: String

  @Option(help: "Show step names as this platform calls them (swift, js, android, flutter).")
  var platform: String?

  @Option(help: "Engines to run: both (explicit search and Z3) or explicit.")
  var engines: Engines = .both

  @Option(
    name: .customLong("fuzz"),
    help: ArgumentHelp("Add a fuzz run's coverage: a file `fuzz --format json` wrote (repeatable).", valueName: "file"))
  var fuzzReports: [String] = []

  @Option(
    name: .customLong("diff"),
    help: ArgumentHelp(
      "Add what changed from this older model (a file or REV:PATH) to the one MODEL given.", valueName: "old"))
  var diffFrom: String?

  @Option(
    name: .customLong("max-diagram-steps"),
    help: "Diagrams of more steps than this are not drawn (0 for no limit).")
  var maxDiagramSteps: Int = HTMLReport.defaultMaxDiagramSteps

  @Option(help: "Worker threads for the explicit search (1 to 256; default: the number of cores).")
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @OptionGroup var explicitLimits: ExplicitLimitOptions

  @OptionGroup var pendingMemory: PendingMemoryOption

  func validate() throws {
    try OptionChecks.range(jobs, 1...OptionChecks.maxJobs, "--jobs")
    try OptionChecks.output(html, "--html")
    try OptionChecks.range(maxDiagramSteps, 0...Int.max, "--max-diagram-steps")
    if html.isEmpty { throw ValidationError("--html: the file name is empty") }
    if diffFrom != nil && modelOptions.models.count != 1 {
      throw ValidationError("--diff OLD compares OLD with one model: give exactly one MODEL")
    }
  }

  func run() throws {
    let runs: [FuzzRun] = try fuzzReports.map { file throws in
      do { return try FuzzRun.read(file) } catch {
        printError("error: --fuzz: \(error)")
        throw ExitStatus.usage
      }
    }
    let models = try modelOptions.loadModels()
    if let platform {
      for model in models where !model.platforms.contains(platform) {
        let suggestion = Suggestions.closest(to: platform, among: model.platforms)
        throw ValidationError(
          "model \(model.name) has no platform '\(platform)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
      }
    }
    for model in models {
      if let refusal = ConstraintCounter.refusal(in: model) {
        printError(
          "\(model.file):\(refusal.line): error: the constraint '\(refusal.text)' cannot be counted: \(refusal.reason)")
        throw ExitStatus.badModel
      }
    }
    var diffs: [ModelDiff] = []
    if let diffFrom, let new = models.first {
      let old = try ModelSource.load(diffFrom)
      diffs.append(ModelDiff(old: old, new: new))
    }
    let selection = try PropertySelection.resolve(invariantNames: [], propertyNames: [], models: models)
    var reports: [CheckReport] = []
    var proofs: [ProofReport] = []
    var disagreement = false
    for model in models {
      var checker = ExplicitChecker(model: model, jobs: jobs)
      checker.limits = explicitLimits.limits(pendingBytes: pendingMemory.bytes)
      checker.progress = SearchProgress.terminalLine(model.name)
      let report = checker.check(invariants: selection[ObjectIdentifier(model)] ?? [])
      SearchProgress.finish(checker.progress)
      if let reason = report.incomplete {
        printError(ExplicitLimitOptions.stoppedWarning(model.file, reason, verdicts: "the page's verdicts"))
      }
      reports.append(report)
      if engines == .both {
        let proof = Verify.checker(
          model, timeout: 60, budget: Int(FixpointLimits.defaultRunBudgetSeconds),
          maxBranches: FixpointLimits.defaultMaxBranches
        ).prove(invariants: selection[ObjectIdentifier(model)] ?? [])
        proofs.append(proof)
        if report.incomplete == nil, !EngineAgreement.disagreements(report, proof).isEmpty { disagreement = true }
      }
    }
    try HTMLPage.write(
      reports, proofs: proofs, platform: platform, maxDiagramSteps: maxDiagramSteps, fuzzRuns: runs, diffs: diffs,
      to: html)
    print("wrote \(html): \(TextReport.summary(reports))")
    if disagreement {
      printError(
        "error: the explicit engine and Z3 disagree (the page shows both verdicts); this is a bug in signin-spec")
      throw ExitStatus.internalError
    }
  }
}
