import ArgumentParser
import Evolution
import Foundation
import ModelChecking
import Reporting
import SignInModel
import SymbolicChecking

/// Checks every invariant of every model and prints the verdicts.
struct Verify: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check every invariant of the models; print each verdict and the shortest counterexamples.")

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }
  enum Engines: String, ExpressibleByArgument, CaseIterable { case both, explicit, z3 }

  @OptionGroup var modelOptions: ModelOptions

  @Option(name: .customLong("invariant"), help: "Check only this invariant (repeatable).")
  var invariantNames: [String] = []

  @Option(help: "Output format: text or json.")
  var format: Format = .text

  @Option(help: "Also write a JUnit XML report (one test case per model and invariant) to this file.")
  var junit: String?

  @Option(help: "Show step names as this platform calls them (swift, js, android, flutter).")
  var platform: String?

  @Option(help: "Engines to run: both (explicit search and Z3, compared), explicit, or z3.")
  var engines: Engines = .both

  @Option(help: "Time limit for each Z3 query, in seconds.")
  var timeout: Int = 60

  @Option(help: "Worker threads for the explicit search (default: the number of cores).")
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @Flag(help: "Exit 1 when `signin-spec lint` has a warning the model does not acknowledge.")
  var strict = false

  func validate() throws {
    for name in invariantNames where Invariant(rawValue: name) == nil {
      let suggestion = Suggestions.closest(to: name, among: Invariant.allCases.map(\.rawValue))
      throw ValidationError("unknown invariant '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
    }
    if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    if engines == .z3 && format == .json {
      throw ValidationError("--format json needs the explicit engine (--engines both or explicit)")
    }
  }

  func run() throws {
    let models = try modelOptions.loadModels()
    if let platform {
      for model in models where !model.platforms.contains(platform) {
        let suggestion = Suggestions.closest(to: platform, among: model.platforms)
        throw ValidationError("model \(model.name) has no platform '\(platform)'"
          + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
      }
    }
    // Lint warnings the models do not acknowledge (standard error for JSON, so it stays one document).
    var lintWarnings = 0
    for model in models {
      let open = Linter(model: model).warnings().filter { $0.acknowledged == nil }
      lintWarnings += open.count
      for w in open {
        let line = "\(w.location): warning: [\(w.rule)] \(w.target): \(w.message)"
        if format == .text { print(line) } else { printError(line) }
      }
    }
    if lintWarnings > 0 && format == .text { print() }
    let invariants = invariantNames.isEmpty ? Invariant.allCases : invariantNames.compactMap(Invariant.init(rawValue:))
    var reports: [CheckReport] = []
    var proofs: [ProofReport] = []
    var disagreement = false
    var z3Failed = false
    for model in models {
      let report = engines == .z3 ? nil : ExplicitChecker(model: model, jobs: jobs).check(invariants: invariants)
      let proof = engines == .explicit ? nil
        : SymbolicChecker(model: model, timeoutMilliseconds: UInt32(timeout * 1000)).prove(invariants: invariants)
      if let proof {
        proofs.append(proof)
        z3Failed = z3Failed || proof.results.contains { $0.verdict != .proven }
      }
      if let report {
        reports.append(report)
        if let proof, !EngineAgreement.disagreements(report, proof).isEmpty { disagreement = true }
        if format == .text {
          print(TextReport.render(report, proof: proof, platform: platform))
          print()
        }
      } else if let proof, format == .text {
        print(ProofTextReport.render(proof, platform: platform))
        print()
      }
    }
    if engines == .z3 {
      if z3Failed { throw ExitStatus.violation }
      return
    }
    switch format {
    case .text: print(TextReport.summary(reports))
    case .json: print(try JSONReport(reports: reports, proofs: proofs, version: SignInSpec.version).encoded())
    }
    if let junit {
      do {
        try JUnitReport.render(reports, platform: platform).write(toFile: junit, atomically: true, encoding: .utf8)
      } catch {
        printError("error: cannot write the JUnit report to \(junit): \(error.localizedDescription)")
        throw ExitStatus.internalError
      }
    }
    if disagreement {
      printError("error: the explicit engine and Z3 disagree (see DISAGREE above); this is a bug in signin-spec")
      throw ExitStatus.internalError
    }
    if !reports.allSatisfy(\.allHold) { throw ExitStatus.violation }
    if strict && lintWarnings > 0 {
      printError("error: \(lintWarnings) lint warnings not acknowledged in a lint: section (--strict)")
      throw ExitStatus.violation
    }
  }
}
