import Foundation

/// Reads a documentation page in either style (markdown-like or scraped text) into lines that
/// know their kind (prose, code, table, heading), platform family and section.
public enum PageReader {
  public static func read(path: String) throws -> DocPage {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DocsError("\(path): cannot read the page (no such file or not readable)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw DocsError("\(path):1: the page is not UTF-8 text")
    }
    return parse(text: text, path: path)
  }

  public static func parse(text: String, path: String) -> DocPage {
    let raw = text.components(separatedBy: "\n").map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
    let markdown = raw.contains { $0.hasPrefix("## ") || $0.hasPrefix("```") || $0.hasPrefix("<!-- Platform:") }
    let lines = markdown ? readMarkdown(raw) : readScraped(raw)
    return DocPage(path: path, style: markdown ? .markdown : .scraped, lines: lines, year: year(in: raw))
  }

  static func year(in lines: [String]) -> String? {
    let patterns = [#"last-updated:\s*"?(\d{4})"#, #"Page updated \w+ \d+, (\d{4})"#]
    for line in lines.prefix(40) {
      for pattern in patterns { if let y = Regexes.firstGroup(pattern, in: line) { return y } }
    }
    return nil
  }

  static func readMarkdown(_ raw: [String]) -> [DocPage.Line] {
    var result: [DocPage.Line] = []
    var marker: String?
    var fence: String??  // nil: outside a fence; .some(family) inside
    var section: String?
    for (i, text) in raw.enumerated() {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      let unquoted = trimmed.hasPrefix("> ") ? String(trimmed.dropFirst(2)) : trimmed
      if unquoted.hasPrefix("```") {
        if fence == nil {
          let language = unquoted.dropFirst(3).split(separator: " ").first.map(String.init) ?? ""
          fence = .some(PlatformFamilies.family(ofFenceLanguage: language))
        } else {
          fence = nil
        }
        result.append(.init(number: i + 1, text: text, kind: .code, platform: marker, section: section))
        continue
      }
      if let inFence = fence {
        result.append(.init(number: i + 1, text: text, kind: .code, platform: inFence ?? marker, section: section))
        continue
      }
      if let list = Regexes.firstGroup(#"^<!--\s*Platform:\s*(.*?)\s*-->"#, in: trimmed) {
        marker = PlatformFamilies.family(ofMarkerList: list)
      } else if trimmed.hasPrefix("<!-- /Platform") {
        marker = nil
      }
      let kind: DocPage.LineKind
      if trimmed.hasPrefix("#") {
        let title = trimmed.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
        // `#### [Java]` names a tab of the same section, not a new section.
        if !title.hasPrefix("[") { section = title }
        kind = .heading(title)
      } else if trimmed.hasPrefix("|") {
        kind = .table
      } else {
        kind = .prose
      }
      result.append(.init(number: i + 1, text: text, kind: kind, platform: marker, section: section))
    }
    return result
  }

  static func readScraped(_ raw: [String]) -> [DocPage.Line] {
    let codeLines = raw.filter(looksLikeCode)
    let family = PlatformFamilies.family(ofCode: codeLines.joined(separator: "\n"))
    var result: [DocPage.Line] = []
    var section: String?
    for (i, text) in raw.enumerated() {
      let kind: DocPage.LineKind
      if looksLikeCode(text) {
        kind = .code
      } else if isTitle(text, before: i > 0 ? raw[i - 1] : "", after: i + 1 < raw.count ? raw[i + 1] : "") {
        section = text.trimmingCharacters(in: .whitespaces)
        kind = .heading(section!)
      } else {
        kind = .prose
      }
      result.append(.init(number: i + 1, text: text, kind: kind, platform: family, section: section))
    }
    return result
  }

  /// A scraped line is code when it is numbered (`12 case .x:`) or carries code punctuation.
  static func looksLikeCode(_ line: String) -> Bool {
    let t = line.trimmingCharacters(in: .whitespaces)
    if t.isEmpty { return false }
    if t.first!.isNumber, Regexes.matches(#"^\d+(\S|\s+\S|$)"#, t), !Regexes.matches(#"^\d+\.\s"#, t) { return true }
    let starts = [
      "case ", "func ", "final ", "Future<", "switch ", "//", "return ", "print(", "safePrint(", "try ",
      "do {", "}", "{", "void ", "let ", "var ", "import ", "await ", "if ", "} ", "default:", "break",
    ]
    if starts.contains(where: { t.hasPrefix($0) }) { return true }
    return t.contains("{") || t.contains("();") || t.hasSuffix("(") || t.hasSuffix(");")
      || t.hasSuffix(",")
        && !t.contains(". ")
  }

  /// A short title line between blank lines (scraped pages keep headings as plain lines).
  static func isTitle(_ line: String, before: String, after: String) -> Bool {
    let t = line.trimmingCharacters(in: .whitespaces)
    guard !t.isEmpty, before.trimmingCharacters(in: .whitespaces).isEmpty,
      after.trimmingCharacters(in: .whitespaces).isEmpty
    else { return false }
    let words = t.split(separator: " ")
    guard words.count <= 8, let last = t.last, !".:;,?!)".contains(last), t.first?.isUppercase ?? false else {
      return false
    }
    return !t.contains("(") && !t.contains("=")
  }
}
