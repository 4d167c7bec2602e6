import Foundation

/// One documentation page as read: its lines, its style, and the platform of each line.
public struct DocPage: Sendable {
  /// How the page was written down.
  public enum Style: String, Sendable {
    /// `##` headings, fenced code, tables, `<!-- Platform: … -->` sections (seeds 000, 001).
    case markdown
    /// Text scraped from a rendered page: no headings or fences; each sample appears run
    /// together on one line and again with line numbers (seeds 002–004).
    case scraped
  }

  /// What a line is.
  public enum LineKind: Sendable, Equatable {
    case prose
    case code
    case table
    case heading(String)
  }

  /// One line with what the reader decided about it.
  public struct Line: Sendable {
    /// 1-based line number in the file.
    public let number: Int
    public let text: String
    public let kind: LineKind
    /// The platform family the line belongs to (`swift`, `js`, `android`, `flutter`), if known.
    public let platform: String?
    /// The nearest heading above the line (markdown pages), used to tie prose to a step.
    public let section: String?
    /// The code sample the line belongs to (its ordinal on the page), nil outside a sample and on fence lines.
    public let block: Int?
    /// The sample's language as written (`swift`, `kotlin`, `java`, `dart`, `ts`), if known.
    public let language: String?
    /// The code itself: the text without a scraped page's line-number prefix (`12 case .x:`, `2case .x`).
    public let code: String
    /// A scraped page's run-together copy of a sample that is repeated below with line numbers.
    public let duplicate: Bool

    public init(
      number: Int, text: String, kind: LineKind, platform: String?, section: String?, block: Int? = nil,
      language: String? = nil, code: String? = nil, duplicate: Bool = false
    ) {
      self.number = number
      self.text = text
      self.kind = kind
      self.platform = platform
      self.section = section
      self.block = block
      self.language = language
      self.code = code ?? text
      self.duplicate = duplicate
    }
  }

  /// The path as given.
  public let path: String
  /// The file name (`000_cee021a6d97d2a62.txt`).
  public var fileName: String { (path as NSString).lastPathComponent }
  public let style: Style
  public let lines: [Line]
  /// The year the page says it was updated, if it says.
  public let year: String?

  public init(path: String, style: Style, lines: [Line], year: String?) {
    self.path = path
    self.style = style
    self.lines = lines
    self.year = year
  }
}
