import ArgumentParser
import SymbolicChecking

/// `--search-rlimit` and `--z3-max-branches`, shared by `prove` and `verify`: the work one bounded
/// search of Z3 may do, and the largest model Z3 is given.
struct SearchLimitOptions: ParsableArguments {
  @Option(
    name: .customLong("search-rlimit"),
    help: """
      The most work (Z3's deterministic rlimit units) one bounded search may do over all its depths, \
      0 for none, checked between depths; past it the search stops, the same on any machine: a \
      terminates counterexample is then the fixpoint's (not the shortest over all configurations), \
      the steps it did not reach are left to fixpoints, and with --engine spacer a violation it \
      found no path to is UNKNOWN.
      """)
  var searchRlimit: Int = Int(FixpointLimits.defaultSearchWorkLimit)

  @Option(
    name: .customLong("z3-max-branches"),
    help: "The most transition branches a model may have for Z3 (0 for no limit); above it, UNKNOWN (exit 4).")
  var z3MaxBranches: Int = FixpointLimits.defaultMaxBranches

  func validate() throws {
    try OptionChecks.range(searchRlimit, 0...Int.max, "--search-rlimit")
    try OptionChecks.range(z3MaxBranches, 0...Int.max, "--z3-max-branches")
  }

  /// `FixpointLimits.searchWorkLimit` (validated: never negative).
  var workLimit: UInt64 { UInt64(searchRlimit) }
}
