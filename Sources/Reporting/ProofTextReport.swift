import Foundation
import ModelChecking
import SignInModel
import SymbolicChecking

/// The human-readable report `signin-spec prove` prints.
public enum ProofTextReport {
  public static func render(_ report: ProofReport, platform: String? = nil, explain: Bool = false) -> String {
    var lines = ["\(report.model.name) (\(report.model.file), generation \(report.model.generation))"]
    let renderer = TraceRenderer(model: report.model, platform: platform)
    let width = ((Invariant.allCases + report.results.map(\.invariant)).map(\.rawValue.count).max() ?? 0) + 2
    for result in report.results {
      let name = result.invariant.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
      let time = String(format: "%.2f s", result.seconds)
      switch result.verdict {
      case .proven:
        lines.append("  proven (unbounded)  \(name)\(time)  \(result.method)")
        if explain, let explanation = result.explanation {
          lines.append("      inductive invariant of Reach (over pool.*, user.*, step, flow.*):")
          lines.append(contentsOf: explanation.split(separator: "\n").map { "    " + $0 })
        }
      case .vacuous(let reason):
        lines.append("  VACUOUS             \(name)\(time)  only because \(reason)")
      case .notChecked(let reason, let acknowledged):
        lines.append("  NOT CHECKED         \(name)\(time)  \(reason)")
        if let acknowledged { lines.append("      acknowledged in the model's lint: section: \(acknowledged)") }
      case .unknown(let reason):
        lines.append("  UNKNOWN             \(name)\(time)  \(reason)")
      case .failed(let reason):
        lines.append("  UNKNOWN             \(name)\(time)  internal error: \(reason)")
      case .violated(let c):
        lines.append("  VIOLATED            \(name)\(time)  \(result.method)")
        lines.append("      \(c.message)")
        for line in renderer.configurationLines(c.configuration) where !c.configuration.isEmpty {
          lines.append("      \(line)")
        }
        if !c.steps.isEmpty {
          lines.append(
            "      counterexample (found by Z3, replayed by the explicit engine), \(c.length) call\(c.length == 1 ? "" : "s"):"
          )
          for line in renderer.traceLines(c) { lines.append("      \(line)") }
        }
      }
    }
    lines.append(String(format: "  total %.2f s", report.seconds))
    return lines.joined(separator: "\n")
  }
}
