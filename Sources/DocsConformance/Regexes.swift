import Foundation

/// Small helpers over NSRegularExpression, with compiled patterns cached. Every pattern is a
/// constant of this module (never text from a page or a model), so one that does not compile is
/// a programming error.
enum Regexes {
  nonisolated(unsafe) private static var cache: [String: NSRegularExpression] = [:]
  private static let lock = NSLock()

  static func regex(_ pattern: String) -> NSRegularExpression {
    lock.lock()
    defer { lock.unlock() }
    if let r = cache[pattern] { return r }
    let r: NSRegularExpression
    do { r = try NSRegularExpression(pattern: pattern) } catch {
      preconditionFailure("DocsConformance's pattern \(pattern) does not compile: \(error)")
    }
    cache[pattern] = r
    return r
  }

  static func matches(_ pattern: String, _ text: String) -> Bool {
    regex(pattern).firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  /// Every match's capture groups (group 1…n; an unmatched group is "").
  static func all(_ pattern: String, in text: String) -> [[String]] {
    regex(pattern).matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
      (1..<max(m.numberOfRanges, 2)).map { g in
        guard g < m.numberOfRanges, let r = Range(m.range(at: g), in: text) else { return "" }
        return String(text[r])
      }
    }
  }

  static func firstGroup(_ pattern: String, in text: String) -> String? {
    all(pattern, in: text).first?.first
  }
}
