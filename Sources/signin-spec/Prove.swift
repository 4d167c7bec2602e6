import ArgumentParser
import Foundation
import ModelChecking
import Reporting
import SignInModel
import SymbolicChecking

/// Proves every invariant for all configurations and all path lengths with Z3.
struct Prove: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Prove the invariants with Z3 for every configuration and every path length.",
    discussion: """
      Examples:
        signin-spec prove models/2026-all-platforms.yaml
        signin-spec prove --engine spacer --invariant terminates --timeout 120
        signin-spec prove models/2023-swift.yaml --explain
      """)

  @OptionGroup var modelOptions: ModelOptions

  @Option(name: .customLong("invariant"), help: "Prove only this invariant (repeatable).")
  var invariantNames: [String] = []

  @Option(
    name: .customLong("property"),
    help: "Prove only this property: a built-in invariant or one the model states (repeatable).")
  var propertyNames: [String] = []

  @Option(help: "Proof engine: fixpoint (backward least fixpoints) or spacer (Horn clauses).")
  var engine: String = SymbolicChecker.Engine.fixpoint.rawValue

  @Flag(help: "Print the inductive invariant Z3 found for each proven safety property, in the model's terms.")
  var explain = false

  @Option(help: "Time limit for each Z3 query, in seconds; hitting it reports unknown.")
  var timeout: Int = 60

  @Option(help: "Memory cap for Z3, in megabytes; hitting it reports unknown.")
  var memory: Int = 4096

  @Option(
    help: """
      Z3's deterministic resource limit (rlimit) for each solver query of the fixpoint engine and \
      bounded search, 0 for none; past it the verdict is UNKNOWN (exit 4), at the same point on any machine.
      """)
  var rlimit: Int = Prove.defaultResourceLimit

  /// The default `--rlimit`: far above what the shipped models need (see docs/guide/checking.md, Limits).
  static let defaultResourceLimit = 50_000_000

  @Option(help: "Most iterations of one fixpoint (deterministic); past it the property is UNKNOWN (exit 4).")
  var maxIterations: Int = FixpointLimits.defaultMaxIterations

  @Option(
    help: """
      Wall-clock budget of one property in seconds, checked between fixpoint iterations and \
      simplifications, 0 for none; past it the property is UNKNOWN (exit 4).
      """)
  var propertyBudget: Int = Int(FixpointLimits.defaultBudgetSeconds)

  @Option(
    name: .customLong("z3-budget"),
    help: """
      Wall-clock budget of all of one model's properties in seconds, 0 for none; past it the \
      properties not yet decided are UNKNOWN naming it (exit 4).
      """)
  var z3Budget: Int = Int(FixpointLimits.defaultRunBudgetSeconds)

  @OptionGroup var searchLimit: SearchLimitOptions

  @Option(help: "Show step names as this platform calls them (swift, js, android, flutter).")
  var platform: String?

  @Option(
    help: """
      Models proven at once, each in its own Z3 context (1 to 256; default: the number of cores); \
      the reports are printed in the order the models were given.
      """)
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  func validate() throws {
    try OptionChecks.range(timeout, 1...OptionChecks.maxSeconds, "--timeout", unit: " seconds")
    try OptionChecks.range(memory, 64...1_048_576, "--memory", unit: " MB")
    try OptionChecks.range(rlimit, 0...Int(UInt32.max), "--rlimit")
    try OptionChecks.range(maxIterations, 1...1_000_000, "--max-iterations")
    try OptionChecks.range(propertyBudget, 0...OptionChecks.maxSeconds, "--property-budget", unit: " seconds")
    try OptionChecks.range(z3Budget, 0...OptionChecks.maxSeconds, "--z3-budget", unit: " seconds")
    try OptionChecks.range(jobs, 1...OptionChecks.maxJobs, "--jobs")
    if SymbolicChecker.Engine(rawValue: engine) == nil {
      throw ValidationError("unknown engine '\(engine)'; use fixpoint or spacer")
    }
  }

  func run() throws {
    let models = try modelOptions.loadModels()
    let selection = try PropertySelection.resolve(
      invariantNames: invariantNames, propertyNames: propertyNames, models: models)
    var violated = false
    var unknown = false
    var internalError = false
    guard let engine = SymbolicChecker.Engine(rawValue: engine) else {
      throw ValidationError("unknown engine '\(self.engine)'; use fixpoint or spacer")
    }
    // One checker per model, made here: making one sets Z3's global memory cap.
    let checkers = models.map { model -> SymbolicChecker in
      var checker = SymbolicChecker(
        model: model, engine: engine,
        timeoutMilliseconds: UInt32(timeout * 1000),
        memoryMegabytes: memory, resourceLimit: UInt32(rlimit))
      checker.limits = FixpointLimits(maxIterations: maxIterations, budgetSeconds: Double(propertyBudget))
      checker.limits.runBudgetSeconds = Double(z3Budget)
      checker.limits.searchWorkLimit = searchLimit.workLimit
      checker.limits.maxBranches = searchLimit.z3MaxBranches
      return checker
    }
    let workers = min(jobs, models.count)
    let reports = ProofReports(count: models.count)
    if workers <= 1 {
      for (i, model) in models.enumerated() {
        var checker = checkers[i]
        let progress = Z3Progress.terminalLine(model.name)
        if let progress { checker.progress = { @Sendable label in progress.proving(label) } }
        reports.store(checker.prove(invariants: selection[ObjectIdentifier(model)] ?? [], explain: explain), at: i)
        progress?.finish()
      }
    } else {
      // Models are independent: each worker takes the next one (the largest first, so the
      // others fill in beside it) in its own Z3 context.
      let order = models.indices.sorted {
        models[$0].variables.count * models[$0].steps.count
          > models[$1].variables.count * models[$1].steps.count
      }
      let explain = explain
      DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while let k = reports.nextIndex(), k < order.count {
          let i = order[k]
          reports.store(
            checkers[i].prove(invariants: selection[ObjectIdentifier(models[i])] ?? [], explain: explain), at: i)
        }
      }
    }
    for report in reports.all() {
      print(ProofTextReport.render(report, platform: platform, explain: explain))
      print()
      for result in report.results {
        if Verify.isViolation(result.verdict) { violated = true }
        if case .unknown = result.verdict { unknown = true }
        if case .failed = result.verdict { internalError = true }
      }
    }
    if internalError { throw ExitStatus.internalError }
    if violated { throw ExitStatus.violation }
    if unknown { throw ExitStatus.inconclusive }
  }
}

/// The proof reports of models proven at once, under a lock, and the next model to take.
/// `@unchecked Sendable` is safe: every access to its state goes through `lock`.
final class ProofReports: @unchecked Sendable {
  private let lock = NSLock()
  private var reports: [ProofReport?]
  private var next = 0

  init(count: Int) { reports = Array(repeating: nil, count: count) }

  func nextIndex() -> Int? {
    lock.lock()
    defer { lock.unlock() }
    next += 1
    return next - 1
  }

  func store(_ report: ProofReport, at index: Int) {
    lock.lock()
    defer { lock.unlock() }
    reports[index] = report
  }

  func all() -> [ProofReport] {
    lock.lock()
    defer { lock.unlock() }
    return reports.compactMap { $0 }
  }
}
