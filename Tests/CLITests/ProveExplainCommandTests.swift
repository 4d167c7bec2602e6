import Foundation
import Testing

/// `prove --explain`: the invariant of each proven property, per step, in the model's terms.
@Suite("prove --explain: each invariant printed in the model's terms, shared parts once")
struct ProveExplainCommandTests {
  @Test("the 2023 model's invariants print in full, each shared subformula defined once under its step and used")
  func sharedSubformulasAreDefinedOnce() throws {
    // Z3's sets share their subformulas: read back as plain trees, the first invariant of this
    // model alone has about 39 million nodes (the command ran for minutes and printed nothing).
    let run = try CommandLineTests.run(["prove", "--explain", "--jobs", "1", "models/2023-swift.yaml"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(!run.stdout.contains("UNKNOWN"))
    #expect(run.stdout.contains("inductive invariant of Reach"))
    // A step's line, then its definitions "#n: …", numbered from 1.
    var blocks: [(step: String, lines: [String])] = []
    for line in run.stdout.split(separator: "\n").map(String.init) {
      let text = line.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix("at ") {
        blocks.append((text, [text]))
      } else if text.hasPrefix("#"), !blocks.isEmpty {
        blocks[blocks.count - 1].lines.append(text)
      } else if !text.isEmpty {
        blocks.append(("", []))
      }
    }
    let withDefinitions = blocks.filter { $0.lines.count > 1 }
    #expect(!withDefinitions.isEmpty, "no step of the 2023 model's invariants shares a subformula: \(run.stdout)")
    for block in withDefinitions {
      let definitions = block.lines.dropFirst()
      let numbers = definitions.compactMap { Int($0.dropFirst().prefix { $0 != ":" }) }
      #expect(numbers == Array(1...definitions.count), "\(block.step)")
      // Every reference is to a definition of the same step, and every definition is used.
      let bodies = block.lines.map { $0.hasPrefix("#") ? String($0.drop { $0 != ":" }) : $0 }.joined(separator: " ")
      let used = Set(Self.references(in: bodies))
      #expect(used == Set(numbers), "\(block.step): uses \(used.sorted()), defines \(numbers)")
    }
  }

  @Test("Spacer's invariant prints too (reading it once crashed inside Z3 when Z3 had sliced the relation)")
  func spacerInvariant() throws {
    let run = try CommandLineTests.run([
      "prove", "--engine", "spacer", "--explain", "--property", "deterministic", "--jobs", "1",
      "models/2023-swift.yaml",
    ])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("proven (unbounded)  deterministic"), "\(run.stdout)")
    let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let header = try #require(lines.firstIndex { $0.hasPrefix("inductive invariant of Reach") }, "\(run.stdout)")
    // At least one clause over the model's variables follows, in the model's names.
    #expect(lines.count > header + 1 && lines[header + 1].contains("."), "\(run.stdout)")
  }

  /// The numbers n of the references "#n" in `text`.
  static func references(in text: String) -> [Int] {
    var found: [Int] = []
    var rest = Substring(text)
    while let hash = rest.firstIndex(of: "#") {
      rest = rest[rest.index(after: hash)...]
      let digits = rest.prefix { $0.isNumber }
      if let n = Int(digits) { found.append(n) }
      rest = rest.dropFirst(digits.count)
    }
    return found
  }
}
