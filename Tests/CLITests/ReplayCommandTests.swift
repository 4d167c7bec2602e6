import Foundation
import Testing

/// `replay` on hand-edited copies of a saved counterexample: versions and schema checked,
/// STALE never a pass, `--prune-stale` deletes only regular files of the corpus folder.
@Suite("signin-spec replay: versions, schema, STALE cases and --prune-stale")
struct ReplayCommandTests {
  static let original = "Tests/Fixtures/counterexample-unknown-challenge.json"

  /// A new folder holding the saved case edited by `edit`, as `name`; returns the folder.
  static func corpus(_ name: String = "case.json", _ edit: (inout [String: Any]) -> Void) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try add(to: folder, name, edit)
    return folder
  }

  static func add(to folder: String, _ name: String, _ edit: (inout [String: Any]) -> Void) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: original))
    guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw CocoaError(.fileReadCorruptFile)
    }
    edit(&object)
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
      .write(to: URL(fileURLWithPath: folder + "/" + name))
  }

  /// The saved case with its first call's response replaced by one no step accepts.
  static func makeStale(_ object: inout [String: Any]) {
    guard var fuzzCase = object["fuzzCase"] as? [String: Any], var calls = fuzzCase["calls"] as? [[String: Any]]
    else { return }
    calls[0]["response"] = "aResponseNoStepAccepts"
    fuzzCase["calls"] = calls
    object["fuzzCase"] = fuzzCase
  }

  @Test("an unknown version is refused with exit 2 naming the file and the field")
  func unknownVersion() throws {
    let folder = try Self.corpus { $0["version"] = 99 }
    let run = try CommandLineTests.run(["replay", folder])
    #expect(run.status == 2)
    #expect(run.stderr.contains("\(folder)/case.json: error: field 'version': 99 is not a version"))
  }

  @Test("a wrong format name, a missing version and a non-object are refused with exit 2")
  func wrongFormat() throws {
    let cases: [(edit: (inout [String: Any]) -> Void, expected: String)] = [
      ({ $0["format"] = "signin-spec-verify-report" }, "field 'format': is"),
      ({ $0["version"] = nil }, "field 'version': missing"),
      ({ $0["version"] = "2" }, "field 'version': has the wrong type"),
    ]
    for (edit, expected) in cases {
      let folder = try Self.corpus("case.json", edit)
      let run = try CommandLineTests.run(["replay", folder])
      #expect(run.status == 2, "\(expected)")
      #expect(run.stderr.contains("case.json: error: \(expected)"), "\(run.stderr)")
    }
    let folder = try Self.corpus { _ in }
    try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: folder + "/case.json"))
    let run = try CommandLineTests.run(["replay", folder])
    #expect(run.status == 2)
    #expect(run.stderr.contains("case.json: error: is not a JSON object"))
  }

  @Test("a version that is a huge, fractional or negative number is unsupported, naming the file and the field")
  func hugeVersion() throws {
    for version in ["1e308", "2.5", "-0", "18446744073709551616"] {
      let folder = try Self.corpus { _ in }
      let text = try String(contentsOfFile: Self.original, encoding: .utf8)
        .replacingOccurrences(of: #""version" : 2"#, with: #""version" : \#(version)"#)
      #expect(text.contains(version))
      try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/case.json"))
      let run = try CommandLineTests.run(["replay", folder])
      #expect(run.status == 2, "\(version): \(run.stderr)")
      #expect(
        run.stderr.contains("case.json: error: field 'version':") && !run.stderr.contains("JSON object"),
        "\(version): \(run.stderr)")
    }
    // Past Double's range JSON itself cannot be read here: Foundation's reason, with the file.
    let folder = try Self.corpus { _ in }
    let text = try String(contentsOfFile: Self.original, encoding: .utf8)
      .replacingOccurrences(of: #""version" : 2"#, with: #""version" : 1e400"#)
    try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/case.json"))
    let run = try CommandLineTests.run(["replay", folder])
    #expect(run.status == 2)
    #expect(run.stderr.contains("case.json: error: is not JSON: Number 1e400 is not representable"), "\(run.stderr)")
  }

  @Test("an empty folder is bad usage naming the path (a wrong path must not pass), unless --allow-empty")
  func emptyFolder() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data("not a case".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
    let run = try CommandLineTests.run(["replay", folder])
    #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("the folder \(folder) has no counterexample files"), "\(run.stderr)")
    #expect(run.stderr.contains("--allow-empty"))
    let allowed = try CommandLineTests.run(["replay", "--allow-empty", folder])
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(allowed.stdout.contains("0 cases replayed"), "\(allowed.stdout)")
  }

  @Test("a wrong schema names the JSON path of the field")
  func wrongSchema() throws {
    let folder = try Self.corpus { object in
      guard var fuzzCase = object["fuzzCase"] as? [String: Any], var calls = fuzzCase["calls"] as? [[String: Any]]
      else { return }
      calls[1]["unknownChallenge"] = "yes"
      fuzzCase["calls"] = calls
      object["fuzzCase"] = fuzzCase
    }
    let run = try CommandLineTests.run(["replay", folder])
    #expect(run.status == 2)
    #expect(run.stderr.contains("field 'fuzzCase.calls[1].unknownChallenge': has the wrong type"), "\(run.stderr)")
    let missing = try Self.corpus { $0["fuzzCase"] = nil }
    let second = try CommandLineTests.run(["replay", missing])
    #expect(second.status == 2)
    #expect(second.stderr.contains("field 'fuzzCase': missing"), "\(second.stderr)")
  }

  @Test("a STALE case is never a pass: exit 1, named on its own line and in the error")
  func staleFails() throws {
    let folder = try Self.corpus("stale.json", Self.makeStale)
    try Self.add(to: folder, "fits.json") { _ in }
    let run = try CommandLineTests.run(["replay", folder])
    #expect(run.status == 1)
    #expect(run.stdout.contains("STALE   \(folder)/stale.json: the calls no longer fit"))
    #expect(run.stdout.contains("passes  \(folder)/fits.json"))
    #expect(run.stdout.contains("2 cases replayed on the reference client: 1 passed, 0 failed, 1 stale"))
    #expect(run.stderr.contains("1 STALE case"))
    #expect(run.stderr.contains("\(folder)/stale.json"))
    #expect(run.stderr.contains("--prune-stale"))
  }

  @Test("--prune-stale deletes the STALE case, keeps the others, and exits 0")
  func pruneStale() throws {
    let folder = try Self.corpus("stale.json", Self.makeStale)
    try Self.add(to: folder, "fits.json") { _ in }
    let run = try CommandLineTests.run(["replay", "--prune-stale", folder])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("PRUNED  \(folder)/stale.json"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["fits.json"])
    let again = try CommandLineTests.run(["replay", folder])
    #expect(again.status == 0)
  }

  @Test("--prune-stale never deletes a symbolic link in the corpus, nor the file it points to")
  func pruneRefusesLinks() throws {
    let outside = try Self.corpus("target.json", Self.makeStale)
    let folder = try Self.corpus("fits.json") { _ in }
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/link.json", withDestinationPath: outside + "/target.json")
    let run = try CommandLineTests.run(["replay", "--prune-stale", folder])
    #expect(run.status == 1)
    #expect(run.stderr.contains("cannot delete \(folder)/link.json: it is not a regular file"), "\(run.stderr)")
    var info = stat()
    #expect(lstat(folder + "/link.json", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    #expect(FileManager.default.fileExists(atPath: outside + "/target.json"))
  }

  @Test("a changed model hash with the calls still fitting is a note, not a failure")
  func changedHashIsANote() throws {
    let folder = try Self.corpus { object in
      guard var model = object["model"] as? [String: Any] else { return }
      model["contentHash"] = "0000000000000000"
      object["model"] = model
    }
    let run = try CommandLineTests.run(["replay", folder])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("passes  \(folder)/case.json"))
    #expect(run.stdout.contains("the model changed since this case was saved"))
  }
}
