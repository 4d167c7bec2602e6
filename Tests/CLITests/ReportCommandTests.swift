import Foundation
import Testing

/// `signin-spec report --html` and `verify --html`: the page written, the exit codes, bad input.
@Suite("report --html and verify --html")
struct ReportCommandTests {
  static func output() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID()).html").path
  }

  @Test("report writes the page and exits 0 whatever the verdicts; verify --html exits by the verdicts")
  func exitCodes() throws {
    let (model, _) = try CIOutputTests.brokenModel()
    defer { try? FileManager.default.removeItem(atPath: model) }
    let page = Self.output()
    defer { try? FileManager.default.removeItem(atPath: page) }
    let report = try CommandLineTests.run(["report", "--html", page, model, "--engines", "explicit"])
    #expect(report.status == 0, "\(report.stderr)")
    #expect(report.stdout == "wrote \(page): 1 model, 20 checks: 16 hold, 4 violated\n")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("data-property=\"failAuthenticationRestarts\" data-verdict=\"violated\""))

    let verify = try CommandLineTests.run(["verify", model, "--engines", "explicit", "--html", page])
    #expect(verify.status == 1)
    #expect(try String(contentsOfFile: page, encoding: .utf8).contains("4 violated"))
  }

  @Test("both engines' verdicts are in the table")
  func bothEngines() throws {
    let page = Self.output()
    defer { try? FileManager.default.removeItem(atPath: page) }
    let run = try CommandLineTests.run(["report", "--html", page, "models/2023-swift.yaml"])
    #expect(run.status == 0, "\(run.stderr)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("<td>proven, unbounded</td>"))
    #expect(!html.contains("data-verdict=\"violated\""))
  }

  @Test("the explicit search stops at verify's limits: the page and standard error say UNKNOWN, naming it")
  func searchLimits() throws {
    // Without the limits a model of 100 flags each read by a guard (2^100 classes) kept report
    // running past two minutes where verify stopped at --max-states.
    let page = Self.output()
    defer { try? FileManager.default.removeItem(atPath: page) }
    let run = try CommandLineTests.run([
      "report", "--html", page, "models/2023-swift.yaml", "--engines", "explicit", "--max-states", "50",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("UNKNOWN: the explicit search stopped"), "\(run.stderr)")
    #expect(run.stderr.contains("--max-states"), "\(run.stderr)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains("UNKNOWN: the explicit search stopped"))
    // No property holds on a stopped search: its table says unknown, as the text report does.
    #expect(!html.contains("data-verdict=\"holds\""))
    #expect(html.contains("data-property=\"terminates\" data-verdict=\"unknown\""))
    #expect(run.stdout.contains("unknown (the explicit search stopped)"), "\(run.stdout)")
    for limit in ["--max-configurations", "--max-depth"] {
      let stopped = try CommandLineTests.run([
        "report", "--html", page, "models/2023-swift.yaml", "--engines", "explicit", limit, "1",
      ])
      #expect(stopped.status == 0, "\(stopped.stderr)")
      #expect(stopped.stderr.contains(limit), "\(limit): \(stopped.stderr)")
    }
  }

  @Test(
    "bad usage exits 64 naming the option",
    arguments: [
      (["report", "models/2023-swift.yaml"], "--html"),
      (["report", "--html", "/no/such/folder/r.html", "models/2023-swift.yaml"], "--html"),
      (["report", "--html", "OUT", "--diff", "models/2023-swift.yaml"], "exactly one MODEL"),
      (["report", "--html", "OUT", "--fuzz", "models/2023-swift.yaml", "models/2023-swift.yaml"], "--fuzz"),
      (["verify", "--engines", "z3", "--html", "OUT"], "--html needs the explicit engine"),
      (["report", "--html", "OUT", "--max-states", "0", "models/2023-swift.yaml"], "--max-states"),
      (["report", "--html", "OUT", "--max-depth", "-1", "models/2023-swift.yaml"], "--max-depth"),
      (["report", "--html", "OUT", "--max-pending-memory", "0", "models/2023-swift.yaml"], "--max-pending-memory"),
    ])
  func badUsage(arguments: [String], expected: String) throws {
    let page = Self.output()
    let run = try CommandLineTests.run(arguments.map { $0 == "OUT" ? page : $0 })
    #expect(run.status == 64)
    #expect(run.stderr.contains(expected), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: page))
  }
}
