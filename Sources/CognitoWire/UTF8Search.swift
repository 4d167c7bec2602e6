/// Substring search over UTF-8 bytes, for hot paths that look for ASCII secrets in text.
public enum UTF8Search {
  /// Whether the bytes of `needle` occur in the bytes of `text` (an empty needle always does).
  public static func contains(_ text: String, _ needle: String) -> Bool {
    var text = text
    var needle = needle
    return text.withUTF8 { t in
      needle.withUTF8 { n in
        guard let first = n.first else { return true }
        guard n.count <= t.count else { return false }
        var i = 0
        let last = t.count - n.count
        while i <= last {
          if t[i] == first {
            var j = 1
            while j < n.count && t[i + j] == n[j] { j += 1 }
            if j == n.count { return true }
          }
          i += 1
        }
        return false
      }
    }
  }

  /// Whether every byte of `text` is ASCII.
  public static func isASCII(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { $0.allSatisfy { $0 < 0x80 } }
  }
}
