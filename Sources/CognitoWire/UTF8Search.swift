#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Substring search over UTF-8 bytes, for hot paths that look for ASCII secrets in text.
public enum UTF8Search {
  /// Whether the bytes of `needle` occur in the bytes of `text` (an empty needle always does).
  public static func contains(_ text: String, _ needle: String) -> Bool {
    var text = text
    var needle = needle
    return text.withUTF8 { t in
      needle.withUTF8 { n in
        guard let first = n.first else { return true }
        guard n.count <= t.count, let base = t.baseAddress else { return false }
        // memchr for each candidate first byte, then a comparison of the rest.
        var start = 0
        let last = t.count - n.count
        while start <= last {
          guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return false }
          let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
          if n.count == 1 || memcmp(base + i + 1, n.baseAddress! + 1, n.count - 1) == 0 { return true }
          start = i + 1
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

  /// Whether every byte of `text` is printable ASCII (space to tilde).
  public static func isPrintableASCII(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
  }

  /// `text` with every occurrence of `needle` (left to right, not overlapping) replaced by
  /// `replacement`, byte by byte: what Foundation's `replacingOccurrences(of:with:)` gives
  /// when `text` is printable ASCII and `needle` is ASCII. nil when they are not.
  public static func replacing(_ needle: String, with replacement: String, in text: String) -> String? {
    guard !needle.isEmpty, isPrintableASCII(text), isASCII(needle) else { return nil }
    guard contains(text, needle) else { return text }
    var text = text
    var needle = needle
    return text.withUTF8 { t in
      needle.withUTF8 { n in
        var result: [UInt8] = []
        result.reserveCapacity(t.count)
        var i = 0
        while i < t.count {
          if i + n.count <= t.count && t[i] == n[0] {
            var j = 1
            while j < n.count && t[i + j] == n[j] { j += 1 }
            if j == n.count {
              result.append(contentsOf: replacement.utf8)
              i += n.count
              continue
            }
          }
          result.append(t[i])
          i += 1
        }
        return String(decoding: result, as: UTF8.self)
      }
    }
  }
}
