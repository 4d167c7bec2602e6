import ArgumentParser
import ModelChecking

/// `--max-states`, `--max-configurations` and `--max-depth`, shared by `verify` and `report`:
/// where the explicit search stops. Its verdicts are then UNKNOWN, naming the limit reached
/// (`verify` exits 4; `report`'s page says so and it exits 0, as for any verdict).
struct ExplicitLimitOptions: ParsableArguments {
  @Option(help: "Stop the explicit search after this many states (its verdicts UNKNOWN; verify exits 4).")
  var maxStates: Int = 100_000_000

  @Option(help: "Stop the explicit search after this many configuration classes (UNKNOWN; verify exits 4).")
  var maxConfigurations: Int = 10_000_000

  @Option(help: "Stop the explicit search at a state this many calls deep (UNKNOWN; verify exits 4).")
  var maxDepth: Int = 10_000

  func validate() throws {
    try OptionChecks.range(maxStates, 1...Int.max, "--max-states")
    try OptionChecks.range(maxConfigurations, 1...Int.max, "--max-configurations")
    try OptionChecks.range(maxDepth, 1...Int.max, "--max-depth")
  }

  /// What `verify` and `report` print on standard error when the search of `file` stopped
  /// (`reason`: `CheckReport.incomplete`); `verdicts` says where the partial verdicts are.
  static func stoppedWarning(_ file: String, _ reason: String, verdicts: String) -> String {
    "\(file): UNKNOWN: the explicit search stopped: \(reason); \(verdicts) are partial (raise the limit to finish)"
  }

  /// The limits, with `pendingBytes` for the classes waiting to be explored (`--max-pending-memory`).
  func limits(pendingBytes: Int) -> ExplicitLimits {
    ExplicitLimits(
      maxStates: maxStates, maxConfigurationClasses: maxConfigurations, maxDepth: maxDepth,
      maxPendingBytes: pendingBytes)
  }
}
