import Foundation
import Testing

/// Counterexample files: hostile case files given to `replay` and `graph --trace` are
/// refused with exit 2 (a bad file) or 64 (a path that is not a file) and the file named,
/// never a signal or a hang. The cases are the ones the sweep recorded in CHANGELOG.md ran.
@Suite("Hostile counterexample files for replay and graph --trace")
struct HostileCounterexampleTests {
  static let original = "Tests/Fixtures/counterexample-unknown-challenge.json"

  static func text() throws -> String { try String(contentsOfFile: original, encoding: .utf8) }

  /// Hostile contents: a name and the bytes.
  static func contents() throws -> [(String, [UInt8])] {
    let text = try text()
    let bytes = Array(text.utf8)
    return [
      ("deep-arrays.json", Array(String(repeating: "[", count: 100_000).utf8)),
      ("deep-objects.json", Array((String(repeating: #"{"a":"#, count: 100_000) + "1").utf8)),
      ("deep-in-a-field.json", Array((text.dropLast(2) + #", "x": "# + String(repeating: "[", count: 50_000)).utf8)),
      ("empty.json", []),
      ("nul.json", Array(bytes[..<40]) + [0] + Array(bytes[40...])),
      ("not-utf8.json", Array(bytes[..<40]) + [0xFF, 0xFE] + Array(bytes[40...])),
      ("null.json", Array("null".utf8)),
      ("huge-number.json", Array("1e400".utf8)),
      ("version-1e400.json", Array(text.replacingOccurrences(of: #""version" : 2"#, with: #""version" : 1e400"#).utf8)),
      (
        "failing-call-2-64.json",
        Array(
          text.replacingOccurrences(
            of: #""failingCall" : "#, with: #""failingCall" : 18446744073709551616, "x" : "#
          ).utf8)
      ),
      ("truncated.json", Array(bytes[..<300])),
      ("failing-call-negative.json", edited(text, #""failingCall" : 1"#, #""failingCall" : -1"#)),
      ("failing-call-past-the-end.json", edited(text, #""failingCall" : 1"#, #""failingCall" : 1000000"#)),
      ("failing-call-fraction.json", edited(text, #""failingCall" : 1"#, #""failingCall" : 1.5"#)),
      ("no-calls.json", edited(text, #""calls" : ["#, #""calls" : [], "was" : ["#, from: 22)),
      (
        "model-is-a-device.json",
        edited(text, #""file" : "models\/2026-all-platforms.yaml""#, #""file" : "\/dev\/zero""#)
      ),
    ]
  }

  /// `text` with the first `old` (on or after line `from`) replaced by `new`.
  static func edited(_ text: String, _ old: String, _ new: String, from: Int = 1) -> [UInt8] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if let i = lines.indices.first(where: { $0 + 1 >= from && lines[$0].contains(old) }) {
      lines[i] = lines[i].replacingOccurrences(of: old, with: new)
    }
    return Array(lines.joined(separator: "\n").utf8)
  }

  @Test("every hostile file is refused by replay and graph --trace with exit 2 and the file named")
  func hostileContents() throws {
    let folder = try HostileInputSweepTests.folder()
    let original = Array(try Self.text().utf8)
    for (name, bytes) in try Self.contents() {
      #expect(bytes != original, "\(name) is not edited")
      let path = folder + "/" + name
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let replay = try CommandLineTests.run(["replay", path])
      #expect(replay.status == 2, "replay \(name): \(replay.status) \(replay.stderr.prefix(300))")
      #expect(replay.stderr.contains(path), "replay \(name): \(replay.stderr.prefix(300))")
      let graph = try CommandLineTests.run(["graph", "models/2023-swift.yaml", "--trace", path])
      #expect([2, 64].contains(graph.status), "graph \(name): \(graph.status) \(graph.stderr.prefix(300))")
      #expect(graph.stderr.contains(name), "graph \(name): \(graph.stderr.prefix(300))")
    }
  }

  @Test("a symbolic link loop, a dangling link and a directory named x.json are bad usage naming the path")
  func hostilePaths() throws {
    let folder = try HostileInputSweepTests.folder()
    try FileManager.default.createSymbolicLink(atPath: folder + "/loop1.json", withDestinationPath: "loop2.json")
    try FileManager.default.createSymbolicLink(atPath: folder + "/loop2.json", withDestinationPath: "loop1.json")
    try FileManager.default.createSymbolicLink(atPath: folder + "/dangling.json", withDestinationPath: "/nonexistent/x")
    try FileManager.default.createDirectory(atPath: folder + "/x.json", withIntermediateDirectories: false)
    for name in ["loop1.json", "dangling.json", "x.json"] {
      let run = try CommandLineTests.run(["replay", folder + "/" + name])
      #expect(run.status == 64, "\(name): \(run.status) \(run.stderr)")
      #expect(run.stderr.contains(name), "\(name): \(run.stderr)")
    }
  }
}
