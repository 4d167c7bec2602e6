/// Why the fuzzer cannot draw a configuration: it never falls back to the model's defaults.
package enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No configuration satisfies the model's constraints: the lines and texts of constraints
  /// that clash (`ConstraintCounter.conflict`; the first constraint when they cannot be counted).
  case unsatisfiable(lines: [Int], texts: [String])
  /// Configurations satisfy the constraints, but the harness covers none of them.
  case notCovered
  /// The search gave up after this many assignments without finding one or ruling all out.
  case searchLimit(Int)

  package var description: String {
    switch self {
    case .unsatisfiable(let lines, let texts):
      let quoted = texts.map { "\"\($0)\"" }.joined(separator: ", ")
      let which =
        lines.count == 1
        ? "the constraint at line \(lines[0]) (\(quoted)) rules every one out"
        : "the constraints at lines \(lines.map(String.init).joined(separator: ", ")) (\(quoted)) rule every one out together"
      return "no configuration satisfies the model's constraints: \(which); nothing to fuzz"
    case .notCovered:
      return "no configuration that satisfies the model's constraints is one the harness can run; nothing to fuzz"
    case .searchLimit(let n):
      return "no configuration found within \(n) assignments of the search over the model's constraints"
    }
  }
}
