import Foundation
import Testing

/// `lint` and `docs` write SARIF 2.1.0 for code scanning as `verify` does: on standard output
/// with `--format sarif`, or to a file with `--sarif FILE` beside the text report.
@Suite("SARIF for lint and docs")
struct LintDocsSARIFTests {
  /// The results of a SARIF log.
  static func results(_ text: String) throws -> [[String: Any]] {
    let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    return try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
  }

  /// A location's file and line (`nil` line when the location has no region).
  static func place(_ location: Any?) -> (file: String?, line: Int?) {
    let physical = (location as? [String: Any])?["physicalLocation"] as? [String: Any]
    let file = (physical?["artifactLocation"] as? [String: Any])?["uri"] as? String
    return (file, (physical?["region"] as? [String: Any])?["startLine"] as? Int)
  }

  @Test(
    "lint --format sarif: every warning the text report prints, at the same model line; acknowledged ones suppressed")
  func lintSARIF() throws {
    let model = "examples/2026-voice-mfa.yaml"
    let text = try CommandLineTests.run(["lint", model])
    #expect(text.status == 0)
    let printed = text.stdout.split(separator: "\n").filter { $0.contains(": warning: [") }.map { line in
      let parts = line.components(separatedBy: ": warning: [")
      return "\(parts[1].prefix { $0 != "]" })@\(parts[0].split(separator: ":").last ?? "")"
    }
    #expect(!printed.isEmpty, "the voice-MFA example has open warnings: \(text.stdout)")
    let run = try CommandLineTests.run(["lint", model, "--format", "sarif", "--strict"])
    #expect(run.status == 1, "--strict still fails on open warnings: \(run.stderr)")
    #expect(try CIOutputTests.sarifIsValid(run.stdout).contains("valid"))
    let results = try Self.results(run.stdout)
    let open = results.filter { $0["suppressions"] == nil }
    let inSARIF = open.map { result in
      let (file, line) = Self.place((result["locations"] as? [Any])?.first)
      #expect(file == model)
      #expect(result["level"] as? String == "warning")
      return "\(result["ruleId"] as? String ?? "")@\(line.map(String.init) ?? "none")"
    }
    #expect(inSARIF.sorted() == printed.sorted())
    let acknowledged = results.filter { $0["suppressions"] != nil }
    #expect(!acknowledged.isEmpty, "the example keeps the 2026 model's lint: entries")
    for result in acknowledged {
      let suppression = try #require((result["suppressions"] as? [[String: Any]])?.first)
      #expect(suppression["kind"] as? String == "inSource")
      #expect(!((suppression["justification"] as? String) ?? "").isEmpty)
      #expect(Self.place(suppression["location"]).line != nil, "the lint: entry's line")
    }
  }

  @Test("lint --sarif FILE writes the log beside the unchanged text report")
  func lintSARIFFile() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("signin-spec-\(UUID().uuidString).sarif")
    defer { try? FileManager.default.removeItem(at: file) }
    let plain = try CommandLineTests.run(["lint", "models/2023-swift.yaml"])
    let run = try CommandLineTests.run(["lint", "models/2023-swift.yaml", "--sarif", file.path])
    #expect(run.status == 0)
    #expect(run.stdout == plain.stdout)
    let log = try String(contentsOf: file, encoding: .utf8)
    #expect(try CIOutputTests.sarifIsValid(log).contains("valid"))
    for result in try Self.results(log) {
      #expect(Self.place((result["locations"] as? [Any])?.first).file == "models/2023-swift.yaml")
    }
  }

  @Test("lint and docs --sarif refuse a path whose folder does not exist (usage, exit 64)")
  func badSARIFPath() throws {
    for command in [["lint", "models/2023-swift.yaml"], ["docs"]] {
      let run = try CommandLineTests.run(command + ["--sarif", "/nonexistent-folder/x.sarif"])
      #expect(run.status == 64, "\(command): \(run.stderr)")
      #expect(run.stderr.contains("--sarif"))
    }
  }

  @Test("docs --format sarif: a new finding at its page line, the model line as a related location")
  func docsNewFinding() throws {
    let page = FileManager.default.temporaryDirectory.appendingPathComponent("signin-spec-\(UUID().uuidString).md")
    defer { try? FileManager.default.removeItem(at: page) }
    try
      "<!-- Platform: flutter -->\n## Confirm sign-in with TOTP MFA\n\nIf the next step is `confirmSignInWithTOTPCode`, type it.\n"
      .write(to: page, atomically: true, encoding: .utf8)
    let model = "models/2026-all-platforms.yaml"
    let run = try CommandLineTests.run(["docs", page.path, "--model", model, "--format", "sarif"])
    #expect(run.status == 1, "\(run.stderr)")
    #expect(try CIOutputTests.sarifIsValid(run.stdout).contains("valid 1 suppressed 0"))
    let result = try #require(try Self.results(run.stdout).first)
    #expect(result["ruleId"] as? String == "unknown-name")
    #expect(result["level"] as? String == "error")
    let at = Self.place((result["locations"] as? [Any])?.first)
    #expect(at.file == "file://" + page.path && at.line == 4)
    let related = Self.place((result["relatedLocations"] as? [Any])?.first)
    #expect(related.file == model)
    #expect((related.line ?? 0) > 0)
  }

  @Test("docs --sarif FILE on the seed pages: every finding acknowledged, suppressed by its model note")
  func docsSeeds() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("signin-spec-\(UUID().uuidString).sarif")
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try CommandLineTests.run(["docs", "--sarif", file.path])
    #expect(run.status == 0, "\(run.stderr)")
    let summary = try #require(run.stdout.split(separator: "\n").last)
    let log = try String(contentsOf: file, encoding: .utf8)
    let all = try Self.results(log)
    // A model note that matches no finding (a seed conflict the checker cannot detect itself) is
    // a `note`-level result at the note's model line, not a finding.
    let unmatched = all.filter { $0["ruleId"] as? String == "note-unmatched" }
    for note in unmatched {
      #expect(note["level"] as? String == "note")
      #expect(Self.place((note["locations"] as? [Any])?.first).file?.hasPrefix("models/") == true)
    }
    let results = all.filter { $0["ruleId"] as? String != "note-unmatched" }
    #expect(!results.isEmpty)
    #expect(summary.contains("\(results.count) findings: 0 new, \(results.count) acknowledged"))
    #expect(try CIOutputTests.sarifIsValid(log).contains("valid \(all.count) suppressed \(results.count)"))
    for result in results {
      #expect(Self.place((result["locations"] as? [Any])?.first).file?.hasPrefix("../shared/seeds/") == true)
      let note = (result["suppressions"] as? [[String: Any]])?.first?["location"]
      #expect(Self.place(note).file?.hasPrefix("models/") == true)
    }
  }
}
