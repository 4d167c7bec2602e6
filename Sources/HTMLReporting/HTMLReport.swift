import Diagrams
import Evolution
import Foundation
import ModelChecking
import Reporting
import SignInModel
import SymbolicChecking

/// One self-contained HTML page for a run of `signin-spec verify` or `report`: each model's
/// verdicts (both engines), its flow diagram, its lint warnings, and each counterexample
/// stepped through call by call on a diagram of its configuration with the path highlighted;
/// with fuzz reports and diffs, their coverage and the configurations a change affects. No
/// resource comes from the network: style, script and diagrams are inline.
public struct HTMLReport {
  /// A model's results: the explicit search's report, Z3's proof (when it ran), lint warnings.
  public struct ModelResult {
    public let report: CheckReport
    public let proof: ProofReport?
    public let lint: [LintWarning]

    public init(report: CheckReport, proof: ProofReport?, lint: [LintWarning]) {
      self.report = report
      self.proof = proof
      self.lint = lint
    }
  }

  public var models: [ModelResult]
  public var fuzzRuns: [FuzzRun] = []
  public var diffs: [ModelDiff] = []
  /// Step names as this platform calls them; nil for the model's ids.
  public var platform: String?
  public var toolVersion: String
  /// Turns DOT into SVG (Graphviz's `dot -Tsvg`); nil when it cannot, and the page says so.
  public var drawSVG: (String) -> String?
  /// Diagrams with more steps than this are not drawn (Graphviz's layout of thousands of
  /// nodes takes minutes and the picture says nothing); the page says so instead.
  public var maxDiagramSteps = HTMLReport.defaultMaxDiagramSteps
  public static let defaultMaxDiagramSteps = 400

  public init(
    models: [ModelResult], platform: String? = nil, toolVersion: String, drawSVG: @escaping (String) -> String?
  ) {
    self.models = models
    self.platform = platform
    self.toolVersion = toolVersion
    self.drawSVG = drawSVG
  }

  /// The verdict counts over every model, e.g. "3 models, 59 checks: 58 hold, 1 violated".
  public var summary: String { TextReport.summary(models.map(\.report)) }

  public func render() -> String {
    var html = HTMLLines()
    let failed = models.flatMap(\.report.results).filter { !$0.verdict.passed }.count
    html.add("<!DOCTYPE html>")
    html.add("<html lang=\"en\">")
    html.add("<head>")
    html.add("<meta charset=\"utf-8\">")
    html.add("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
    html.add("<meta name=\"generator\" content=\"signin-spec \(HTMLText.escape(toolVersion))\">")
    html.add("<title>signin-spec report: \(HTMLText.escape(summary))</title>")
    html.add("<style>\n\(HTMLAssets.style)\n</style>")
    html.add("</head>")
    html.add("<body>")
    html.add("<header>")
    html.add("<h1>signin-spec report</h1>")
    html.add(
      "<p class=\"summary\"><span class=\"\(failed == 0 ? "v-pass" : "v-fail")\">\(HTMLText.escape(summary))"
        + "</span></p>")
    html.add(
      "<p>signin-spec \(HTMLText.escape(toolVersion))\(platform.map { ", names as \(HTMLText.escape($0)) calls them" } ?? "").</p>"
    )
    html.add("</header>")
    html.add("<main>")
    if models.count + fuzzRuns.count + diffs.count > 1 { contents(&html) }
    for (i, model) in models.enumerated() { section(model, index: i, into: &html) }
    for (i, run) in fuzzRuns.enumerated() { fuzzSection(run, index: i, into: &html) }
    for (i, diff) in diffs.enumerated() { diffSection(diff, index: i, into: &html) }
    html.add("</main>")
    html.add("<script>\n\(HTMLAssets.script)\n</script>")
    html.add("</body>")
    html.add("</html>")
    return html.text
  }

  private func contents(_ html: inout HTMLLines) {
    html.add("<nav aria-label=\"Contents\">")
    html.add("<h2>Contents</h2>")
    html.add("<ul>")
    for (i, model) in models.enumerated() {
      let results = model.report.results
      let failed = results.filter { !$0.verdict.passed }.count
      html.add(
        "<li><a href=\"#m\(i)\">\(HTMLText.escape(model.report.model.name))</a>: "
          + (failed == 0 ? "all \(results.count) checks pass" : "\(failed) of \(results.count) checks fail")
          + "</li>")
    }
    for (i, run) in fuzzRuns.enumerated() {
      html.add("<li><a href=\"#fuzz\(i)\">fuzz: \(HTMLText.escape(run.model)), \(run.cases) cases</a></li>")
    }
    for (i, diff) in diffs.enumerated() {
      html.add(
        "<li><a href=\"#diff\(i)\">diff: \(HTMLText.escape(diff.old.file)) → \(HTMLText.escape(diff.new.file))</a></li>"
      )
    }
    html.add("</ul>")
    html.add("</nav>")
  }

  // MARK: A model

  private func section(_ result: ModelResult, index: Int, into html: inout HTMLLines) {
    let report = result.report
    let model = report.model
    let id = "m\(index)"
    let summary = TextReport.searchSummary(report.statistics)
    html.add("<section id=\"\(id)\" class=\"model\" aria-labelledby=\"\(id)-title\">")
    html.add(
      "<h2 id=\"\(id)-title\">\(HTMLText.escape(model.name)) <small>(\(HTMLText.escape(model.file)), generation "
        + "\(HTMLText.escape(model.generation)))</small></h2>")
    html.add(
      "<p>" + HTMLText.escape(summary.prefix(1).uppercased() + summary.dropFirst()) + "."
        + (result.proof.map { " Z3: \($0.results.count) properties." } ?? " Z3 did not run.") + "</p>")
    if let incomplete = report.incomplete {
      html.add("<p class=\"v-warn\">UNKNOWN: the explicit search stopped: \(HTMLText.escape(incomplete)).</p>")
    }
    verdictTable(result, id: id, into: &html)
    html.add("<h3 id=\"\(id)-flow\">Flow</h3>")
    let diagram = FlowDiagram(model: model, platform: platform)
    figure(
      diagram, prefix: "\(id)_flow_",
      label: "Flow diagram of \(model.name): steps grouped by phase, edges labelled with responses",
      into: &html)
    html.add("<h3 id=\"\(id)-lint\">Lint warnings</h3>")
    if result.lint.isEmpty {
      html.add("<p>None.</p>")
    } else {
      html.add("<ul class=\"lint\">")
      for w in result.lint {
        let state = w.acknowledged.map { " <em>(acknowledged: \(HTMLText.escape($0)))</em>" } ?? ""
        html.add(
          "<li><code>\(HTMLText.escape(w.location))</code> [\(HTMLText.escape(w.rule))] "
            + "<strong>\(HTMLText.escape(w.target))</strong>: \(HTMLText.escape(w.message))\(state)</li>")
      }
      html.add("</ul>")
    }
    for (k, check) in report.results.enumerated() {
      let anchor = "\(id)-p\(k)"
      let name = HTMLText.escape(check.invariant.rawValue)
      switch check.verdict {
      case .holds: continue
      case .vacuous(let reason):
        html.add("<h3 id=\"\(anchor)\"><code>\(name)</code> holds only vacuously</h3>")
        html.add("<p>Only because \(HTMLText.escape(reason)).</p>")
      case .notChecked(let reason, let acknowledged):
        html.add("<h3 id=\"\(anchor)\"><code>\(name)</code> is not checked</h3>")
        html.add(
          "<p>\(HTMLText.escape(reason))"
            + (acknowledged.map { " (acknowledged in the model's lint: section: \(HTMLText.escape($0)))" } ?? "")
            + "</p>")
      case .violated(let counterexample):
        html.add("<h3 id=\"\(anchor)\"><code>\(name)</code> is violated</h3>")
        trace(counterexample, model: model, prefix: "\(id)_p\(k)_", into: &html)
      }
    }
    html.add("</section>")
  }

  private func verdictTable(_ result: ModelResult, id: String, into html: inout HTMLLines) {
    let model = result.report.model
    html.add("<table class=\"verdicts\">")
    html.add("<caption>Verdicts of \(HTMLText.escape(model.name))</caption>")
    html.add(
      "<thead><tr><th scope=\"col\">property</th><th scope=\"col\">explicit search</th>"
        + "<th scope=\"col\">Z3</th><th scope=\"col\">what it says</th></tr></thead>")
    html.add("<tbody>")
    for (k, check) in result.report.results.enumerated() {
      let unknown = result.report.undecided(check.verdict)
      let (word, kind) = unknown ? ("UNKNOWN (the search stopped)", "unknown") : Self.word(check.verdict)
      let z3 = result.proof?.results.first { $0.invariant == check.invariant }.map { Self.word($0.verdict) } ?? "-"
      let name = HTMLText.escape(check.invariant.rawValue)
      let cell = check.verdict == .holds ? "<code>\(name)</code>" : "<a href=\"#\(id)-p\(k)\"><code>\(name)</code></a>"
      let style = unknown ? "v-warn" : check.verdict.passed ? "v-pass" : "v-fail"
      html.add(
        "<tr class=\"verdict\" data-property=\"\(name)\" data-verdict=\"\(kind)\"><th scope=\"row\">\(cell)</th>"
          + "<td class=\"\(style)\">\(word)</td><td>\(HTMLText.escape(z3))</td>"
          + "<td>\(HTMLText.escape(check.invariant.meaning(in: model)))</td></tr>")
    }
    html.add("</tbody>")
    html.add("</table>")
  }

  static func word(_ verdict: Verdict) -> (String, String) {
    switch verdict {
    case .holds: return ("holds", "holds")
    case .violated: return ("VIOLATED", "violated")
    case .vacuous: return ("VACUOUS", "vacuous")
    case .notChecked(_, let acknowledged):
      return acknowledged == nil ? ("NOT CHECKED", "not-checked") : ("not checked (acknowledged)", "not-checked")
    }
  }

  static func word(_ verdict: ProofVerdict) -> String {
    switch verdict {
    case .proven: return "proven, unbounded"
    case .violated: return "violated"
    case .vacuous: return "vacuous"
    case .notChecked: return "not checked"
    case .unknown(let reason): return "unknown (\(reason))"
    case .failed(let reason): return "unknown (internal error: \(reason))"
    }
  }

  // MARK: A counterexample

  /// The counterexample's configuration, a diagram of the flow under it with the path in red,
  /// and its calls, which the page's script steps through.
  private func trace(_ c: Counterexample, model: SignInModel, prefix: String, into html: inout HTMLLines) {
    let renderer = TraceRenderer(model: model, platform: platform)
    html.add("<div class=\"trace\" id=\"\(prefix)trace\">")
    html.add("<p>\(HTMLText.escape(c.message))</p>")
    html.add("<h4>Configuration</h4>")
    let fixed = c.configuration.filter { $0.value != nil }
    if fixed.isEmpty {
      html.add("<p>Any configuration.</p>")
    } else {
      html.add("<dl class=\"config\">")
      for a in fixed {
        html.add("<dt>\(HTMLText.escape(a.variable))</dt><dd>\(HTMLText.escape(a.value ?? ""))</dd>")
      }
      html.add("</dl>")
      let free = c.configuration.filter { $0.value == nil }.map(\.variable)
      if !free.isEmpty {
        html.add("<p>Any value: \(free.map { "<code>\(HTMLText.escape($0))</code>" }.joined(separator: ", ")).</p>")
      }
    }
    // The diagram of this configuration, so it shows what the calls could have done instead.
    var values: [Int: Int] = [:]
    for a in fixed {
      guard let i = model.variableIndex(named: a.variable), let text = a.value else { continue }
      let domain = model.variables[i].domain
      if let v = domain.values.first(where: { domain.render($0) == text }) { values[i] = v }
    }
    var diagram = FlowDiagram(model: model, configuration: values, platform: platform)
    let path = TracePath.path(of: c, model: model)
    if !diagram.highlight(path).isEmpty {
      // A call the configuration's diagram leaves out: draw the whole flow instead.
      diagram = FlowDiagram(model: model, platform: platform)
      _ = diagram.highlight(path)
    }
    let calls = c.pairedSteps == nil ? c.steps.count : min(c.steps.count, c.pairedSteps?.count ?? 0)
    html.add("<h4>Calls</h4>")
    html.add("<div class=\"stepper\">")
    html.add("<button type=\"button\" class=\"prev\">Previous call</button>")
    html.add("<button type=\"button\" class=\"next\">Next call</button>")
    html.add("<p class=\"now\" aria-live=\"polite\">All \(calls) calls: the path is drawn in red.</p>")
    html.add("</div>")
    figure(
      diagram, prefix: prefix,
      label: "The flow under this configuration, the counterexample's path in red", into: &html)
    html.add("<ol class=\"calls\">")
    for (i, step) in c.steps.prefix(calls).enumerated() {
      if c.loopStartsAt == i { html.add("<li class=\"loop\">From here the calls repeat forever.</li>") }
      let summary = "\(step.call)(\(step.response)) → \(renderer.outcomeText(step))"
      var attributes = "value=\"\(i + 1)\" data-call=\"\(i + 1)\" data-summary=\"\(HTMLText.escape(summary))\""
      if i < path.count {
        let p = path[i]
        attributes += " data-edge=\"\(DotRenderer.edgeID(prefix, from: p.step, to: p.to))\""
        attributes += " data-from=\"\(DotRenderer.nodeID(prefix, p.step))\""
        if case .step(let t) = p.to { attributes += " data-to=\"\(DotRenderer.nodeID(prefix, t))\"" }
      }
      var detail: [String] = []
      for (name, change) in step.changes.sorted(by: { $0.key < $1.key }) {
        detail.append("<code>\(HTMLText.escape(name))</code>: \(HTMLText.escape(change))")
      }
      if !step.ruleLines.isEmpty {
        detail.append(
          "rule\(step.ruleLines.count > 1 ? "s" : ""): <code>\(HTMLText.escape(model.file)):"
            + step.ruleLines.map(String.init).joined(separator: ", ") + "</code>")
      }
      var text =
        "<code>\(HTMLText.escape("\(step.call)(\(step.response))"))</code> → "
        + HTMLText.escape(renderer.outcomeText(step))
      if let right = c.pairedSteps, i < right.count {
        text =
          "left run: " + text
          + "<br>right run: <code>\(HTMLText.escape("\(right[i].call)(\(right[i].response))"))</code> → "
          + HTMLText.escape(renderer.outcomeText(right[i]))
      }
      html.add(
        "<li \(attributes)>\(text)"
          + (detail.isEmpty ? "" : "<br><span class=\"detail\">\(detail.joined(separator: "; "))</span>") + "</li>")
    }
    if let loop = c.loopStartsAt { html.add("<li class=\"loop\">Back to call \(loop + 1).</li>") }
    html.add("</ol>")
    html.add("</div>")
  }

  /// A diagram as inline SVG in a scrollable, focusable region; a note when it cannot be drawn.
  private func figure(_ diagram: FlowDiagram, prefix: String, label: String, into html: inout HTMLLines) {
    if maxDiagramSteps > 0 && diagram.nodes.count > maxDiagramSteps {
      html.add(
        "<p class=\"v-warn\">The diagram is not drawn: \(diagram.nodes.count) steps, more than "
          + "--max-diagram-steps (\(maxDiagramSteps)).</p>")
      return
    }
    let dot = DotRenderer.render(diagram, idPrefix: prefix)
    guard let svg = drawSVG(dot), let start = svg.range(of: "<svg") else {
      html.add(
        "<p class=\"v-warn\">The diagram is not drawn: Graphviz's <code>dot</code> is not available "
          + "(install it: <code>make graphviz</code>).</p>")
      html.add("<details><summary>The diagram's DOT source</summary><pre>\(HTMLText.escape(dot))</pre></details>")
      return
    }
    let body = "<svg role=\"img\" aria-label=\"\(HTMLText.escape(label))\"" + svg[start.upperBound...]
    html.add("<div class=\"diagram\" tabindex=\"0\" role=\"region\" aria-label=\"\(HTMLText.escape(label))\">")
    html.add(body.trimmingCharacters(in: .whitespacesAndNewlines))
    html.add("</div>")
  }
}
