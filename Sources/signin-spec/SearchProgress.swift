import Foundation

/// The progress line of a long search: on standard error, only when it is a terminal and `CI`
/// is unset, rewritten in place about once a second after the first second.
enum SearchProgress {
  static var enabled: Bool { isatty(2) != 0 && ProcessInfo.processInfo.environment["CI"] == nil }

  /// A reporter for the explicit search of `model`, or nil when no line should be shown.
  static func terminalLine(_ model: String) -> (@Sendable (Int, Int) -> Void)? {
    guard enabled else { return nil }
    return { classes, states in
      FileHandle.standardError.write(
        Data("\r\u{1B}[K  \(model): explicit search, \(classes) classes, \(states) states".utf8))
    }
  }

  /// Clears the line when a reporter was active.
  static func finish(_ reporter: (@Sendable (Int, Int) -> Void)?) {
    if reporter != nil { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
  }
}
