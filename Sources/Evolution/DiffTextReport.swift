import SignInModel

/// `signin-spec diff` for a terminal.
public enum DiffTextReport {
  /// What a diff stopped at `--max-classes` did not compare, in words; nil for a whole diff.
  public static func partialNote(_ d: ModelDiff) -> String? {
    guard let limit = d.limit else { return nil }
    return "INCOMPLETE: \(limit); the counts and groups cover the classes compared only, and the others may "
      + "change or break: raise the limit to compare them"
  }

  public static func render(_ d: ModelDiff) -> String {
    var out: [String] = []
    out.append("diff \(d.old.file) (\(d.old.name)) → \(d.new.file) (\(d.new.name))")
    out.append("platforms checked: " + d.platforms.joined(separator: ", "))
    out.append("")
    out.append("structural changes: \(d.structural.count)")
    for c in d.structural {
      out.append(
        "  \(c.kind.rawValue.padding(8)) \(c.category.padding(22)) \(c.name)"
          + (c.detail.isEmpty ? "" : "  (\(c.detail))") + (c.line > 0 ? "  line \(c.line)" : ""))
    }
    for v in d.missingDefaults {
      out.append("  note: '\(v)' exists in one model only and declares no default:; compared at its first value")
    }
    out.append("")
    out.append(
      "behaviour: \(d.classes) configuration classes; \(n(d.compared)) configurations in both models, "
        + "\(n(d.changedCount)) changed, \(n(d.unchanged)) unchanged; \(n(d.addedCount)) added, \(n(d.removedCount)) removed"
    )
    if let partial = partialNote(d) { out.append("  " + partial) }
    if d.changedCount == 0 && !d.limitReached {
      out.append("  no behavioural change for the configurations in both models")
    }
    out.append("")
    out.append(
      d.isBreaking
        ? "BREAKING" : d.limitReached ? "nothing breaking in the classes compared (INCOMPLETE)" : "nothing breaking")
    for g in d.lostDone {
      out.append(
        "  LOST DONE  \(n(g.configurations)) configurations reach done on OLD and cannot on NEW; "
          + "first difference at \(g.step) on \(g.response)")
      out.append("    witness: " + witness(g.witness))
    }
    for f in d.compatibility {
      out.append(
        "  STUCK  \(f.platform): " + describe(f) + "  (\(n(f.configurations)) configurations, \(f.classes) classes)")
      out.append("    witness: " + witness(f.witness))
      out.append("    trace on NEW: " + trace(f.trace))
    }
    if !d.changed.isEmpty {
      out.append("")
      out.append("changed behaviour, by first differing transition:")
    }
    for g in d.changed {
      out.append(
        "  at \(g.step)" + (g.state.isEmpty ? "" : " [\(g.state)]")
          + " on \(g.response): OLD \(list(g.oldOutcomes)) → NEW \(list(g.newOutcomes))"
          + "  (\(n(g.configurations)) configurations, \(g.classes) classes)")
      out.append("    witness: " + witness(g.witness))
      out.append("    OLD: " + (g.oldTrace.map(trace) ?? "not reachable"))
      out.append("    NEW: " + (g.newTrace.map(trace) ?? "not reachable"))
    }
    for (title, groups) in [
      ("added configurations (in NEW only):", d.added), ("removed configurations (in OLD only):", d.removed),
    ]
    where !groups.isEmpty {
      out.append("")
      out.append(title)
      for g in groups {
        out.append(
          "  \(g.reason): \(n(g.configurations)) configurations, \(g.classes) classes; reach "
            + g.reachedSteps.joined(separator: ", "))
        out.append("    witness: " + witness(g.witness))
      }
    }
    return out.joined(separator: "\n")
  }

  public static func describe(_ f: CompatibilityFinding) -> String {
    switch f.kind {
    case .unknownStep: return "step '\(f.step)' is '\(f.stepName)', a name the old client does not know"
    case .unknownOption:
      return "step '\(f.stepName)' offers \(f.values.joined(separator: ", ")), which the old client cannot select"
    case .unsendableResponses:
      return
        "step '\(f.stepName)' goes on only with \(f.values.joined(separator: ", ")), which the old client cannot send"
    }
  }

  public static func witness(_ w: [(name: String, value: String)]) -> String {
    w.isEmpty
      ? "any configuration"
      : w.map { "\($0.name) = \($0.value)" }.joined(separator: ", ")
        + " (any value for the rest)"
  }

  static func trace(_ calls: [TraceCall]) -> String {
    calls.isEmpty ? "(at signIn)" : calls.map { "\($0.step) --\($0.response)--> \($0.outcome)" }.joined(separator: "; ")
  }

  public static func list(_ xs: [String]) -> String { xs.isEmpty ? "(none)" : xs.joined(separator: " | ") }

  /// 6371904 → "6,371,904"; a count past 2^53 (not exact as a Double) as a power of ten
  /// ("about 1.23e+1505"), and an infinite count as "more than 1.8e+308": never a trap.
  public static func n(_ x: Double) -> String {
    if x.isNaN { return "an unknown number of" }
    if x.isInfinite { return "more than 1.8e+308" }
    if abs(x) >= 9_007_199_254_740_992 { return "about " + String(format: "%.3g", x) }
    let digits = String(Int(x.rounded()))
    var out = ""
    for (i, c) in digits.reversed().enumerated() {
      if i > 0 && i % 3 == 0 && c != "-" { out.append(",") }
      out.append(c)
    }
    return String(out.reversed())
  }
}

extension String {
  func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
