import Evolution
import Foundation

extension HTMLReport {
  /// A fuzz run: its cases and failures, the model transitions it exercised, those it never did.
  func fuzzSection(_ run: FuzzRun, index: Int, into html: inout HTMLLines) {
    let id = "fuzz\(index)"
    let share = run.transitions == 0 ? 0 : Double(run.covered) / Double(run.transitions) * 100
    html.add("<section id=\"\(id)\" class=\"fuzz\" aria-labelledby=\"\(id)-title\">")
    html.add(
      "<h2 id=\"\(id)-title\">Fuzz run: \(HTMLText.escape(run.model)), client \(HTMLText.escape(run.client))</h2>")
    html.add("<table class=\"fuzz-summary\">")
    html.add("<caption>Fuzz run read from <code>\(HTMLText.escape(run.file))</code></caption>")
    html.add("<tbody>")
    html.add("<tr><th scope=\"row\">seed</th><td><code>\(HTMLText.escape(run.seed))</code></td></tr>")
    html.add("<tr><th scope=\"row\">cases</th><td>\(run.cases.formatted()) (\(run.calls.formatted()) calls)</td></tr>")
    html.add(
      "<tr><th scope=\"row\">failures</th><td class=\"\(run.failures == 0 ? "v-pass" : "v-fail")\">\(run.failures)"
        + "</td></tr>")
    html.add(
      "<tr><th scope=\"row\">transition coverage</th><td class=\"coverage\">\(run.covered) of \(run.transitions) "
        + "(\(String(format: "%.0f", share)) %)</td></tr>")
    html.add("</tbody>")
    html.add("</table>")
    if !run.saved.isEmpty {
      html.add("<h3>Saved failures</h3>")
      html.add("<p>Replay each with <code>signin-spec replay FILE</code>.</p>")
      html.add("<ul>")
      for file in run.saved { html.add("<li><code>\(HTMLText.escape(file))</code></li>") }
      html.add("</ul>")
    }
    if !run.neverExercised.isEmpty {
      html.add("<details>")
      html.add("<summary>\(run.neverExercised.count) transitions never exercised</summary>")
      html.add("<ul class=\"never\">")
      for t in run.neverExercised { html.add("<li><code>\(HTMLText.escape(t))</code></li>") }
      html.add("</ul>")
      html.add("</details>")
    }
    html.add("</section>")
  }

  /// A diff: whether it breaks old clients, the structural changes, and each group of
  /// configurations whose behaviour changed, with a witness and both traces.
  func diffSection(_ d: ModelDiff, index: Int, into html: inout HTMLLines) {
    let id = "diff\(index)"
    let n = DiffTextReport.n
    html.add("<section id=\"\(id)\" class=\"diff\" aria-labelledby=\"\(id)-title\">")
    html.add(
      "<h2 id=\"\(id)-title\">Diff: <code>\(HTMLText.escape(d.old.file))</code> → "
        + "<code>\(HTMLText.escape(d.new.file))</code></h2>")
    html.add(
      d.isBreaking
        ? "<p class=\"v-fail\">Breaking for platforms \(HTMLText.escape(d.platforms.joined(separator: ", "))).</p>"
        : "<p class=\"v-pass\">Nothing breaking for platforms \(HTMLText.escape(d.platforms.joined(separator: ", "))).</p>"
    )
    if let partial = DiffTextReport.partialNote(d) { html.add("<p class=\"v-warn\">\(HTMLText.escape(partial)).</p>") }
    html.add("<table class=\"diff-counts\">")
    html.add("<caption>Configurations affected</caption>")
    html.add("<thead><tr><th scope=\"col\">configurations</th><th scope=\"col\">count</th></tr></thead>")
    html.add("<tbody>")
    for (label, value) in [
      ("in both models", d.compared), ("unchanged", d.unchanged), ("changed", d.changedCount),
      ("added", d.addedCount), ("removed", d.removedCount),
    ] {
      html.add("<tr><th scope=\"row\">\(label)</th><td>\(n(value))</td></tr>")
    }
    html.add("</tbody>")
    html.add("</table>")
    if !d.lostDone.isEmpty || !d.compatibility.isEmpty {
      html.add("<h3>Breaking findings</h3>")
      html.add("<ul>")
      for g in d.lostDone {
        html.add(
          "<li>\(n(g.configurations)) configurations can no longer reach done (first difference: "
            + "<code>\(HTMLText.escape(g.response))</code> at <code>\(HTMLText.escape(g.step))</code>); witness: "
            + "\(HTMLText.escape(DiffTextReport.witness(g.witness)))</li>")
      }
      for f in d.compatibility {
        html.add(
          "<li>\(HTMLText.escape(f.platform)): \(HTMLText.escape(DiffTextReport.describe(f))); witness: "
            + "\(HTMLText.escape(DiffTextReport.witness(f.witness)))</li>")
      }
      html.add("</ul>")
    }
    if !d.structural.isEmpty {
      html.add("<table class=\"structural\">")
      html.add("<caption>What changed in the model text</caption>")
      html.add(
        "<thead><tr><th scope=\"col\">change</th><th scope=\"col\">what</th><th scope=\"col\">name</th>"
          + "<th scope=\"col\">detail</th></tr></thead>")
      html.add("<tbody>")
      for c in d.structural {
        html.add(
          "<tr><td>\(c.kind.rawValue)</td><td>\(HTMLText.escape(c.category))</td><td><code>"
            + "\(HTMLText.escape(c.name))</code></td><td>\(HTMLText.escape(c.detail))</td></tr>")
      }
      html.add("</tbody>")
      html.add("</table>")
    }
    let groups = d.changed.map { ("changed", $0) } + d.added.map { ("added", $0) } + d.removed.map { ("removed", $0) }
    for (kind, g) in groups {
      let what =
        kind == "changed"
        ? "at \(g.step) on \(g.response): \(DiffTextReport.list(g.oldOutcomes)) → \(DiffTextReport.list(g.newOutcomes))"
        : "\(kind): \(g.reason)"
      html.add("<details class=\"group\">")
      html.add("<summary>\(n(g.configurations)) configurations \(HTMLText.escape(what))</summary>")
      html.add("<p>Witness: \(HTMLText.escape(DiffTextReport.witness(g.witness)))</p>")
      let a = g.oldTrace ?? []
      let b = g.newTrace ?? []
      if !a.isEmpty || !b.isEmpty {
        html.add("<table><thead><tr><th scope=\"col\">old</th><th scope=\"col\">new</th></tr></thead><tbody>")
        for i in 0..<max(a.count, b.count) {
          let l = i < a.count ? "\(a[i].step) --\(a[i].response)--> \(a[i].outcome)" : ""
          let r = i < b.count ? "\(b[i].step) --\(b[i].response)--> \(b[i].outcome)" : ""
          html.add("<tr><td><code>\(HTMLText.escape(l))</code></td><td><code>\(HTMLText.escape(r))</code></td></tr>")
        }
        html.add("</tbody></table>")
      }
      if !g.reachedSteps.isEmpty {
        html.add(
          "<p>Steps reached: \(g.reachedSteps.map { "<code>\(HTMLText.escape($0))</code>" }.joined(separator: ", ")).</p>"
        )
      }
      html.add("</details>")
    }
    html.add("</section>")
  }
}
