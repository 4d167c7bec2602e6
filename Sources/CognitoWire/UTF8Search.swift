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
    return text.withUTF8 { contains($0, needle) }
  }

  /// `contains(_:_:)` in bytes a caller holds (one text searched for several needles).
  public static func contains(_ t: UnsafeBufferPointer<UInt8>, _ needle: String) -> Bool {
    var needle = needle
    return needle.withUTF8 { n in
      guard let first = n.first else { return true }
      guard n.count <= t.count, let base = t.baseAddress, let needleBase = n.baseAddress else { return false }
      // memchr for each candidate first byte, then a comparison of the rest.
      var start = 0
      let last = t.count - n.count
      while start <= last {
        guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return false }
        let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        if n.count == 1 || memcmp(base + i + 1, needleBase + 1, n.count - 1) == 0 { return true }
        start = i + 1
      }
      return false
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
    guard isPrintableASCII(text) else { return nil }
    return replacing(needle, with: replacement, inPrintableASCII: text)
  }

  /// `replacing(_:with:in:)` for a `text` known to be printable ASCII (so a caller replacing
  /// several needles in turn with a printable ASCII replacement reads the text's bytes once for
  /// that). nil when `needle` is empty or not ASCII; `text` itself when it does not occur.
  public static func replacing(_ needle: String, with replacement: String, inPrintableASCII text: String) -> String? {
    guard !needle.isEmpty, isASCII(needle) else { return nil }
    var text = text
    var needle = needle
    var replacement = replacement
    let replaced: [UInt8]? = text.withUTF8 { t in
      needle.withUTF8 { n in
        replacement.withUTF8 { r in
          guard let base = t.baseAddress, let needleBase = n.baseAddress, n.count <= t.count else { return nil }
          var result: [UInt8] = []
          // Each occurrence found with memchr and memcmp, as `contains` finds it; the bytes
          // between occurrences copied in one piece.
          var copied = 0
          var start = 0
          let last = t.count - n.count
          while start <= last {
            guard let hit = memchr(base + start, Int32(n[0]), last - start + 1) else { break }
            let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            guard n.count == 1 || memcmp(base + i + 1, needleBase + 1, n.count - 1) == 0 else {
              start = i + 1
              continue
            }
            if result.isEmpty { result.reserveCapacity(t.count + r.count) }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: t[copied..<i]))
            result.append(contentsOf: r)
            copied = i + n.count
            start = copied
          }
          if copied == 0 { return nil }
          result.append(contentsOf: UnsafeBufferPointer(rebasing: t[copied...]))
          return result
        }
      }
    }
    return replaced.map { String(decoding: $0, as: UTF8.self) } ?? text
  }
}
