import Foundation
import ModelChecking
import SignInModel

/// The human-readable report `signin-spec verify` prints.
public enum TextReport {
  public static func render(_ report: CheckReport, platform: String? = nil) -> String {
    let model = report.model
    let s = report.statistics
    var lines: [String] = []
    lines.append("\(model.name) (\(model.file), generation \(model.generation))")
    lines.append("  explicit search: \(s.configurationClasses.formatted()) configuration classes covering "
      + "\(formatCount(s.configurations)) configurations, \(s.states.formatted()) states, "
      + "\(s.transitions.formatted()) transitions in \(String(format: "%.2f", s.seconds)) s")
    let renderer = TraceRenderer(model: model, platform: platform)
    let nameWidth = (Invariant.allCases.map(\.rawValue.count).max() ?? 0) + 2
    for result in report.results {
      let name = result.invariant.rawValue.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
      switch result.verdict {
      case .holds:
        lines.append("  holds     \(name)\(result.invariant.meaning)")
      case .vacuous(let reason):
        lines.append("  VACUOUS   \(name)\(result.invariant.meaning)")
        lines.append("            only because \(reason)")
      case .violated(let counterexample):
        lines.append("  VIOLATED  \(name)\(result.invariant.meaning)")
        lines.append("            \(counterexample.message)")
        if !counterexample.configuration.isEmpty {
          for line in renderer.configurationLines(counterexample.configuration) { lines.append("            \(line)") }
        }
        if !counterexample.steps.isEmpty {
          lines.append("            shortest counterexample, \(counterexample.length) call\(counterexample.length == 1 ? "" : "s"):")
          for line in renderer.traceLines(counterexample) { lines.append("            \(line)") }
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The closing line over several models.
  public static func summary(_ reports: [CheckReport]) -> String {
    let results = reports.flatMap(\.results)
    let violated = results.filter { if case .violated = $0.verdict { return true } else { return false } }.count
    let vacuous = results.filter { if case .vacuous = $0.verdict { return true } else { return false } }.count
    let holds = results.count - violated - vacuous
    var text = "\(reports.count) model\(reports.count == 1 ? "" : "s"), \(results.count) checks: \(holds) hold"
    if violated > 0 { text += ", \(violated) violated" }
    if vacuous > 0 { text += ", \(vacuous) vacuous" }
    return text
  }

  public static func formatCount(_ value: Double) -> String {
    value < 1e15 ? Int(value).formatted() : String(format: "%.3g", value)
  }
}
