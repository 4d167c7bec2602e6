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
    var language: String?
    var blocks = 0
    var section: String?
    for (i, text) in raw.enumerated() {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      let quoted = trimmed.hasPrefix("> ")
      let unquoted = quoted ? String(trimmed.dropFirst(2)) : trimmed
      if unquoted.hasPrefix("```") {
        if fence == nil {
          let raw = unquoted.dropFirst(3).split(separator: " ").first.map(String.init) ?? ""
          fence = .some(PlatformFamilies.family(ofFenceLanguage: raw))
          language = PlatformFamilies.language(ofFence: raw)
          blocks += 1
        } else {
          fence = nil
        }
        result.append(.init(number: i + 1, text: text, kind: .code, platform: marker, section: section))
        continue
      }
      if let inFence = fence {
        let code = quoted ? String(text.drop { $0 == " " || $0 == "\t" }.dropFirst(2)) : text
        result.append(
          .init(
            number: i + 1, text: text, kind: .code, platform: inFence ?? marker, section: section, block: blocks,
            language: language, code: code))
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

  /// The most lines in a row a sample keeps only because its braces are open (a call's
  /// arguments, a closure's body); past it the sample ends, as at prose.
  static let maxContinuedLines = 12

  /// A scraped page's samples: a line numbered `1` starts one; while a sample's braces are open
  /// every non-blank line is code (a call's arguments continue on the next line); a blank line,
  /// prose or a title ends it. The run-together copy right above a numbered `1` line is marked
  /// `duplicate`, and numbered lines keep their code without the number.
  static func readScraped(_ raw: [String]) -> [DocPage.Line] {
    let codeLines = raw.filter(looksLikeCode)
    let family = PlatformFamilies.family(ofCode: codeLines.joined(separator: "\n"))
    let language = PlatformFamilies.language(ofFamily: family)
    var result: [DocPage.Line] = []
    var section: String?
    var block: Int?
    var blocks = 0
    var depth = 0
    // Lines in a row kept as code only because braces are open: an unbalanced `{` must not turn
    // the rest of the page into code.
    var continued = 0
    for (i, text) in raw.enumerated() {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      let next = i + 1 < raw.count ? raw[i + 1].trimmingCharacters(in: .whitespaces) : ""
      let numbered = numberedCode(trimmed)
      let looksLike = looksLikeCode(text)
      let continues =
        !looksLike && depth > 0 && block != nil && !trimmed.isEmpty && continued < maxContinuedLines
        && !isTitle(text, before: i > 0 ? raw[i - 1] : "", after: i + 1 < raw.count ? raw[i + 1] : "")
      continued = continues ? continued + 1 : 0
      if looksLike || continues {
        if numbered == nil, Regexes.matches(#"^1(\D|$)"#, next) {
          result.append(
            .init(number: i + 1, text: text, kind: .code, platform: family, section: section, duplicate: true))
          continue
        }
        if block == nil || numbered?.number == 1 {
          blocks += 1
          block = blocks
          depth = 0
        }
        let code = numbered?.code ?? text
        depth = max(0, depth + CodeText.braceBalance(code))
        result.append(
          .init(
            number: i + 1, text: text, kind: .code, platform: family, section: section, block: block,
            language: language, code: code))
        continue
      }
      block = nil
      depth = 0
      let kind: DocPage.LineKind
      if isTitle(text, before: i > 0 ? raw[i - 1] : "", after: i + 1 < raw.count ? raw[i + 1] : "") {
        section = trimmed
        kind = .heading(trimmed)
      } else {
        kind = .prose
      }
      result.append(.init(number: i + 1, text: text, kind: kind, platform: family, section: section))
    }
    return result
  }

  /// `12 case .x:` / `2case .x` → (12, "case .x:"); nil for a line without a number (or a `1. ` list item).
  static func numberedCode(_ trimmed: String) -> (number: Int, code: String)? {
    guard let first = trimmed.first, first.isASCII, first.isNumber, !Regexes.matches(#"^\d+\.\s"#, trimmed),
      let m = Regexes.all(#"^(\d{1,6})(.*)$"#, in: trimmed).first, let n = Int(m[0])
    else { return nil }
    return (n, m[1])
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
    // A title starts with a capital or a character of a script without case (`MFA セットアップ…`).
    guard words.count <= 8, t.count <= 80, let last = t.last, let first = t.first, !".:;,?!)。、：！？".contains(last),
      first.isUppercase || !first.isASCII && first.isLetter
    else {
      return false
    }
    return !t.contains("(") && !t.contains("=")
  }
}
