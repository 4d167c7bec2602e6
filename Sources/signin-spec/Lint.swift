import ArgumentParser
import Evolution
import Foundation
import SignInModel

/// Reports what `verify` cannot see because no invariant is violated.
struct Lint: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Warn about what no invariant catches: values no guard compares, options nothing selects, "
      + "missing platform names, unused or unreachable parts, exclusions that hide dead ends.",
    discussion: """
      Exit status: 0 (warnings are printed); 1 with --strict when a warning is not acknowledged in the \
      model's lint: section; 2 a malformed model; 64 bad usage.
      """)

  @OptionGroup var modelOptions: ModelOptions

  @Flag(help: "Exit 1 when any warning is not acknowledged in the model's lint: section.")
  var strict = false

  func run() throws {
    var unacknowledged = 0
    for model in try modelOptions.loadModels() {
      let warnings = Linter(model: model).warnings()
      unacknowledged += LintOutput.print(model: model, warnings: warnings, showAcknowledged: true)
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
