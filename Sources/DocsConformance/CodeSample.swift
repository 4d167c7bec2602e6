import Foundation

/// One code sample of a page (a fence, or a scraped page's numbered or joined sample) with the
/// structure the sample readers use: brace depth, functions with their parameters, the names
/// each line declares, sign-in switches with their arms, and step tests.
struct CodeSample {
  struct Line {
    let page: DocPage.Line
    let text: CodeText
    /// Brace depth before and after the line.
    let depth: Int
    let depthAfter: Int
    var number: Int { page.number }
  }

  struct Function {
    let name: String
    /// Indices into `lines`: the header and the line that closes the body.
    let header: Int
    let end: Int
    let parameters: Set<String>
    func contains(_ i: Int) -> Bool { i >= header && i <= end }
  }

  /// One arm of a switch (`when`) over the sign-in step; `step` is nil for `default`/`else`.
  struct Arm {
    let step: String?
    let head: Int
    let end: Int
    /// The arm has no statement of its own (comments only).
    let empty: Bool
  }

  /// A test of one variable's next step against one step (`if case .x = r.nextStep`, `r.nextStep.signInStep === 'X'`).
  struct StepTest {
    let variable: String
    let step: String
    let line: Int
    /// The lines the test guards (the `if` body), when it opens one.
    let end: Int
  }

  let language: String
  let lines: [Line]
  private(set) var functions: [Function] = []
  private(set) var declared: [Set<String>] = []
  private(set) var arms: [[Arm]] = []
  private(set) var tests: [StepTest] = []
  /// The names the sample's `import` lines bring in (a page's later fences use them too).
  private(set) var imported: Set<String> = []

  init(language: String, lines pageLines: [DocPage.Line]) {
    self.language = language
    var depth = 0
    var lines: [Line] = []
    for line in pageLines {
      let text = CodeText(line.code)
      let after = max(0, depth + text.braceBalance)
      lines.append(Line(page: line, text: text, depth: depth, depthAfter: after))
      depth = after
    }
    self.lines = lines
    functions = findFunctions()
    declared = lines.indices.map(declarations)
    // `import {` … `} from '…'` over several lines declares every name in between.
    var inImport = false
    for i in lines.indices {
      let bare = lines[i].text.bare
      if inImport {
        declared[i].formUnion(Regexes.all(#"\b([A-Za-z_]\w*)\b"#, in: bare).map { $0[0] })
        if bare.contains("}") { inImport = false }
      } else if Regexes.matches(#"^\s*import\b[^}]*\{[^}]*$"#, bare) {
        inImport = true
        declared[i].formUnion(Regexes.all(#"\b([A-Za-z_]\w*)\b"#, in: bare).map { $0[0] })
      }
      if inImport || Regexes.matches(#"^\s*import\b"#, bare) { imported.formUnion(declared[i]) }
    }
    arms = findSwitches()
    tests = findTests()
  }

  /// The samples of a page, in page order (lines of a known language only).
  static func samples(of page: DocPage) -> [CodeSample] {
    var order: [Int] = []
    var byBlock: [Int: [DocPage.Line]] = [:]
    for line in page.lines where line.kind == .code && !line.duplicate {
      guard let block = line.block, line.language != nil else { continue }
      if byBlock[block] == nil { order.append(block) }
      byBlock[block, default: []].append(line)
    }
    return order.compactMap { b in
      guard let lines = byBlock[b], let language = lines.first?.language else { return nil }
      return CodeSample(language: language, lines: lines)
    }
  }

  // MARK: - Functions

  static let functionHeader =
    #"(?:\bfunc\s+|\bfunction\s+|\bfun\s+|^\s*(?:(?:static|public|private|protected|async|override)\s+)*(?:Future<[^>]*>|void|[A-Z]\w*(?:<[^>]*>)?\??)\s+)([A-Za-z_]\w*)\s*\("#

  func findFunctions() -> [Function] {
    var result: [Function] = []
    for (i, line) in lines.enumerated() {
      guard let name = Regexes.firstGroup(Self.functionHeader, in: line.text.bare) else { continue }
      // The header runs until its parameter list closes.
      var header = line.text.bare
      var k = i
      while header.filter({ $0 == "(" }).count > header.filter({ $0 == ")" }).count, k + 1 < lines.count, k < i + 12 {
        k += 1
        header += " " + lines[k].text.bare
      }
      var end = i
      var opened = false
      for j in i..<lines.count {
        if lines[j].depthAfter > line.depth { opened = true }
        if opened && lines[j].depthAfter <= line.depth {
          end = j
          break
        }
        end = j
        if !opened && j > k + 1 { break }
      }
      result.append(Function(name: name, header: i, end: max(end, k), parameters: Self.parameters(header)))
    }
    return result
  }

  /// The parameter names of a header: `(label name: Type)`, `(name: Type)`, `(Type name)`, `({required String name})`.
  static func parameters(_ header: String) -> Set<String> {
    guard let open = header.firstIndex(of: "(") else { return [] }
    var depth = 0
    var list = ""
    for c in header[header.index(after: open)...] {
      if c == "(" || c == "<" { depth += 1 }
      if c == ")" || c == ">" {
        if depth == 0 && c == ")" { break }
        depth -= 1
      }
      list.append(depth > 0 && c == "," ? " " : c)
    }
    var names: Set<String> = []
    for raw in list.split(separator: ",") {
      var p = raw.replacingOccurrences(of: "required", with: " ")
        .trimmingCharacters(in: CharacterSet(charactersIn: " {}\t"))
      if let eq = p.firstIndex(of: "=") { p = String(p[..<eq]) }
      let name: String?
      if let colon = p.firstIndex(of: ":") {
        name = p[..<colon].split(separator: " ").last.map(String.init)
      } else {
        name = p.split(separator: " ").last.map(String.init)
      }
      if let name, Regexes.matches(#"^[a-z_]\w*$"#, name) { names.insert(name) }
    }
    return names
  }

  /// Indices of the functions whose body holds line `i`, outermost first.
  func enclosing(_ i: Int) -> [Int] {
    functions.indices.filter { functions[$0].contains(i) && functions[$0].header != i }
  }

  // MARK: - Declarations

  static let declarationPatterns = [
    #"\b(?:let|var|val|const|final)\s+(?:[A-Z]\w*(?:<[^>]*>)?\??\s+)?([a-z_]\w*)"#,
    #"\b(?:let|var|val|const)\s*\{([^}]*)\}"#,
    #"\bcase\s+(?:let\s+)?\.?\w+\(([^)]*)\)"#,
    #"\{\s*([a-z_]\w*(?:\s*,\s*[a-z_]\w*)*)\s+in\b"#,
    #"([a-z_]\w*)\s*(?::\s*[A-Z][\w<>?]*\??)?\s*->"#,
    #"\bcatch\s*\(\s*(?:[A-Z]\w*\s+)?([a-z_]\w*)"#,
    #"\bcatch\s+let\s+([a-z_]\w*)"#,
    #"^\s*(?:[A-Z][\w<>?,\s]*?)\s+([a-z_]\w*)\s*="#,
    #"\bimport\s*(?:type\s+)?\{([^}]*)\}"#,
    #"\bimport\s+([A-Za-z_]\w*)\s+from"#,
    #"\btype\s+([A-Za-z_]\w*)\s*="#,
  ]

  func declarations(_ i: Int) -> Set<String> {
    let s = lines[i].text.bare
    var names: Set<String> = []
    if let f = functions.first(where: { $0.header == i }) { names.formUnion(f.parameters) }
    for pattern in Self.declarationPatterns {
      for m in Regexes.all(pattern, in: s) {
        for part in m[0].split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
          var x = String(part)
          if let colon = x.lastIndex(of: ":") { x = String(x[x.index(after: colon)...]) }
          if x.hasPrefix("let") { x = String(x.dropFirst(3)) }
          if Regexes.matches(#"^[a-z_]\w*$"#, x) { names.insert(x) }
        }
      }
    }
    // `const { nextStep: signInNextStep } =` binds the name after the colon.
    for m in Regexes.all(#"\{([^}]*)\}\s*="#, in: s) {
      for part in m[0].split(separator: ",") where part.contains(":") {
        let x = part.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        if Regexes.matches(#"^[a-z_]\w*$"#, x) { names.insert(x) }
      }
    }
    return names
  }

  /// The last line at or before `i` that declares `name` where line `i` can see it.
  func binding(of name: String, at i: Int) -> Int? {
    let outer = Set(enclosing(i))
    for k in stride(from: i, through: 0, by: -1) where declared[k].contains(name) {
      if Set(enclosing(k)).isSubset(of: outer) || functions.contains(where: { $0.header == k && $0.contains(i) }) {
        return k
      }
    }
    return nil
  }

  // MARK: - Switches and step tests

  var switchSubject: String {
    switch language {
    case "swift": return #"\bswitch\s+(\w+)\.nextStep\s*\{"#
    case "kotlin": return #"\bwhen\s*\(\s*(\w+)(?:\.nextStep)?\.signInStep\s*\)"#
    case "java": return #"\bswitch\s*\(\s*(\w+)(?:\.getNextStep\(\))?\.getSignInStep\(\)\s*\)"#
    default: return #"\bswitch\s*\(\s*(\w+)\.nextStep\.signInStep\s*\)"#
    }
  }

  var armHead: String {
    switch language {
    case "swift": return #"^\s*case\s+(?:let\s+)?\.([a-z]\w*)"#
    case "kotlin": return #"^\s*AuthSignInStep\.([A-Z_]+)\b[^>]*->"#
    case "java": return #"^\s*case\s+(?:AuthSignInStep\.)?([A-Z_]+)\s*:"#
    case "dart": return #"^\s*case\s+AuthSignInStep\.([a-z]\w*)\s*:"#
    default: return #"^\s*case\s+['"]([A-Z_]+)['"]\s*:"#
    }
  }

  func findSwitches() -> [[Arm]] {
    var result: [[Arm]] = []
    for (s, line) in lines.enumerated() where Regexes.matches(switchSubject, line.text.bare) {
      let armDepth = line.depth + 1
      var heads: [(Int, String?)] = []
      var close = lines.count - 1
      for j in (s + 1)..<max(s + 1, lines.count) {
        if lines[j].depth < armDepth && j > s {
          close = j - 1
          break
        }
        guard lines[j].depth == armDepth else { continue }
        if let step = Regexes.firstGroup(armHead, in: lines[j].text.code) {
          heads.append((j, step))
        } else if Regexes.matches(#"^\s*(default\s*:|else\s*->)"#, lines[j].text.bare) {
          heads.append((j, nil))
        }
        if lines[j].depthAfter < armDepth {
          close = j
          break
        }
      }
      var arms: [Arm] = []
      for (n, head) in heads.enumerated() {
        let end = n + 1 < heads.count ? heads[n + 1].0 - 1 : close
        let rest = lines[head.0].text.bare.components(separatedBy: ":").dropFirst().joined(separator: ":")
        let body = (head.0 + 1)...max(head.0 + 1, end)
        let empty =
          rest.trimmingCharacters(in: .whitespaces).isEmpty
          && body.allSatisfy { j in
            j >= lines.count || j == close && lines[j].depthAfter < armDepth
              || lines[j].text.bare.trimmingCharacters(in: .whitespaces).isEmpty
          }
        arms.append(Arm(step: head.1, head: head.0, end: end, empty: empty))
      }
      if !arms.isEmpty { result.append(arms) }
    }
    return result
  }

  var testPatterns: [String] {
    switch language {
    case "swift": return [#"\bif\s+case\s+(?:let\s+)?\.(\w+)(?:\(.*?\))?\s*=\s*(\w+)\.nextStep\b"#]
    case "kotlin": return [#"(\w+)\.nextStep\.signInStep\s*==\s*AuthSignInStep\.([A-Z_]+)"#]
    case "java": return [#"(\w+)\.getNextStep\(\)\.getSignInStep\(\)\s*==\s*AuthSignInStep\.([A-Z_]+)"#]
    case "dart": return [#"(\w+)\.nextStep\.signInStep\s*==\s*AuthSignInStep\.(\w+)"#]
    default: return [#"(\w+)(?:\.nextStep)?\.signInStep\s*===?\s*['"]([A-Z_]+)['"]"#]
    }
  }

  func findTests() -> [StepTest] {
    var result: [StepTest] = []
    for (i, line) in lines.enumerated() {
      for pattern in testPatterns {
        for m in Regexes.all(pattern, in: line.text.code) {
          let (variable, step) = language == "swift" ? (m[1], m[0]) : (m[0], m[1])
          // An `if (` whose condition spans lines (a `||` chain) guards from its `{`.
          var start = i
          while start > 0, start > i - 4, !lines[start].text.bare.contains("if"), lines[start].depth == line.depth {
            start -= 1
          }
          var end = i
          var opened = false
          for j in i..<lines.count {
            if lines[j].depthAfter > lines[start].depth { opened = true }
            if opened && lines[j].depthAfter <= lines[start].depth {
              end = j
              break
            }
            end = j
            if !opened && j > i + 3 { break }
          }
          result.append(StepTest(variable: variable, step: step, line: i, end: end))
        }
      }
    }
    return result
  }

  /// The step the code at line `i` answers: its arm's, else the step test whose body holds it.
  func answeredStep(at i: Int) -> (step: String, end: Int)? {
    let arm = arms.joined().filter { $0.head < i && $0.end >= i && $0.step != nil }.max { $0.head < $1.head }
    let test = tests.filter { $0.line < i && $0.end >= i }.max { $0.line < $1.line }
    switch (arm, test) {
    case (let a?, let t?): return a.head > t.line ? (a.step!, a.end) : (t.step, t.end)
    case (let a?, nil): return (a.step!, a.end)
    case (nil, let t?): return (t.step, t.end)
    default: return nil
    }
  }
}
