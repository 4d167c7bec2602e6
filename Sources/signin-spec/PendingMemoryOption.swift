import ArgumentParser
import ModelChecking

/// `--max-pending-memory`, shared by `verify`, `report`, `lint` and `diff`: the memory the configuration
/// classes waiting to be explored may hold (`PendingMemory`).
struct PendingMemoryOption: ParsableArguments {
  @Option(
    help: """
      The most memory, in MB, the configuration classes waiting to be explored may hold (1 to \
      1048576; an estimate from the states each keeps): past it the exploration stops; the \
      search of verify and report is then UNKNOWN (verify exits 4), lint warns classLimit, diff is \
      INCOMPLETE.
      """)
  var maxPendingMemory: Int = PendingMemory.defaultLimitMegabytes

  func validate() throws {
    try OptionChecks.range(maxPendingMemory, 1...1_048_576, "--max-pending-memory", unit: " MB")
  }

  /// The limit in bytes.
  var bytes: Int { maxPendingMemory << 20 }
}
