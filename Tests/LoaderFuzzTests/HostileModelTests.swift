import Foundation
import ModelChecking
import SignInModel
import Testing

@Suite("Hostile models are refused with a located error, never a crash or a hang")
struct HostileModelTests {
  static let base: String = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../models/2023-swift.yaml")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  /// The base model with its first guard replaced by `text`.
  static func withGuard(_ text: String) -> String {
    guard let start = base.range(of: "when: \"") else { return base }
    let end = base[start.upperBound...].firstIndex(of: "\"")!
    return String(base[..<start.upperBound]) + text + String(base[end...])
  }

  static func diagnostics(_ text: String) -> [ModelDiagnostic] {
    do {
      _ = try ModelLoader.load(yaml: text, file: "m.yaml")
      return []
    } catch { return error.diagnostics }
  }

  static func diagnostics(bytes: [UInt8]) -> [ModelDiagnostic] {
    do {
      _ = try ModelLoader.load(bytes: bytes, file: "m.yaml")
      return []
    } catch { return error.diagnostics }
  }

  @Test("the base model loads")
  func baseLoads() { #expect(!Self.base.isEmpty && Self.diagnostics(Self.base).isEmpty) }

  static let deep = [
    String(repeating: "(", count: 12_000) + "true" + String(repeating: ")", count: 12_000),
    String(repeating: "!", count: 40_000) + "true",
    Array(repeating: "1", count: 45_000).joined(separator: " + ") + " == 3",
  ]

  @Test(
    "12,000 parentheses, 40,000 '!' and a 45,000-term sum give one error naming the limit",
    arguments: ["parentheses", "nots", "sum"].indices)
  func deepExpressions(_ which: Int) {
    let found = Self.diagnostics(Self.withGuard(Self.deep[which]))
    #expect(found.count == 1)
    #expect(found.first?.line ?? 0 > 0)
    #expect(found.first?.message.contains("\(ModelLimits.maxExpressionDepth)") == true)
  }

  @Test(
    "arithmetic that leaves the 32-bit range and literals too large are errors, not traps or 0",
    arguments: [
      "9223372036854775807 + 1 == 0", "2147483647 + 1 == 0", "99999999999999999999 == 0", "0 - 2147483647 - 2 < 0",
    ])
  func arithmetic(_ text: String) {
    let found = Self.diagnostics(Self.withGuard(text))
    #expect(found.count == 1 && found[0].line > 0, "\(found)")
  }

  @Test("huge integer domains are refused naming the limit", arguments: ["0..9223372036854775807", "0..1000000000"])
  func hugeDomains(_ domain: String) {
    let found = Self.diagnostics(Self.base.replacingOccurrences(of: "domain: 0..4", with: "domain: \(domain)"))
    #expect(found.count == 1 && found[0].line > 0)
    #expect(found[0].message.contains("4096") || found[0].message.contains("2147483647"))
  }

  @Test("an alias bomb used as a mapping key is refused before YAML composes it")
  func aliasBomb() {
    var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for k in 1..<12 {
      text += "a\(k): &a\(k) [" + Array(repeating: "*a\(k - 1)", count: 10).joined(separator: ", ") + "]\n"
    }
    text += "? *a11\n: 1\n"
    // The refusal names the expansion limit, so it came from the event-stream check, before
    // Yams composed (and hashed) the 10^12-node key; a composing loader would never return.
    let found = Self.diagnostics(text)
    #expect(found.count == 1 && found[0].line > 0 && found[0].message.contains("aliases expanded"))
  }

  @Test("bytes that are not UTF-8 are located at line and column")
  func notUTF8() {
    let bytes = Array("model: x\nconfiguration:\n  a: b\u{0}".utf8.prefix(20)) + [0xFF] + Array("\n".utf8)
    let found = Self.diagnostics(bytes: bytes)
    #expect(found.count == 1 && found[0].line == 2 && found[0].column == 12, "\(found)")
  }

  @Test("control characters and empty files are located")
  func controlAndEmpty() {
    let control = Self.diagnostics("model: x\ngeneration: \u{7}\n")
    #expect(control.count == 1 && control[0].line == 2 && control[0].column == 13, "\(control)")
    for text in ["", "   \n", "# only a comment\n"] {
      let found = Self.diagnostics(text)
      #expect(found.count == 1 && found[0].line == 1 && found[0].message.contains("empty"))
    }
  }

  @Test("a guard written over several lines is reported where the bad name is")
  func multiLineGuard() throws {
    let start = try #require(Self.base.range(of: "when: \""))
    let lineStart = Self.base[..<start.lowerBound].lastIndex(of: "\n").map { Self.base.index(after: $0) }!
    let indent = String(repeating: " ", count: Self.base.distance(from: lineStart, to: start.lowerBound) + 2)
    let guardLine = Self.base[..<start.lowerBound].filter { $0 == "\n" }.count + 1
    let end = Self.base[start.upperBound...].firstIndex(of: "\"")!
    let text =
      String(Self.base[..<start.lowerBound]) + "when: >-\n\(indent)true &&\n\(indent)  user.bogus"
      + String(Self.base[Self.base.index(after: end)...])
    let found = Self.diagnostics(text)
    #expect(found.count == 1)
    #expect(found.first?.line == guardLine + 2)
    #expect(found.first?.column == indent.count + 3)
  }

  @Test("a broken definition is reported once, not at every use")
  func oneRootError() {
    let text = Self.base.replacingOccurrences(of: "\ndefinitions:", with: "\ndefinitions:\n  broken: \"((\"\n  #")
      .replacingOccurrences(of: "when: \"", with: "when: \"broken || ")
    let found = Self.diagnostics(text)
    #expect(found.count == 1, "\(found)")
  }

  @Test("a FIFO given as a model is refused at once, not read forever")
  func fifo() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(getpid()).yaml").path
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    #expect(throws: ModelLoadError.self) { _ = try ModelLoader.load(file: path) }
  }
}

@Suite("Counting configurations by the constraints' structure")
struct ConstraintCounterTests {
  static func model(booleans: Int, constraint: String) throws -> SignInModel {
    let variables = (0..<booleans).map { "  c.v\($0): bool" }.joined(separator: "\n")
    let yaml = """
      model: counting
      configuration:
      \(variables)
      constraints:
        - "\(constraint)"
      responses:
        ok: ok
      signIn:
        responses:
          ok:
            - goto: done
      steps:
        done:
          ends: signedIn
      """
    return try ModelLoader.load(yaml: yaml, file: "counting.yaml")
  }

  @Test("a 40-way disjunction of booleans is counted without enumerating 2^40 assignments")
  func wideDisjunction() throws {
    let model = try Self.model(booleans: 40, constraint: (0..<40).map { "c.v\($0)" }.joined(separator: " || "))
    let counter = ConstraintCounter(model: model)
    let config = [Int](repeating: unassigned, count: model.configurationIndices.count)
    // The counter refuses to enumerate more than `maxEnumerated` (10^6) assignments of one part,
    // so an answer at all means it counted the 40 independent parts instead of 2^40 assignments.
    let (count, witness) = try counter.count(model.constraints.map(\.expr), variables: Array(0..<40), config: config)
    #expect(count == pow(2.0, 40) - 1)
    #expect(witness.map { $0.contains(1) } == true)
    #expect(ConstraintCounter.refusal(in: model) == nil)
  }

  @Test(
    "structural counts equal brute-force counts on small mixed constraints",
    arguments: [
      "c.v0 || c.v1 && !c.v2 || c.v3", "(c.v0 => c.v1) && (c.v2 || !c.v3)", "!(c.v0 && c.v1) || c.v2 == c.v3",
      "c.v0 && !c.v0 && c.v1 && c.v2 && c.v3", "c.v0 || !c.v0 || c.v1 || c.v2 || c.v3",
    ])
  func agreesWithEnumeration(_ constraint: String) throws {
    // Widened with 13 unrelated booleans so the structural path (over 4,096 assignments) is taken.
    let wide = "(" + constraint + ") && " + (4..<17).map { "(c.v\($0) || !c.v\($0))" }.joined(separator: " && ")
    let model = try Self.model(booleans: 17, constraint: wide)
    let config = [Int](repeating: unassigned, count: 17)
    let (count, witness) = try ConstraintCounter(model: model).count(
      model.constraints.map(\.expr), variables: Array(0..<17), config: config)
    var brute = 0.0
    for bits in 0..<16 {
      let values = (0..<17).map { $0 < 4 ? (bits >> $0) & 1 : 0 }
      if try model.constraints[0].expr.holds(values) { brute += 1 }
    }
    #expect(count == brute * 8_192)
    if let witness { #expect(try model.constraints[0].expr.holds(witness)) } else { #expect(brute == 0) }
  }

  @Test("a constraint that cannot be split or enumerated is refused, naming its line")
  func refused() throws {
    // A chain of exclusive-ors over 25 booleans: one atom reading every variable (2^25 assignments).
    let chain = (0..<24).map { "c.v\($0) != (" }.joined() + "c.v24" + String(repeating: ")", count: 24)
    let model = try Self.model(booleans: 25, constraint: chain)
    let refusal = try #require(ConstraintCounter.refusal(in: model))
    #expect(refusal.line == 29)
    #expect(refusal.reason.description.contains("\(ConstraintCounter.maxEnumerated)"))
  }
}
