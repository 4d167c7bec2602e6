import Diagrams
import Evolution
import Foundation
import ModelChecking
import ModelTestSupport
import SignInModel
import Testing

@testable import HTMLReporting

/// The page `report --html` and `verify --html` write, read as text (the browser test in
/// Tests/python/test_html_report.py opens it in Chromium).
@Suite("HTML report: one self-contained page")
struct HTMLReportTests {
  /// The 2023 model with the define trigger's failed authentication made a retryable error.
  static func brokenModel() throws -> SignInModel {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let needle =
      "      failingAnswer:\n        - restart: \"NotAuthorizedException: the define trigger failed authentication\""
    #expect(text.contains(needle))
    return try ModelLoader.load(
      yaml: text.replacingOccurrences(
        of: needle, with: "      failingAnswer:\n        - error: NotAuthorizedException"),
      file: "broken-2023.yaml")
  }

  /// A page with the explicit search's verdicts; `dot` stands in for Graphviz by echoing the DOT
  /// inside an `<svg>` element, so the test sees exactly what would be drawn.
  static func page(_ model: SignInModel, draw: Bool = true) -> String {
    let report = ExplicitChecker(model: model, jobs: 1).check()
    let page = HTMLReport(
      models: [.init(report: report, proof: nil, lint: [])], toolVersion: "test",
      drawSVG: { dot in draw ? "<?xml version=\"1.0\"?>\n<svg width=\"1pt\">\(HTMLText.escape(dot))</svg>" : nil })
    return page.render()
  }

  @Test("text is escaped in content and attributes")
  func escaping() {
    #expect(HTMLText.escape("<a href=\"x\">&'</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;")
  }

  @Test("a violated property has a verdict row, a link to its counterexample, and one row per call")
  func violatedProperty() throws {
    let html = Self.page(try Self.brokenModel())
    #expect(html.contains("data-property=\"failAuthenticationRestarts\" data-verdict=\"violated\""))
    #expect(html.contains("data-property=\"noFactorSkipped\" data-verdict=\"holds\""))
    #expect(html.contains("<title>signin-spec report: 1 model, 20 checks: 16 hold, 4 violated</title>"))
    // terminates (the first check) is violated: its row links to its section, which has three calls.
    #expect(html.contains("<a href=\"#m0-p0\"><code>terminates</code></a>"))
    let trace = try #require(html.components(separatedBy: "id=\"m0_p0_trace\"").last)
    let calls = trace.components(separatedBy: "</ol>")[0].components(separatedBy: " data-call=").count - 1
    #expect(calls == 3)
    #expect(trace.contains("data-edge=\"m0_p0_e0_5\" data-from=\"m0_p0_n0\" data-to=\"m0_p0_n5\""))
    #expect(trace.contains("From here the calls repeat forever."))
  }

  @Test("each call's edge is drawn in red in the diagram of its configuration, under the id the row names")
  func highlightedPath() throws {
    let model = try Self.brokenModel()
    let report = ExplicitChecker(model: model, jobs: 1).check(invariants: [.failAuthenticationRestarts])
    guard case .violated(let c) = try #require(report.results.first).verdict else {
      Issue.record("failAuthenticationRestarts holds on the broken model")
      return
    }
    let path = TracePath.path(of: c, model: model)
    #expect(path.count == c.steps.count)
    var diagram = FlowDiagram(model: model)
    #expect(diagram.highlight(path).isEmpty)
    let dot = DotRenderer.render(diagram, idPrefix: "x_")
    for step in path {
      let id = DotRenderer.edgeID("x_", from: step.step, to: step.to)
      let line = try #require(dot.split(separator: "\n").first { $0.contains("id=\"\(id)\"") })
      #expect(line.contains("class=\"path\"") && line.contains("#dd0000"))
    }
    #expect(!DotRenderer.render(diagram).contains("id="))
  }

  @Test("the page loads nothing from elsewhere: style and script inline")
  func selfContained() throws {
    let html = Self.page(try Self.brokenModel())
    #expect(!html.contains("<link"))
    #expect(!html.contains("<script src"))
    #expect(!html.contains("url("))
    #expect(html.contains("<style>") && html.contains("<script>"))
    // The XML prologue Graphviz writes is dropped; the SVG is labelled for screen readers.
    #expect(!html.contains("<?xml"))
    #expect(html.contains("<svg role=\"img\" aria-label=\"Flow diagram of amplify-signin-2023"))
  }

  @Test("without Graphviz the page says so and keeps the DOT source")
  func withoutGraphviz() throws {
    let html = Self.page(try Self.brokenModel(), draw: false)
    #expect(html.contains("The diagram is not drawn: Graphviz"))
    #expect(html.contains("digraph &quot;amplify-signin-2023&quot;"))
    #expect(!html.contains("<svg"))
  }

  @Test("a fuzz report is read, and a file of another kind is refused naming it")
  func fuzzReport() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("html-report-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = folder.appendingPathComponent("fuzz.json").path
    try Data(
      """
      {"format": "signin-spec-fuzz-report", "version": 1, "model": "m", "client": "reference", "seed": "7",
       "cases": 10, "calls": 40, "failures": 1, "saved": ["counterexamples/ab.json"], "transitions": 8,
       "covered": 6, "neverExercised": ["signIn / wrongPassword -> restart"]}
      """.utf8
    ).write(to: URL(fileURLWithPath: good))
    var page = HTMLReport(models: [], toolVersion: "test", drawSVG: { _ in nil })
    page.fuzzRuns = [try FuzzRun.read(good)]
    let html = page.render()
    #expect(html.contains("6 of 8 (75 %)"))
    #expect(html.contains("<code>counterexamples/ab.json</code>"))
    #expect(html.contains("signIn / wrongPassword -&gt; restart"))

    let other = folder.appendingPathComponent("other.json").path
    try Data(#"{"format": "signin-spec-counterexample", "version": 1}"#.utf8).write(to: URL(fileURLWithPath: other))
    #expect(throws: FuzzRun.ReadError.self) { try FuzzRun.read(other) }
    do { _ = try FuzzRun.read(other) } catch { #expect(error.description.hasPrefix(other)) }
  }

  @Test("a diff section counts the affected configurations and lists the changed groups")
  func diffSection() throws {
    let old = try ModelLoader.load(file: "models/2023-swift.yaml")
    let new = try Self.brokenModel()
    var page = HTMLReport(models: [], toolVersion: "test", drawSVG: { _ in nil })
    page.diffs = [ModelDiff(old: old, new: new)]
    let html = page.render()
    #expect(html.contains("<section id=\"diff0\""))
    #expect(html.contains("<th scope=\"row\">changed</th>"))
    #expect(html.contains("on failingAnswer"))
  }

  @Test("a diagram above --max-diagram-steps is not drawn, and Graphviz is never asked for it")
  func bigDiagram() throws {
    let model = SyntheticModels.scaled(try ModelLoader.load(file: "models/2023-swift.yaml"), factor: 8)
    let report = ExplicitChecker(model: model, jobs: 1).check(invariants: [.deterministic])
    nonisolated(unsafe) var asked = 0
    var page = HTMLReport(
      models: [.init(report: report, proof: nil, lint: [])], toolVersion: "test",
      drawSVG: { _ in
        asked += 1
        return "<svg></svg>"
      })
    page.maxDiagramSteps = 20
    let html = page.render()
    #expect(asked == 0)
    #expect(html.contains("The diagram is not drawn:"))
    #expect(html.contains("more than --max-diagram-steps (20)"))
    page.maxDiagramSteps = 0
    _ = page.render()
    #expect(asked == 1)
  }
}
