import Foundation
import Testing

/// What `verify` and `fuzz` write for CI: SARIF 2.1.0, Markdown step summaries, versioned JSON.
@Suite("CI outputs: SARIF, Markdown summaries, versioned JSON")
struct CIOutputTests {
  /// The 2023 model with failAuthentication turned into a retry: failAuthenticationRestarts breaks.
  static func brokenModel() throws -> (path: String, line: Int) {
    let original = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let needle =
      "      failingAnswer:\n        - restart: \"NotAuthorizedException: the define trigger failed authentication\""
    let text = original.replacingOccurrences(
      of: needle, with: "      failingAnswer:\n        - error: NotAuthorizedException")
    #expect(text != original)
    let line =
      original.components(separatedBy: needle)[0].split(separator: "\n", omittingEmptySubsequences: false).count + 1
    return (try CommandLineTests.temporaryModel(text), line)
  }

  /// Validates a SARIF log with sarif-pydantic's SARIF 2.1.0 object model; unknown properties
  /// anywhere (which the model would accept as extras) fail too. sarif-pydantic names a result's
  /// suppressions `suppression` (one object) where SARIF 2.1.0 (3.27.23) has `suppressions` (an
  /// array), so each entry of that array is validated on its own with the package's Suppression.
  static let validateSARIF = """
    import json, sys
    from pydantic import BaseModel
    from sarif_pydantic import Sarif
    from sarif_pydantic.sarif import Suppression
    raw = json.load(open(sys.argv[1]))
    suppressions = []
    for run in raw.get("runs", []):
        for result in run.get("results") or []:
            for entry in result.pop("suppressions", []):
                assert entry["kind"] in ("inSource", "external"), entry
                suppressions.append(Suppression.model_validate(entry))
    log = Sarif.model_validate(raw)
    def strict(node, path):
        if isinstance(node, BaseModel):
            extra = {k for k in (node.model_extra or {}) if k != "$schema"}
            if extra: raise SystemExit("unknown SARIF properties at %s: %s" % (path, sorted(extra)))
            for name in type(node).model_fields: strict(getattr(node, name), path + "." + name)
        elif isinstance(node, list):
            for i, item in enumerate(node): strict(item, "%s[%d]" % (path, i))
    strict(log, "log")
    for i, entry in enumerate(suppressions): strict(entry, "suppressions[%d]" % i)
    assert log.version == "2.1.0"
    print("valid", len(log.runs[0].results or []), "suppressed", len(suppressions))
    """

  static func sarifIsValid(_ text: String) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("signin-spec-\(UUID().uuidString).sarif")
    try text.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let (status, output) = try EcosystemCommandTests.python(["-c", Self.validateSARIF, file.path])
    #expect(
      status == 0, "sarif-pydantic rejected the log (make test installs it: pip install sarif-pydantic): \(output)")
    return output
  }

  @Test("verify --format sarif: a violation at the model line that broke it, the counterexample as a code flow")
  func sarifViolation() throws {
    let (path, line) = try Self.brokenModel()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try CommandLineTests.run([
      "verify", path, "--invariant", "failAuthenticationRestarts", "--format", "sarif",
    ])
    #expect(run.status == 1)
    #expect(try Self.sarifIsValid(run.stdout).contains("valid 1"))
    let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let result = try #require(((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
    #expect(result["ruleId"] as? String == "failAuthenticationRestarts")
    #expect(result["level"] as? String == "error")
    let physical = ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any]
    #expect((physical?["artifactLocation"] as? [String: Any])?["uri"] as? String == "file://" + path)
    let flow =
      ((((result["codeFlows"] as? [[String: Any]])?.first?["threadFlows"] as? [[String: Any]])?.first)?[
        "locations"] as? [[String: Any]]) ?? []
    #expect(flow.count == 3)
    let lines = flow.compactMap {
      (($0["location"] as? [String: Any])?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
    }.compactMap { $0["startLine"] as? Int }
    #expect(lines.count == 3)
    #expect(lines.contains(line), "the failingAnswer rule at line \(line) is on the code flow: \(lines)")
  }

  @Test("verify --sarif FILE writes the log beside the text report; holding models give no results")
  func sarifFile() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("signin-spec-\(UUID().uuidString).sarif")
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try CommandLineTests.run([
      "verify", "models/2023-swift.yaml", "--engines", "explicit", "--sarif", file.path,
    ])
    #expect(run.status == 0)
    #expect(run.stdout.contains("1 model, 20 checks: 20 hold"))  // 13 built-ins + the model's 7
    #expect(try Self.sarifIsValid(try String(contentsOf: file, encoding: .utf8)).contains("valid 0"))
  }

  @Test("verify --format markdown: a table of verdicts and each counterexample in a code block")
  func verifyMarkdown() throws {
    let (path, _) = try Self.brokenModel()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try CommandLineTests.run(["verify", path, "--format", "markdown", "--engines", "explicit"])
    #expect(run.status == 1)
    #expect(run.stdout.hasPrefix("## signin-spec verify\n"))
    #expect(run.stdout.contains("| amplify-signin-2023 | `failAuthenticationRestarts` | **VIOLATED** |"))
    #expect(run.stdout.contains("| amplify-signin-2023 | `noFactorSkipped` | holds |"))
    #expect(run.stdout.contains("```\nconfiguration:"))
  }

  @Test("--format sarif and markdown need the explicit engine")
  func z3OnlyRefused() throws {
    let run = try CommandLineTests.run(["verify", "models/2023-swift.yaml", "--engines", "z3", "--format", "sarif"])
    #expect(run.status == 64)
  }

  @Test("verify and fuzz JSON documents name their format and version")
  func versionedJSON() throws {
    let verify = try CommandLineTests.run([
      "verify", "models/2023-swift.yaml", "--engines", "explicit", "--format", "json",
    ])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
    #expect(report["format"] as? String == "signin-spec-verify-report")
    #expect(report["version"] as? Int == 2)
    #expect((report["tool"] as? String)?.hasPrefix("signin-spec ") == true)
    let fuzz = try CommandLineTests.run([
      "fuzz", "--runs", "50", "--seed", "1", "--jobs", "1", "--no-save", "--format", "json",
    ])
    #expect(fuzz.status == 0, "\(fuzz.stderr)")
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(fuzz.stdout.utf8)) as? [String: Any])
    #expect(summary["format"] as? String == "signin-spec-fuzz-report")
    #expect(summary["version"] as? Int == 1)
  }

  @Test("fuzz --format markdown: a summary with the failure and where it was saved")
  func fuzzMarkdown() throws {
    // Unknown challenges are drawn now and then (1 call in 25 where one fits): 1,000 cases find one.
    let run = try CommandLineTests.run([
      "fuzz", "--runs", "1000", "--seed", "7", "--jobs", "1", "--no-save",
      "--client", "stuckOnUnknownChallenge", "--format", "markdown",
    ])
    #expect(run.status == 1)
    #expect(run.stdout.hasPrefix("## signin-spec fuzz: amplify-signin-2026, shard 1/1\n"))
    #expect(run.stdout.contains("| stuckOnUnknownChallenge | 7 | 1000 |"))
    #expect(run.stdout.contains("FUTURE_CHALLENGE_2027"))
  }
}
