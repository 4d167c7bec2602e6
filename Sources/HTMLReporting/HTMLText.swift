/// Text made safe for HTML: element content and attribute values (double-quoted).
enum HTMLText {
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for c in text.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// An id fragment from any text: letters, digits and `-` only.
  static func slug(_ text: String) -> String {
    String(text.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "-" })
  }
}

/// Lines of HTML; `add` escapes nothing, so callers escape what they interpolate.
struct HTMLLines {
  private(set) var lines: [String] = []

  mutating func add(_ line: String) { lines.append(line) }

  var text: String { lines.joined(separator: "\n") + "\n" }
}
