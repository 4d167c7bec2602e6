import Foundation

/// An adapter's command line, split as a shell splits a simple command: words separated by
/// blanks; `'…'` keeps everything literally; `"…"` keeps blanks and takes a backslash before
/// `"`, `\`, `$` or a backtick as escaping it; a backslash outside quotes escapes the next
/// character. No expansion of any kind (variables, globs, `~`), no operators.
public struct AdapterCommand: Sendable, Equatable, CustomStringConvertible {
  /// Why a command line could not be split.
  public enum SplitError: Error, Equatable, CustomStringConvertible {
    case empty
    case unterminatedQuote(Character)
    case trailingBackslash

    public var description: String {
      switch self {
      case .empty: return "the adapter command is empty"
      case .unterminatedQuote(let q): return "the adapter command has an unterminated \(q) quote"
      case .trailingBackslash: return "the adapter command ends in a backslash"
      }
    }
  }

  /// The program: a path, or a name looked up in `PATH`.
  public let program: String
  public let arguments: [String]
  /// The command line as given, for messages.
  public let text: String

  public var description: String { text }

  public init(program: String, arguments: [String] = []) {
    self.program = program
    self.arguments = arguments
    self.text = ([program] + arguments).map(Self.quoted).joined(separator: " ")
  }

  /// Splits `line` into the program and its arguments.
  public init(parsing line: String) throws(SplitError) {
    let words = try Self.split(line)
    guard let first = words.first else { throw .empty }
    program = first
    arguments = Array(words.dropFirst())
    text = line
  }

  /// The words of `line`.
  public static func split(_ line: String) throws(SplitError) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var characters = line.makeIterator()
    while let c = characters.next() {
      switch c {
      case " ", "\t", "\n":
        if inWord { words.append(word) }
        word = ""
        inWord = false
      case "'":
        inWord = true
        var closed = false
        while let d = characters.next() {
          if d == "'" {
            closed = true
            break
          }
          word.append(d)
        }
        if !closed { throw .unterminatedQuote("'") }
      case "\"":
        inWord = true
        var closed = false
        while let d = characters.next() {
          if d == "\"" {
            closed = true
            break
          }
          if d == "\\" {
            guard let e = characters.next() else { throw .unterminatedQuote("\"") }
            if !"\"\\$`".contains(e) { word.append("\\") }
            word.append(e)
          } else {
            word.append(d)
          }
        }
        if !closed { throw .unterminatedQuote("\"") }
      case "\\":
        guard let e = characters.next() else { throw .trailingBackslash }
        inWord = true
        if e != "\n" { word.append(e) }
      default:
        inWord = true
        word.append(c)
      }
    }
    if inWord { words.append(word) }
    return words
  }

  /// The program's file: `program` itself when it names a path, else the first executable of
  /// that name in `PATH`; nil when there is none.
  public func executable(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> URL? {
    if program.contains("/") {
      return FileManager.default.isExecutableFile(atPath: program) ? URL(fileURLWithPath: program) : nil
    }
    for folder in (path ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(program)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  /// `word` quoted for a shell when it needs it.
  public static func quoted(_ word: String) -> String {
    let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
    return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
