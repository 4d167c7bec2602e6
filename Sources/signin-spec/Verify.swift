import ArgumentParser
import Foundation
import ModelChecking
import Reporting
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
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, sarif, markdown }
  enum Engines: String, ExpressibleByArgument, CaseIterable { case both, explicit, z3 }

  @OptionGroup var modelOptions: ModelOptions

  @Option(name: .customLong("invariant"), help: "Check only this invariant (repeatable).")
  var invariantNames: [String] = []

  @Option(help: "Output format: text, json, sarif (SARIF 2.1.0) or markdown (for $GITHUB_STEP_SUMMARY).")
  var format: Format = .text

  @Option(help: "Also write a SARIF 2.1.0 log (findings at model lines, counterexamples as code flows) to this file.")
  var sarif: String?

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

  func validate() throws {
    for name in invariantNames where Invariant(rawValue: name) == nil {
      let suggestion = Suggestions.closest(to: name, among: Invariant.allCases.map(\.rawValue))
      throw ValidationError("unknown invariant '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
    }
    if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    if engines == .z3 && format != .text {
      throw ValidationError("--format \(format.rawValue) needs the explicit engine (--engines both or explicit)")
    }
    if engines == .z3 && sarif != nil {
      throw ValidationError("--sarif needs the explicit engine (--engines both or explicit)")
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
    case .sarif: print(try VerifyFindings.sarif(reports, toolVersion: SignInSpec.version, platform: platform).encoded())
    case .markdown: print(VerifyFindings.markdown(reports, platform: platform), terminator: "")
    }
    if let sarif {
      do {
        try VerifyFindings.sarif(reports, toolVersion: SignInSpec.version, platform: platform).encoded()
          .write(toFile: sarif, atomically: true, encoding: .utf8)
      } catch {
        printError("error: cannot write the SARIF log to \(sarif): \(error.localizedDescription)")
        throw ExitStatus.internalError
      }
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
  }
}
