/// Checks on a model file's bytes before any YAML is read, each located at line:column:
/// text that is not UTF-8, and control characters YAML does not allow.
enum SourceTextCheck {
  /// The 1-based line and column (in bytes) of the first byte that is not valid UTF-8.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8)? {
    var i = 0
    var line = 1
    var lineStart = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == 0x0A {
        line += 1
        lineStart = i + 1
        i += 1
        continue
      }
      let length = sequenceLength(bytes, at: i)
      if length == 0 { return (line, i - lineStart + 1, b) }
      i += length
    }
    return nil
  }

  /// The length of the well-formed UTF-8 sequence at `i` (RFC 3629), or 0 when it is not one.
  private static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
    let b = bytes[i]
    func continuation(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
      i + k < bytes.count && range.contains(bytes[i + k])
    }
    switch b {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: return continuation(1) ? 2 : 0
    case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
    case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : 0
    case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
    case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
    default: return 0
    }
  }

  /// The first character YAML does not allow in a document (C0 and C1 controls other than
  /// tab, line feed and carriage return; DEL; U+FFFE, U+FFFF), with its 1-based line and column.
  static func firstControlCharacter(_ text: String) -> (line: Int, column: Int, scalar: Unicode.Scalar)? {
    var line = 1
    var column = 0
    for scalar in text.unicodeScalars {
      if scalar == "\n" {
        line += 1
        column = 0
        continue
      }
      column += 1
      let v = scalar.value
      let allowed =
        v == 0x09 || v == 0x0D || v == 0x85 || (v >= 0x20 && v < 0x7F)
        || (v >= 0xA0 && v != 0xFFFE && v != 0xFFFF)
      if !allowed { return (line, column, scalar) }
    }
    return nil
  }
}
