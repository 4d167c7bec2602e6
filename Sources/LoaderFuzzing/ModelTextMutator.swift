import ModelChecking

/// Seeded, structure-aware mutations of a model file's text, for fuzzing the loader: keys
/// dropped, duplicated or retyped, lines swapped or re-indented, alias bombs, deep nesting,
/// huge numbers and huge domains, odd bytes and text that is not UTF-8.
public struct ModelTextMutator {
  /// The kinds of mutation, named in the figures.
  public enum Kind: String, CaseIterable, Sendable {
    case dropLine, duplicateLine, retypeValue, swapLines, reindent, truncate, aliasBomb, deepNesting,
      hugeNumber, hugeDomain, oddBytes, notUTF8, yamlToken, emptyOrBlank
  }

  let models: [[UInt8]]

  public init(models: [String]) { self.models = models.map { Array($0.utf8) } }

  /// Input number `index` of the run with `seed`: its bytes and the mutations applied.
  public func input(seed: UInt64, index: Int) -> (bytes: [UInt8], kinds: [Kind]) {
    var rng = SplitMix64(seed: seed ^ (UInt64(index) &* 0x2545_F491_4F6C_DD1D))
    var lines = split(models[rng.below(models.count)])
    var kinds: [Kind] = []
    for _ in 0...rng.below(3) {
      let kind = Kind.allCases[rng.below(Kind.allCases.count)]
      kinds.append(kind)
      apply(kind, to: &lines, &rng)
    }
    return (join(lines), kinds)
  }

  func split(_ bytes: [UInt8]) -> [[UInt8]] {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
  }
  func join(_ lines: [[UInt8]]) -> [UInt8] { Array(lines.joined(separator: [0x0A])) }

  func apply(_ kind: Kind, to lines: inout [[UInt8]], _ rng: inout SplitMix64) {
    guard !lines.isEmpty else { return }
    let i = rng.below(lines.count)
    switch kind {
    case .dropLine: lines.remove(at: i)
    case .duplicateLine: lines.insert(lines[i], at: i)
    case .retypeValue:
      let values = ["[]", "{}", "~", "\"x\"", "[a, b]", "{a: 1}", "123", "-1", "true", "1.5", "''", "!!str 3"]
      if let colon = lines[i].firstIndex(of: UInt8(ascii: ":")) {
        lines[i] = Array(lines[i][...colon]) + Array((" " + values[rng.below(values.count)]).utf8)
      }
    case .swapLines: lines.swapAt(i, rng.below(lines.count))
    case .reindent:
      if rng.below(2) == 0 {
        lines[i] = Array("  ".utf8) + lines[i]
      } else {
        lines[i] = Array(lines[i].drop { $0 == 32 })
      }
    case .truncate: lines.removeSubrange(i...)
    case .aliasBomb: lines = aliasBomb(rng.below(3)) + lines
    case .deepNesting: replaceGuard(in: &lines, with: deep(&rng), &rng)
    case .hugeNumber:
      let numbers = [
        "9223372036854775807 + 1", "99999999999999999999999", "2147483647 + 2147483647",
        "0 - 2147483648 - 1", "9223372036854775808",
      ]
      replaceGuard(in: &lines, with: "flow.retries < " + numbers[rng.below(numbers.count)], &rng)
    case .hugeDomain:
      let domains = ["0..9223372036854775807", "0..1000000000", "-9223372036854775808..0", "5..1", "1..4097"]
      if let d = lines.firstIndex(where: { String(decoding: $0, as: UTF8.self).contains("domain: 0..") }) {
        lines[d] = Array(("    domain: " + domains[rng.below(domains.count)]).utf8)
      }
    case .oddBytes:
      let odd: [UInt8] = [0x00, 0x07, 0x08, 0x0B, 0x0C, 0x1B, 0x7F, 0x09, 0x0D]
      lines[i].insert(odd[rng.below(odd.count)], at: rng.below(lines[i].count + 1))
    case .notUTF8:
      let bad: [[UInt8]] = [
        [0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xC0, 0xAF],
      ]
      lines[i].insert(contentsOf: bad[rng.below(bad.count)], at: rng.below(lines[i].count + 1))
    case .yamlToken:
      let tokens = [
        "&a ", "*a", "<<: *a", "!!binary ", "%YAML 1.1", "---", "...", "| ", ">- ", "\"", "'", "{", "[",
        "? ", "- ", "#", "@", "`", "!tag ", "&x [*x]", "*missing",
      ]
      lines[i].insert(contentsOf: Array(tokens[rng.below(tokens.count)].utf8), at: rng.below(lines[i].count + 1))
    case .emptyOrBlank:
      let blank = [[], ["   "], ["# only a comment"], ["---"], ["\u{FEFF}"], ["~"]][rng.below(6)]
      lines = blank.map { Array($0.utf8) }
    }
  }

  /// Nested aliases, `levels` deep beyond a few, used as a mapping key (the Yams hashing hang).
  func aliasBomb(_ variant: Int) -> [[UInt8]] {
    let width = 10
    let depth = [6, 9, 12][variant]
    var text = ["b0: &b0 [" + Array(repeating: "x", count: width).joined(separator: ", ") + "]"]
    for k in 1..<depth {
      text.append("b\(k): &b\(k) [" + Array(repeating: "*b\(k - 1)", count: width).joined(separator: ", ") + "]")
    }
    text.append("? *b\(depth - 1)")
    text.append(": bomb")
    return text.map { Array($0.utf8) }
  }

  func deep(_ rng: inout SplitMix64) -> String {
    let n = [150, 250, 1_000, 12_000, 40_000][rng.below(5)]
    switch rng.below(4) {
    case 0: return String(repeating: "(", count: n) + "true" + String(repeating: ")", count: n)
    case 1: return String(repeating: "!", count: n) + "true"
    case 2: return Array(repeating: "1", count: n).joined(separator: " + ") + " == 3"
    default: return Array(repeating: "flow.retries < 4", count: n).joined(separator: " || ")
    }
  }

  /// Replaces the text of some `when:` guard (or adds a line when there is none).
  func replaceGuard(in lines: inout [[UInt8]], with text: String, _ rng: inout SplitMix64) {
    let guards = lines.indices.filter { String(decoding: lines[$0], as: UTF8.self).contains("when: ") }
    guard !guards.isEmpty else { return }
    let g = guards[rng.below(guards.count)]
    let line = String(decoding: lines[g], as: UTF8.self)
    guard let range = line.range(of: "when: ") else { return }
    lines[g] = Array((String(line[..<range.upperBound]) + "\"" + text + "\"").utf8)
  }
}

extension SplitMix64 {
  /// A value in 0..<n (0 when n <= 1), from the next draw.
  mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
}
