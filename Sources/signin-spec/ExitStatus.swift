import ArgumentParser

/// The documented exit codes (docs/guide/checking.md, "Exit codes").
enum ExitStatus {
  /// Every check holds.
  static let success = ExitCode(0)
  /// An invariant is violated, or holds only vacuously.
  static let violation = ExitCode(1)
  /// A model file is malformed (the diagnostics name file:line:column).
  static let badModel = ExitCode(2)
  /// A bug in signin-spec itself.
  static let internalError = ExitCode(3)
  /// Inconclusive: a resource limit was reached (verdict UNKNOWN) and nothing was violated.
  static let inconclusive = ExitCode(4)
  /// The client under test misbehaved: its adapter crashed, hung, answered garbage or broke
  /// the protocol (docs/guide/adapters.md); not a verdict on the client's sign-in.
  static let clientMisbehaved = ExitCode(5)
  /// Bad command-line usage (argument-parser's EX_USAGE).
  static let usage = ExitCode(64)
}
