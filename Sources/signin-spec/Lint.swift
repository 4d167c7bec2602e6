import ArgumentParser
import Evolution
import Foundation
import Reporting
import SafeFiles
import SignInModel

/// Reports what `verify` cannot see because no invariant is violated.
struct Lint: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Warn about what no invariant catches: values no guard compares, options nothing selects, "
      + "missing platform names, unused or unreachable parts, exclusions that hide dead ends.",
    discussion: """
      Examples:
        signin-spec lint models/2026-all-platforms.yaml --strict
        signin-spec lint --sarif lint.sarif

      Exit status: 0 (warnings are printed); 1 with --strict when a warning is not acknowledged in the \
      model's lint: section; 2 a malformed model; 64 bad usage.
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, sarif }

  @OptionGroup var modelOptions: ModelOptions

  @Flag(help: "Exit 1 when any warning is not acknowledged in the model's lint: section.")
  var strict = false

  @Option(help: "Output format: text, or sarif (SARIF 2.1.0: each warning at its model line).")
  var format: Format = .text

  @Option(help: "Also write a SARIF 2.1.0 log (each warning at its model line) to this file.")
  var sarif: String?

  @OptionGroup var threads: ClassThreadOptions

  @Option(
    help: """
      The most configuration classes explored (1 to 100000000): past it the checks that read every \
      class are not made, and the warning classLimit says so.
      """)
  var maxClasses: Int = Linter.defaultMaxClasses

  @OptionGroup var pendingMemory: PendingMemoryOption

  func validate() throws {
    try OptionChecks.output(sarif, "--sarif")
    try OptionChecks.range(maxClasses, 1...100_000_000, "--max-classes")
  }

  func run() throws {
    var unacknowledged = 0
    var runs: [(model: SignInModel, warnings: [LintWarning])] = []
    for model in try modelOptions.loadModels() {
      var linter = Linter(model: model)
      linter.copies = threads.copies(of: [model]).map { $0[0] }
      linter.bufferedClasses = threads.bufferedClasses
      linter.maxClasses = maxClasses
      linter.maxPendingBytes = pendingMemory.bytes
      let warnings = linter.warnings()
      runs.append((model, warnings))
      if format == .text {
        unacknowledged += LintOutput.print(model: model, warnings: warnings, showAcknowledged: true)
      } else {
        unacknowledged += warnings.filter { $0.acknowledged == nil }.count
      }
    }
    if format == .sarif || sarif != nil {
      let log = try LintFindings.sarif(runs, toolVersion: SignInSpec.version).encoded()
      if format == .sarif { print(log) }
      if let sarif {
        do { try SafeFile.write(Data(log.utf8), to: sarif) } catch {
          printError("error: --sarif: \(error.description)")
          throw ExitStatus.usage
        }
      }
    }
    if strict && unacknowledged > 0 { throw ExitStatus.violation }
  }
}

/// The lint report shared by `lint` and `verify`.
enum LintOutput {
  /// Prints the warnings; returns how many are not acknowledged.
  @discardableResult
  static func print(model: SignInModel, warnings: [LintWarning], showAcknowledged: Bool) -> Int {
    let open = warnings.filter { $0.acknowledged == nil }
    let acknowledged = warnings.filter { $0.acknowledged != nil }
    Swift.print("\(model.name) (\(model.file)): \(open.count) warnings, \(acknowledged.count) acknowledged")
    for w in open { Swift.print("\(w.location): warning: [\(w.rule)] \(w.target): \(w.message)") }
    if showAcknowledged && !acknowledged.isEmpty {
      Swift.print("  acknowledged in lint:")
      for w in acknowledged {
        Swift.print("  \(w.location): [\(w.rule)] \(w.target): \(w.message)\n      reason: \(w.acknowledged ?? "")")
      }
    }
    for a in Linter(model: model).staleAcknowledgements(warnings) {
      Swift.print("\(model.file):\(a.line): note: lint: entry [\(a.rule)] \(a.target) matches no warning")
    }
    return open.count
  }
}
