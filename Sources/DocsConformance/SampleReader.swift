import Foundation

/// Reads how a page's code samples behave, for the sample checks: the step a sample expects after
/// a selection answer (a `.flow`, or `.staleResult` when it tests an earlier result), Dart arms
/// that fall through, caught exceptions, set literals, and names read but never defined.
enum SampleReader {
  /// Facts with the page line each was found on.
  static func facts(of page: DocPage, sectionStep: (DocPage.Line) -> String?) -> [(DocFact.Content, DocPage.Line)] {
    let samples = CodeSample.samples(of: page)
    var functionsByLanguage: [String: Set<String>] = [:]
    for sample in samples {
      // Functions and imports are the page's: one fence imports what the next one calls.
      functionsByLanguage[languageGroup(sample.language), default: []].formUnion(
        sample.functions.map(\.name) + sample.imported)
    }
    var result: [(DocFact.Content, DocPage.Line)] = []
    for sample in samples {
      result += answers(sample, sectionStep: sectionStep)
      result += fallThrough(sample)
      result += caught(sample)
      result += sets(sample, sectionStep: sectionStep)
      result += undefined(sample, functions: functionsByLanguage[languageGroup(sample.language)] ?? [])
    }
    return result
  }

  /// Kotlin and Java samples share an Android page's functions.
  static func languageGroup(_ language: String) -> String {
    language == "kotlin" || language == "java" ? "android" : language
  }

  // MARK: - Answer → the step the sample expects next

  /// The answers a selection step takes (the model's `select…` responses).
  static let selections = ["EMAIL", "TOTP", "SMS", "EMAIL_OTP", "SMS_OTP", "WEB_AUTHN", "PASSWORD", "PASSWORD_SRP"]

  static let answerPatterns = [
    #"(?:MFAType|AuthFactorType|MfaType)\.(\w+)\.(?:challengeResponse|getChallengeResponse\(\)|confirmationValue)"#,
    #"challengeResponse\s*:\s*['"]([A-Za-z_]+)['"]"#,
  ]

  /// `MFAType.email` / `'EMAIL'` / `AuthFactorType.SMS_OTP` → the selection, nil for free text.
  static func selection(_ raw: String) -> String? {
    let key = raw.lowercased().replacingOccurrences(of: "_", with: "")
    return selections.first { $0.lowercased().replacingOccurrences(of: "_", with: "") == key }
  }

  static func answers(_ s: CodeSample, sectionStep: (DocPage.Line) -> String?) -> [(DocFact.Content, DocPage.Line)] {
    var result: [(DocFact.Content, DocPage.Line)] = []
    for (i, line) in s.lines.enumerated() where Regexes.matches(#"\bconfirmSignIn\s*\("#, line.text.bare) {
      // The call's arguments may continue on the next lines (000:2444-2445); a callback that
      // follows the answer (001:1864-1866) is searched, not skipped.
      var call = line.text.code
      var end = i
      func answer() -> String? { answerPatterns.lazy.compactMap { Regexes.firstGroup($0, in: call) }.first }
      while answer() == nil, call.filter({ $0 == "(" }).count > call.filter({ $0 == ")" }).count,
        end + 1 < s.lines.count, end < i + 8
      {
        end += 1
        call += " " + s.lines[end].text.code
      }
      guard let answer = answer().flatMap(selection) else { continue }
      // The step answered: the arm or `if` around the call, else the section's step, else the
      // step the sample last tested for (001:1853 tests for first factor selection, then answers it).
      let answered = s.answeredStep(at: i)
      let from = answered?.step ?? sectionStep(line.page) ?? s.tests.last { $0.line < i }?.step
      // The step the sample then expects: the first step test after the call, in the same arm,
      // `if` body or function, before another sign-in call.
      var scopeEnd = s.lines.count - 1
      if let a = answered { scopeEnd = min(scopeEnd, a.end) }
      if let f = s.enclosing(i).last { scopeEnd = min(scopeEnd, s.functions[f].end) }
      guard end + 1 <= scopeEnd else { continue }
      for j in (end + 1)...scopeEnd {
        if Regexes.matches(#"\b(?:confirmSignIn|signIn)\s*\("#, s.lines[j].text.bare) { break }
        guard let test = s.tests.first(where: { $0.line == j }) else { continue }
        guard let bound = s.binding(of: test.variable, at: j) else { break }
        if bound >= i {
          if let from { result.append((.flow(from: from, answer: answer, expected: test.step), s.lines[j].page)) }
        } else {
          result.append(
            (
              .staleResult(
                variable: test.variable, boundAt: s.lines[bound].number, answer: answer, expected: test.step),
              s.lines[j].page
            ))
        }
        break
      }
    }
    return result
  }

  // MARK: - Dart arms that fall through

  /// In Dart an arm with no statement falls into the next one: a run of empty arms runs the body
  /// of the first arm after it (000:649-672: every step "Sign in is complete").
  static func fallThrough(_ s: CodeSample) -> [(DocFact.Content, DocPage.Line)] {
    guard s.language == "dart" else { return [] }
    var result: [(DocFact.Content, DocPage.Line)] = []
    for arms in s.arms {
      var run: [CodeSample.Arm] = []
      for arm in arms {
        if arm.empty {
          run.append(arm)
          continue
        }
        if !run.isEmpty {
          let into = arm.step ?? "default"
          result.append(
            (
              .armFallsThrough(steps: run.map { $0.step ?? "default" }, into: into, intoLine: s.lines[arm.head].number),
              s.lines[run[0].head].page
            ))
        }
        run = []
      }
    }
    return result
  }

  // MARK: - Caught exceptions

  static let generic: Set<String> = ["Exception", "AuthException", "AuthError", "Error"]

  static func caught(_ s: CodeSample) -> [(DocFact.Content, DocPage.Line)] {
    let patterns = [
      #"\binstanceof\s+(\w+Exception)\b"#, #"\bcatch\s*\(\s*(\w+Exception)\s+\w+\s*\)"#,
      #"^\s*is\s+(\w+Exception)\s*->"#, #"\bon\s+(\w+Exception)\s+catch\b"#,
      #"\bcatch\s+let\s+\w+\s+as\s+(\w+)"#, #"\.name\s*===?\s*['"](\w+Exception)['"]"#,
    ]
    var result: [(DocFact.Content, DocPage.Line)] = []
    for line in s.lines {
      for pattern in patterns {
        for m in Regexes.all(pattern, in: line.text.code) where !generic.contains(m[0]) {
          result.append((.caughtException(name: m[0]), line.page))
        }
      }
    }
    return result
  }

  // MARK: - Set literals

  static func sets(_ s: CodeSample, sectionStep: (DocPage.Line) -> String?) -> [(DocFact.Content, DocPage.Line)] {
    var result: [(DocFact.Content, DocPage.Line)] = []
    for (i, line) in s.lines.enumerated() {
      let code = line.text.code
      var literal: [String] = []
      if let union = Regexes.firstGroup(
        #"\btype\s+\w+\s*=\s*((?:['"][A-Za-z_]+['"]\s*\|\s*)+['"][A-Za-z_]+['"])"#, in: code)
      {
        literal = Regexes.all(#"['"]([A-Za-z_]+)['"]"#, in: union).map { $0[0] }
      } else if let list = Regexes.firstGroup(
        #"(?:setOf|listOf|EnumSet\.of|Set\.of|List\.of)\(\s*((?:MFAType|AuthFactorType)\.\w+(?:\s*,\s*(?:MFAType|AuthFactorType)\.\w+)+)\s*\)"#,
        in: code)
      {
        literal = Regexes.all(#"\.(\w+)"#, in: list).map { $0[0] }
      } else if let list = Regexes.firstGroup(#"[{\[]\s*(MfaType\.\w+(?:\s*,\s*MfaType\.\w+)+)\s*[}\]]"#, in: code) {
        literal = Regexes.all(#"\.(\w+)"#, in: list).map { $0[0] }
      } else if code.contains("MFAType") || code.contains("AuthFactorType"),
        let list = Regexes.firstGroup(#"\[\s*(\.\w+(?:\s*,\s*\.\w+)+)\s*\]"#, in: code)
      {
        literal = Regexes.all(#"\.(\w+)"#, in: list).map { $0[0] }
      }
      let members = literal.compactMap(selection)
      guard members.count >= 2, members.count == literal.count else { continue }
      let lastArm = s.arms.joined().filter { $0.head < i && $0.step != nil }.max { $0.head < $1.head }?.step
      guard let step = s.answeredStep(at: i)?.step ?? sectionStep(line.page) ?? lastArm else { continue }
      result.append((.set(step: step, members: members), line.page))
    }
    return result
  }

  // MARK: - Names read but never defined

  static let keywords: Set<String> = Set(
    """
    if else for while do switch case default break continue return func let var final const function async await try
    catch throw throws in is as on new this self super true false null nil undefined void import from type interface
    export class struct enum extends implements required val fun when object typeof instanceof where guard defer static
    public private protected readonly override string number boolean any unknown it error e _ to get set of
    console window document print safePrint
    """.split(whereSeparator: \.isWhitespace).map(String.init))

  /// Functions every sample may call without defining them (the languages' own, and Flutter's `safePrint`).
  static let builtins: Set<String> = [
    "print", "safePrint", "debugPrint", "println", "setOf", "listOf", "mapOf", "arrayOf", "mutableListOf",
    "mutableMapOf", "emptyList", "require", "requireNotNull", "lazy", "launch", "runBlocking", "fatalError",
    "assert", "precondition", "min", "max", "parseInt", "setTimeout", "alert", "fetch", "if", "for", "while",
    "switch", "catch", "when", "function", "return", "typeof", "super", "await", "async", "sizeof", "is",
  ]

  /// Reads (and calls) of names nothing in scope declares. Inside a function every such read is
  /// reported. At a sample's top level a name passed whole (`username,`) is a placeholder for the
  /// reader's own value, the way fragments are written, so only a top-level name whose member
  /// the sample reads (`confirmSignInNextStep.signInStep`: a result it never obtained) is reported,
  /// and only in a sample that binds names of its own (a bare `switch signInResult.nextStep {`
  /// fragment stands for the reader's result).
  static func undefined(_ s: CodeSample, functions: Set<String>) -> [(DocFact.Content, DocPage.Line)] {
    var result: [(DocFact.Content, DocPage.Line)] = []
    var seen = Set<String>()
    var inImport = false
    let bindsAtTopLevel = s.lines.indices.contains { s.enclosing($0).isEmpty && !s.declared[$0].isEmpty }
    for (i, line) in s.lines.enumerated() {
      let bare = line.text.bare
      if inImport {
        if bare.contains("}") { inImport = false }
        continue
      }
      if Regexes.matches(#"^\s*import\b"#, bare) {
        inImport = bare.contains("{") && !bare.contains("}")
        continue
      }
      if s.functions.contains(where: { $0.header == i }) || Regexes.matches(#"\w\{message=|^\s*<|#available"#, bare) {
        continue
      }
      let enclosing = s.enclosing(i)
      let function = enclosing.last.map { s.lines[s.functions[$0].header].number }
      for m in Regexes.regex(#"(?<![\w.$?@#])([a-z_]\w*)\b(?!\s*:(?!:))"#).matches(
        in: bare, range: NSRange(bare.startIndex..., in: bare))
      {
        guard let r = Range(m.range(at: 1), in: bare) else { continue }
        let name = String(bare[r])
        if keywords.contains(name) || functions.contains(name) { continue }
        let before = bare[..<r.lowerBound]
        let after = bare[r.upperBound...]
        if s.language == "kotlin" || s.language == "java" || s.language == "dart" {
          // A named argument (`username = username`): only the right-hand side is a read.
          if Regexes.matches(#"^\s*=(?!=)"#, String(after)),
            before.trimmingCharacters(in: .whitespaces).isEmpty || before.contains("(")
          {
            continue
          }
        }
        let call = Regexes.matches(#"^\s*\("#, String(after))
        if call && (builtins.contains(name) || enclosing.isEmpty) { continue }
        if s.binding(of: name, at: i) != nil || s.declared[i].contains(name) { continue }
        if enclosing.isEmpty && (!bindsAtTopLevel || !Regexes.matches(#"^\s*\??\.\s*[A-Za-z_]"#, String(after))) {
          continue
        }
        guard seen.insert("\(line.number)|\(name)").inserted else { continue }
        result.append((.undefinedName(name: name, call: call, function: function), line.page))
      }
    }
    return result
  }
}
