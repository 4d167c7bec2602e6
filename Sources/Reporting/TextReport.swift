import Foundation
import ModelChecking
import SignInModel
import SymbolicChecking

/// How the explicit and the symbolic engine compare on one invariant.
public enum EngineAgreement {
  /// The Z3 verdict in a few words, for the end of a verdict line.
  static func summary(_ verdict: ProofVerdict) -> String {
    switch verdict {
    case .proven: return "Z3: proven, unbounded"
    case .violated: return "Z3: violated"
    case .vacuous: return "Z3: vacuous"
    case .notChecked: return "Z3: not checked"
    case .unknown(let reason): return "Z3: unknown (\(reason))"
    case .failed(let reason): return "Z3: unknown (internal error: \(reason))"
    }
  }

  /// True when both engines give the same kind of verdict.
  public static func agree(_ explicit: Verdict, _ symbolic: ProofVerdict) -> Bool {
    switch (explicit, symbolic) {
    case (.holds, .proven), (.violated, .violated), (.vacuous, .vacuous), (.notChecked, .notChecked): return true
    default: return false
    }
  }

  /// True when Z3 answered and its verdict is of another kind (an unknown answer is not a disagreement).
  public static func disagree(_ explicit: Verdict, _ symbolic: ProofVerdict) -> Bool {
    if case .unknown = symbolic { return false }
    return !agree(explicit, symbolic)
  }

  /// The invariants on which the engines disagree.
  public static func disagreements(_ report: CheckReport, _ proof: ProofReport) -> [Invariant] {
    report.results.compactMap { result in
      guard let p = proof.results.first(where: { $0.invariant == result.invariant }) else { return nil }
      return disagree(result.verdict, p.verdict) ? result.invariant : nil
    }
  }
}

extension CheckReport {
  /// Whether `verdict` is no verdict: "holds" from a search stopped at a limit, which found no
  /// violation in what it explored (printed UNKNOWN, counted unknown, never a disagreement).
  public func undecided(_ verdict: Verdict) -> Bool { incomplete != nil && verdict == .holds }
}

/// The human-readable report `signin-spec verify` prints.
public enum TextReport {
  /// What the explicit search explored: "explicit search: N configuration classes covering …",
  /// or, where only `indistinguishable` properties were checked, their self-compositions' pairs.
  public static func searchSummary(_ s: CheckStatistics) -> String {
    let n = s.selfCompositions
    let search =
      n == 0
      ? "explicit search: "
      : "explicit search of the self-composition of \(n) indistinguishable propert\(n == 1 ? "y" : "ies"): "
    return search + "\(s.configurationClasses.formatted()) configuration classes covering "
      + "\(formatCount(s.configurations)) \(n == 0 ? "configurations" : "pairs of configurations"), "
      + "\(s.states.formatted()) states, \(s.transitions.formatted()) transitions"
  }

  public static func render(_ report: CheckReport, proof: ProofReport? = nil, platform: String? = nil) -> String {
    let model = report.model
    let s = report.statistics
    var lines: [String] = []
    lines.append("\(model.name) (\(model.file), generation \(model.generation))")
    lines.append("  " + searchSummary(s) + " in \(String(format: "%.2f", s.seconds)) s")
    let renderer = TraceRenderer(model: model, platform: platform)
    let nameWidth = ((Invariant.allCases + report.results.map(\.invariant)).map(\.rawValue.count).max() ?? 0) + 2
    if let proof {
      lines.append(
        "  Z3 (\(proof.results.first.map { $0.method.hasPrefix("Spacer") ? "Spacer" : "backward fixpoint" } ?? "-")): "
          + "\(proof.results.count) check\(proof.results.count == 1 ? "" : "s") in \(String(format: "%.2f", proof.seconds)) s"
      )
    }
    for result in report.results {
      let name = result.invariant.rawValue.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
      if !report.undecided(result.verdict), let p = proof?.results.first(where: { $0.invariant == result.invariant }),
        EngineAgreement.disagree(result.verdict, p.verdict)
      {
        lines.append(
          "  DISAGREE  \(name)explicit engine: \(word(result.verdict)); \(EngineAgreement.summary(p.verdict))")
        lines.append("            this is a bug in signin-spec; please report it with this model")
      }
      let z3 =
        proof?.results.first(where: { $0.invariant == result.invariant }).map {
          "  [\(EngineAgreement.summary($0.verdict))]"
        } ?? ""
      switch result.verdict {
      case .holds where report.undecided(result.verdict):
        lines.append("  UNKNOWN   \(name)\(result.invariant.meaning(in: model))\(z3)")
        lines.append("            the explicit search stopped before it finished; no violation in what it explored")
      case .holds:
        lines.append("  holds     \(name)\(result.invariant.meaning(in: model))\(z3)")
      case .vacuous(let reason):
        lines.append("  VACUOUS   \(name)\(result.invariant.meaning(in: model))\(z3)")
        lines.append("            only because \(reason)")
      case .notChecked(let reason, let acknowledged):
        lines.append("  NOT CHECKED \(name)\(result.invariant.meaning(in: model))")
        lines.append("            NOT CHECKED (\(reason))")
        if let acknowledged {
          lines.append("            acknowledged in the model's lint: section: \(acknowledged)")
        } else {
          lines.append(
            "            declare the facts, or acknowledge it in lint: (rule: notChecked, target: "
              + "\(result.invariant.rawValue), reason: …)")
        }
      case .violated(let counterexample):
        lines.append("  VIOLATED  \(name)\(result.invariant.meaning(in: model))\(z3)")
        lines.append("            \(counterexample.message)")
        if !counterexample.configuration.isEmpty {
          for line in renderer.configurationLines(counterexample.configuration) { lines.append("            \(line)") }
        }
        if !counterexample.steps.isEmpty {
          lines.append(
            "            shortest counterexample, \(counterexample.length) call\(counterexample.length == 1 ? "" : "s"):"
          )
          for line in renderer.traceLines(counterexample) { lines.append("            \(line)") }
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  static func word(_ verdict: Verdict) -> String {
    switch verdict {
    case .holds: return "holds"
    case .vacuous: return "vacuous"
    case .violated: return "violated"
    case .notChecked: return "not checked"
    }
  }

  /// The closing line over several models.
  public static func summary(_ reports: [CheckReport]) -> String {
    let results = reports.flatMap(\.results)
    let violated = results.filter { if case .violated = $0.verdict { return true } else { return false } }.count
    let vacuous = results.filter { if case .vacuous = $0.verdict { return true } else { return false } }.count
    let notChecked = results.filter { if case .notChecked = $0.verdict { return true } else { return false } }
    let acknowledged = notChecked.filter(\.verdict.passed).count
    let unknown = reports.reduce(0) { n, report in n + report.results.filter { report.undecided($0.verdict) }.count }
    let holds = results.count - violated - vacuous - notChecked.count - unknown
    var text = "\(reports.count) model\(reports.count == 1 ? "" : "s"), \(results.count) checks: \(holds) hold"
    if unknown > 0 { text += ", \(unknown) unknown (the explicit search stopped)" }
    if violated > 0 { text += ", \(violated) violated" }
    if vacuous > 0 { text += ", \(vacuous) vacuous" }
    if !notChecked.isEmpty {
      text += ", \(notChecked.count) not checked"
      if acknowledged > 0 { text += " (\(acknowledged) acknowledged)" }
    }
    return text
  }

  public static func formatCount(_ value: Double) -> String {
    value < 1e15 ? Int(value).formatted() : String(format: "%.3g", value)
  }
}
