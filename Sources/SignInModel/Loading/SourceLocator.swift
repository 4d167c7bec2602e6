import Yams

/// Maps places in a scalar's value back to the model file's line and column, so an error in a
/// guard written over several lines (a folded or literal block, a multi-line plain or quoted
/// scalar) is reported where its text is, not where the scalar starts.
struct SourceLocator {
  private let lines: [[Character]]
  private let lineStartBytes: [Int]

  init(_ text: String) {
    var lines: [[Character]] = []
    var starts: [Int] = [0]
    var byte = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lines.append(Array(line))
      byte += line.utf8.count + 1
      starts.append(byte)
    }
    self.lines = lines
    self.lineStartBytes = starts
  }

  /// The 1-based line and column of a byte offset into the text.
  func position(ofByte offset: Int) -> (line: Int, column: Int) {
    var line = 0
    while line + 1 < lineStartBytes.count, lineStartBytes[line + 1] <= offset { line += 1 }
    return (min(line + 1, max(1, lines.count)), offset - lineStartBytes[min(line, lineStartBytes.count - 1)] + 1)
  }

  /// The 1-based line and column of character `offset` of `scalar`'s value, which starts at `mark`.
  func position(of offset: Int, in scalar: Node.Scalar, at mark: Mark) -> (line: Int, column: Int) {
    var row = mark.line - 1
    var col = mark.column - 1
    guard row >= 0, row < lines.count else { return (mark.line, mark.column) }
    switch scalar.style {
    case .singleQuoted, .doubleQuoted: col += 1
    case .literal, .folded:
      row += 1
      col = 0
    default: break
    }
    let value = Array(scalar.string)
    func current() -> Character? {
      guard row < lines.count else { return nil }
      return col < lines[row].count ? lines[row][col] : "\n"
    }
    func advance() {
      guard row < lines.count else { return }
      if col < lines[row].count {
        col += 1
      } else {
        row += 1
        col = 0
      }
    }
    func skipSpace() {
      while let c = current(), c.isWhitespace { advance() }
    }
    var i = 0
    var steps = 0
    while i < min(offset, value.count) {
      if value[i].isWhitespace {
        skipSpace()
        while i < value.count, value[i].isWhitespace { i += 1 }
        continue
      }
      skipSpace()
      guard let c = current() else { return (mark.line, mark.column) }
      if c == value[i] { i += 1 }
      advance()
      steps += 1
      if steps > 4 * (value.count + 16) { return (mark.line, mark.column) }
    }
    if offset < value.count, !value[offset].isWhitespace { skipSpace() }
    guard row < lines.count else { return (mark.line, mark.column) }
    return (row + 1, col + 1)
  }
}
