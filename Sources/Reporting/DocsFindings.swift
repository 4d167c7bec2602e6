import DocsConformance

/// `docs`' findings as SARIF: each at its page file and line, with the model line it was
/// compared with as a related location; a finding a model note acknowledges carries that note
/// as an in-source suppression; a note that matches no finding is a `note` at its model line.
public enum DocsFindings {
  /// The rule of a model note that names a page but matches no finding.
  public static let unmatchedRule = "note-unmatched"

  /// `pagePaths` gives the path each page was read from by its file name (findings name the
  /// page by file name); a page not in it is located by its file name.
  public static func sarif(
    _ result: DocsChecker.Result, pagePaths: [String: String] = [:], toolVersion: String
  ) -> SARIFLog {
    var rules = FindingKind.allCases.map { SARIFLog.Rule(id: $0.rawValue, description: $0.meaning) }
    rules.append(.init(id: unmatchedRule, description: "A model note that names a page but matches no finding."))
    var findings: [SARIFLog.Finding] = result.findings.map { f in
      let related = SARIFLog.Location(
        file: f.modelFile, line: f.modelLine, message: "the model: \(f.modelText)")
      let suppression = f.acknowledgedBy.map { by in
        SARIFLog.Suppression(justification: "acknowledged by the note at \(by)", location: location(by))
      }
      let platform = f.platform.map { " [\($0)]" } ?? ""
      return .init(
        ruleID: f.kind.rawValue, level: .error, message: "\(f.message)\(platform) (the page: \(f.pageText))",
        location: .init(file: pagePaths[f.page] ?? f.page, line: f.line), related: [related],
        suppression: suppression)
    }
    for entry in result.unmatchedNotes {
      let lines = entry.note.pageLines.map { "lines \($0.lowerBound)-\($0.upperBound)" } ?? "no lines"
      findings.append(
        .init(
          ruleID: unmatchedRule, level: .note,
          message:
            "the note (\(entry.note.kind ?? "no kind"), page \(entry.note.page ?? ""), \(lines)) matches no finding",
          location: .init(file: entry.modelFile, line: entry.note.line)))
    }
    return SARIFLog(toolVersion: toolVersion, rules: rules, findings: findings)
  }

  /// `file:line` as a location (the whole file when there is no line number).
  static func location(_ fileAndLine: String) -> SARIFLog.Location {
    guard let colon = fileAndLine.lastIndex(of: ":"), let line = Int(fileAndLine[fileAndLine.index(after: colon)...])
    else { return .init(file: fileAndLine, line: 0) }
    return .init(file: String(fileAndLine[..<colon]), line: line)
  }
}
