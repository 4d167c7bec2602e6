/// The nesting depth of JSON text, found without parsing, so that a file of 100,000 `[` is
/// refused before a recursive parser could overflow the stack (hostile counterexample files).
public enum JSONNesting {
  /// The deepest any file the tool reads may nest arrays and objects.
  public static let maxDepth = 200

  /// The first place where `bytes` nests deeper than `limit`: the byte offset, or nil.
  public static func firstTooDeep(_ bytes: [UInt8], limit: Int = maxDepth) -> Int? {
    var depth = 0
    var inString = false
    var escaped = false
    for (offset, byte) in bytes.enumerated() {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > limit { return offset }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
      default: break
      }
    }
    return nil
  }
}
