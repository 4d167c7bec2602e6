/// `signin-spec diff --format markdown`: a pull-request comment or CI step summary — breaking
/// findings first, a table of changes, traces in collapsible blocks.
public enum DiffMarkdownReport {
  public static func render(_ d: ModelDiff) -> String {
    let n = DiffTextReport.n
    var out: [String] = []
    out.append("### signin-spec diff: `\(d.old.file)` → `\(d.new.file)`")
    out.append("")
    out.append(
      d.isBreaking
        ? "**Breaking** for platforms \(d.platforms.joined(separator: ", "))"
        : "Nothing breaking for platforms \(d.platforms.joined(separator: ", "))")
    out.append("")
    if d.isBreaking {
      out.append("| platform | finding | step | configurations |")
      out.append("|---|---|---|---|")
      for g in d.lostDone {
        out.append(
          "| all | lost done (first difference: \(g.response) at `\(g.step)`) | `\(g.step)` | \(n(g.configurations)) |")
      }
      for f in d.compatibility {
        out.append(
          "| \(f.platform) | \(f.kind.rawValue) \(f.values.map { "`\($0)`" }.joined(separator: ", ")) "
            + "| `\(f.stepName)` | \(n(f.configurations)) |")
      }
      out.append("")
      for f in d.compatibility {
        out.append("<details><summary>\(f.platform): \(DiffTextReport.describe(f))</summary>")
        out.append("")
        out.append("Witness: " + DiffTextReport.witness(f.witness))
        out.append("")
        out.append("```")
        out.append(f.trace.map { "\($0.step) --\($0.response)--> \($0.outcome)" }.joined(separator: "\n"))
        out.append("```")
        out.append("</details>")
      }
      out.append("")
    }
    out.append(
      "**Behaviour:** \(n(d.compared)) configurations in both models, \(n(d.changedCount)) changed, "
        + "\(n(d.addedCount)) added, \(n(d.removedCount)) removed (\(d.classes) configuration classes).")
    if let partial = DiffTextReport.partialNote(d) {
      out.append("")
      out.append("**" + partial + ".**")
    }
    out.append("")
    out.append("| change | what | name | detail |")
    out.append("|---|---|---|---|")
    for c in d.structural {
      out.append(
        "| \(c.kind.rawValue) | \(c.category) | `\(c.name)` | \(c.detail.replacingOccurrences(of: "|", with: "\\|")) |")
    }
    for g in d.changed {
      out.append("")
      out.append(
        "<details><summary>\(n(g.configurations)) configurations: at <code>\(g.step)</code> on "
          + "<code>\(g.response)</code>, \(DiffTextReport.list(g.oldOutcomes)) → \(DiffTextReport.list(g.newOutcomes))</summary>"
      )
      out.append("")
      out.append("Witness: " + DiffTextReport.witness(g.witness))
      out.append("")
      out.append("| OLD | NEW |")
      out.append("|---|---|")
      let a = g.oldTrace ?? []
      let b = g.newTrace ?? []
      for i in 0..<max(a.count, b.count) {
        let l = i < a.count ? "\(a[i].step) --\(a[i].response)--> \(a[i].outcome)" : ""
        let r = i < b.count ? "\(b[i].step) --\(b[i].response)--> \(b[i].outcome)" : ""
        out.append("| \(l) | \(r) |")
      }
      out.append("</details>")
    }
    return out.joined(separator: "\n")
  }
}
