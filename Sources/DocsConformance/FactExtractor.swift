import Foundation

/// Extracts facts from a read page: step names, sample flows, listed sets, exceptions, API
/// calls and table rows. Each fact keeps the first page line it was seen on (a scraped page
/// repeats every sample with line numbers; the repetition adds nothing).
public enum FactExtractor {
  public static func facts(of page: DocPage) -> [DocFact] {
    var collector = Collector()
    let lines = page.lines
    for (index, line) in lines.enumerated() {
      let text = line.text.trimmingCharacters(in: .whitespaces)
      if text.isEmpty { continue }
      switch line.kind {
      case .code:
        for name in StepNamePatterns.inCode(text) { collector.add(.stepName(name, context: .code), line) }
        for call in apiCalls(text, next: nextCodeLine(after: index, in: lines)) {
          collector.add(.apiCall(method: call.0, label: call.1), line)
        }
        if let members = commentSet(text), let step = collector.sectionStep(line) {
          collector.add(.set(step: step, members: members), line)
        }
      case .table:
        guard let row = Regexes.all(#"^\|\s*`([^`]+)`\s*\|\s*(.*?)\s*\|?$"#, in: text).first else { continue }
        collector.add(.stepName(row[0], context: .table), line)
        collector.add(.tableRow(step: row[0], description: row[1]), line)
        if let members = eitherSet(row[1]) { collector.add(.set(step: row[0], members: members), line) }
      case .prose:
        prose(text, line: line, index: index, lines: lines, into: &collector)
      case .heading:
        continue
      }
    }
    for (content, line) in SampleReader.facts(of: page, sectionStep: collector.sectionStep) {
      collector.addSample(content, line)
    }
    return collector.facts
  }

  static func prose(_ text: String, line: DocPage.Line, index: Int, lines: [DocPage.Line], into c: inout Collector) {
    let names = StepNamePatterns.inProse(text)
    for name in names { c.add(.stepName(name, context: .prose), line) }
    // "If the next step is `X`"; the Japanese pages say 次のステップが X の場合.
    if let first = Regexes.firstGroup(#"next step is\s+`?([A-Za-z_]+)`?"#, in: text)
      ?? Regexes.firstGroup(#"次のステップが\s*`?([A-Za-z_]+)`?\s*の場合"#, in: text), names.contains(first)
    {
      c.setSectionStep(first, line)
    }
    for m in Regexes.all(#"If\s+`?['"]?(\w+)['"]?`?\s+is selected,\s+`?(\w+)`?\s+will be the next step"#, in: text) {
      if let from = c.sectionStep(line) { c.add(.flow(from: from, answer: m[0], expected: m[1]), line) }
    }
    for m in Regexes.all(#"(?:If you receive|receive an?|throws? an?)\s+`?(\w+Exception)`?"#, in: text) {
      if let section = line.section { c.add(.exception(name: m[0], section: section), line) }
    }
    if let step = c.sectionStep(line) {
      if let list = Regexes.firstGroup(#"currently supports (.+?) as (?:MFA methods|authentication factors)"#, in: text)
      {
        c.add(.set(step: step, members: splitList(list)), line)
      }
      if Regexes.matches(#"(?i)(currently supported by|can be (selected|set up)).*:\s*$"#, text) {
        let members = bullets(after: index, in: lines)
        if !members.isEmpty { c.add(.set(step: step, members: members), line) }
      }
    }
  }

  /// `- \`TOTP\`` bullets right below a line (blank lines in between allowed).
  static func bullets(after index: Int, in lines: [DocPage.Line]) -> [String] {
    var members: [String] = []
    var i = index + 1
    while i < lines.count {
      let t = lines[i].text.trimmingCharacters(in: .whitespaces)
      if t.isEmpty && members.isEmpty {
        i += 1
        continue
      }
      guard let m = Regexes.firstGroup(#"^[-*•]\s*`?(?:[A-Za-z_]+\.)?([A-Za-z_]+)`?\s*$"#, in: t) else { break }
      members.append(m)
      i += 1
    }
    return members
  }

  /// "SMS, TOTP, and email" → [SMS, TOTP, email].
  static func splitList(_ list: String) -> [String] {
    list.replacingOccurrences(of: " and ", with: ",").split(separator: ",")
      .map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`'\"")) }
      .filter { !$0.isEmpty }
  }

  /// `challengeResponse: 'EMAIL', // 'EMAIL', 'SMS', or 'TOTP'`: the values the comment allows,
  /// with the answered value (`'SMS_OTP', // or 'EMAIL_OTP', …` lists the others only).
  static func commentSet(_ text: String) -> [String]? {
    guard text.contains("challengeResponse"), let comment = text.components(separatedBy: "//").dropFirst().first
    else { return nil }
    let answered = Regexes.firstGroup(#"challengeResponse\s*:\s*'([A-Z][A-Z_]*)'"#, in: text)
    var values: [String] = []
    for v in (answered.map { [$0] } ?? []) + Regexes.all(#"'([A-Z][A-Z_]*)'"#, in: comment).map({ $0[0] })
    where !values.contains(v) {
      values.append(v)
    }
    return values.count >= 2 ? values : nil
  }

  /// "passing either `"EMAIL"` or `"TOTP"`" / "`MFAType.EMAIL.challengeResponse` or …".
  static func eitherSet(_ text: String) -> [String]? {
    guard let phrase = Regexes.firstGroup(#"either (.+?) to `"#, in: text) else { return nil }
    let values = Regexes.all(#"`"?(?:MFAType\.)?([A-Za-z_]+)(?:\.challengeResponse)?\s*"?`"#, in: phrase).map { $0[0] }
    return values.count >= 2 ? values : nil
  }

  /// `Amplify.Auth.method(label:` (the label may open the next line).
  static func apiCalls(_ text: String, next: String?) -> [(String, String)] {
    Regexes.all(#"(?:Amplify\.Auth|[A-Za-z_]\w*)\.([a-z]\w*)\(\s*(?:(\w+)\s*:)?(\s*$)?"#, in: text).compactMap { m in
      if !m[1].isEmpty || !m[2].isEmpty && !text.hasSuffix("(") { return (m[0], m[1]) }
      if !m[2].isEmpty || text.hasSuffix("("), let next,
        let label = Regexes.firstGroup(#"^\s*(?:\d+\s*)?(\w+)\s*:"#, in: next)
      {
        return (m[0], label)
      }
      return (m[0], "")
    }
  }

  static func nextCodeLine(after index: Int, in lines: [DocPage.Line]) -> String? {
    var i = index + 1
    while i < lines.count, lines[i].kind == .code {
      if !lines[i].text.trimmingCharacters(in: .whitespaces).isEmpty { return lines[i].text }
      i += 1
    }
    return nil
  }

  /// Deduplicates facts (first occurrence wins) and remembers the step each section is about.
  struct Collector {
    var facts: [DocFact] = []
    private var seen: Set<String> = []
    private var sectionSteps: [String: String] = [:]

    mutating func add(_ content: DocFact.Content, _ line: DocPage.Line) {
      let key = "\(content)|\(line.platform ?? "-")|\(line.section ?? "-")"
      guard seen.insert(key).inserted else { return }
      facts.append(
        DocFact(
          content: content, line: line.number, platform: line.platform, section: line.section,
          text: line.text.trimmingCharacters(in: .whitespaces)))
    }

    /// A fact read from a sample's behaviour: kept once per line (the Async and Combine copies of
    /// one sample are separate findings), never merged with a name or prose fact.
    mutating func addSample(_ content: DocFact.Content, _ line: DocPage.Line) {
      guard seen.insert("sample|\(content)|\(line.number)").inserted else { return }
      var fact = DocFact(
        content: content, line: line.number, platform: line.platform, section: line.section,
        text: line.text.trimmingCharacters(in: .whitespaces))
      fact.sample = true
      facts.append(fact)
    }

    mutating func setSectionStep(_ name: String, _ line: DocPage.Line) {
      let key = "\(line.section ?? "-")|\(line.platform ?? "-")"
      if sectionSteps[key] == nil { sectionSteps[key] = name }
    }

    func sectionStep(_ line: DocPage.Line) -> String? {
      sectionSteps["\(line.section ?? "-")|\(line.platform ?? "-")"]
    }
  }
}
