/// Why the fuzzer cannot draw a configuration: it never falls back to the model's defaults.
package enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No configuration satisfies the model's constraints (the line of the first constraint).
  case unsatisfiable(firstConstraintLine: Int)
  /// Configurations satisfy the constraints, but the harness covers none of them.
  case notCovered
  /// The search gave up after this many assignments without finding one or ruling all out.
  case searchLimit(Int)

  package var description: String {
    switch self {
    case .unsatisfiable(let line):
      return "no configuration satisfies the model's constraints (the first is at line \(line)); nothing to fuzz"
    case .notCovered:
      return "no configuration that satisfies the model's constraints is one the harness can run; nothing to fuzz"
    case .searchLimit(let n):
      return "no configuration found within \(n) assignments of the search over the model's constraints"
    }
  }
}
