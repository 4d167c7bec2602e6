import Foundation

/// Renders a docs run as text, JSON (`format`, `version` at the top) or markdown.
public enum DocsReport {
  public static let version = 1

  public static func text(_ r: DocsChecker.Result) -> String {
    var lines: [String] = []
    for p in r.pages { lines.append("\(p.page): \(p.facts) facts, checked against \(p.model)") }
    for (title, list) in [("New findings", r.newFindings), ("Acknowledged", r.acknowledged)] where !list.isEmpty {
      lines.append("")
      lines.append("\(title) (\(list.count)):")
      for f in list {
        lines.append("  \(f.kind.rawValue)  \(f.page):\(f.line)\(f.platform.map { " [\($0)]" } ?? "")  \(f.message)")
        lines.append("      page:  \(f.pageText)")
        lines.append("      model: \(f.modelFile):\(f.modelLine)  \(f.modelText)")
        if let by = f.acknowledgedBy { lines.append("      acknowledged by the note at \(by)") }
      }
    }
    for entry in r.unmatchedNotes {
      lines.append(
        "note at \(entry.modelFile):\(entry.note.line) (\(entry.note.kind ?? "no kind"), page "
          + "\(entry.note.page ?? ""), lines \(entry.note.pageLines.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "none")) "
          + "matches no finding")
    }
    lines.append("")
    lines.append(
      "\(r.pages.count) pages, \(r.findings.count) findings: \(r.newFindings.count) new, "
        + "\(r.acknowledged.count) acknowledged")
    return lines.joined(separator: "\n")
  }

  public static func markdown(_ r: DocsChecker.Result) -> String {
    var lines = ["# Documentation conformance", ""]
    lines.append(
      "\(r.pages.count) pages, \(r.findings.count) findings: \(r.newFindings.count) new, "
        + "\(r.acknowledged.count) acknowledged.")
    for (title, list) in [("New findings", r.newFindings), ("Acknowledged", r.acknowledged)] where !list.isEmpty {
      lines += [
        "", "## \(title)", "", "| kind | page | model | page says | model says | acknowledged by |",
        "|---|---|---|---|---|---|",
      ]
      for f in list {
        let cells = [
          f.kind.rawValue, "\(f.page):\(f.line)", "\(f.modelFile):\(f.modelLine)", f.pageText,
          f.modelText, f.acknowledgedBy ?? "",
        ].map {
          "`"
            + $0.replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "`", with: "'") + "`"
        }
        lines.append("| " + cells.joined(separator: " | ") + " |")
      }
    }
    return lines.joined(separator: "\n")
  }

  public static func json(_ r: DocsChecker.Result) throws -> String {
    func finding(_ f: Finding) -> [String: Any] {
      var d: [String: Any] = [
        "kind": f.kind.rawValue, "page": f.page, "line": f.line, "pageText": f.pageText,
        "modelFile": f.modelFile, "modelLine": f.modelLine, "modelText": f.modelText, "message": f.message,
      ]
      if let p = f.platform { d["platform"] = p }
      if let a = f.acknowledgedBy { d["acknowledgedBy"] = a }
      return d
    }
    let document: [String: Any] = [
      "format": "signin-spec-docs", "version": version,
      "pages": r.pages.map { ["page": $0.page, "model": $0.model, "facts": $0.facts] },
      "new": r.newFindings.map(finding), "acknowledged": r.acknowledged.map(finding),
      "unmatchedNotes": r.unmatchedNotes.map { "\($0.modelFile):\($0.note.line)" },
    ]
    let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }
}
