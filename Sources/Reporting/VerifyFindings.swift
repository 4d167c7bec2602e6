import Foundation
import ModelChecking
import SignInModel

/// `verify`'s results as SARIF findings and as a Markdown summary for `$GITHUB_STEP_SUMMARY`.
public enum VerifyFindings {
  /// One finding per invariant that does not hold, at the model line of the rule that broke
  /// it (the last call's rule), with the counterexample's calls as a code flow.
  public static func sarif(_ reports: [CheckReport], toolVersion: String, platform: String? = nil) -> SARIFLog {
    var rules = Invariant.allCases.map { SARIFLog.Rule(id: $0.rawValue, description: $0.meaning) }
    for report in reports {
      for property in report.model.properties where !rules.contains(where: { $0.id == property.name }) {
        let invariant = Invariant(rawValue: property.name)
        rules.append(SARIFLog.Rule(id: property.name, description: invariant.meaning(in: report.model)))
      }
    }
    var findings: [SARIFLog.Finding] = []
    for report in reports {
      let model = report.model
      for result in report.results {
        switch result.verdict {
        case .holds: continue
        case .notChecked(let reason, let acknowledged):
          findings.append(
            .init(
              ruleID: result.invariant.rawValue, level: acknowledged == nil ? .warning : .note,
              message: "\(model.name): \(result.invariant.rawValue) NOT CHECKED: \(reason)"
                + (acknowledged.map { " (acknowledged: \($0))" } ?? ""),
              location: .init(file: model.file, line: 1)))
        case .vacuous(let reason):
          findings.append(
            .init(
              ruleID: result.invariant.rawValue, level: .error,
              message: "\(model.name): \(result.invariant.rawValue) holds only vacuously: \(reason)",
              location: .init(file: model.file, line: 1)))
        case .violated(let counterexample):
          let flow = codeFlow(counterexample, model: model, platform: platform)
          let configuration = counterexample.configuration.compactMap { a in a.value.map { "\(a.variable) = \($0)" } }
          let message =
            "\(model.name): \(result.invariant.rawValue) is violated: \(counterexample.message)"
            + (configuration.isEmpty ? "" : " (configuration: \(configuration.joined(separator: ", ")))")
          findings.append(
            .init(
              ruleID: result.invariant.rawValue, level: .error, message: message,
              location: flow.last ?? .init(file: model.file, line: 1), codeFlow: flow))
        }
      }
    }
    return SARIFLog(toolVersion: toolVersion, rules: rules, findings: findings)
  }

  /// Each call of the counterexample at the first rule that decided it (or its step's line).
  static func codeFlow(_ counterexample: Counterexample, model: SignInModel, platform: String?) -> [SARIFLog.Location] {
    let renderer = TraceRenderer(model: model, platform: platform)
    return counterexample.steps.enumerated().map { (i, step) in
      let line = step.ruleLines.first ?? model.stepIndex(named: step.stepBefore).map { model.steps[$0].line } ?? 1
      let outcome = renderer.outcomeText(step)
      let loop = counterexample.loopStartsAt == i ? " (from here the calls repeat)" : ""
      return .init(
        file: model.file, line: line, message: "\(i + 1). \(step.call)(\(step.response)) -> \(outcome)\(loop)")
    }
  }

  /// A Markdown summary: one table row per model and invariant, then each counterexample.
  public static func markdown(_ reports: [CheckReport], platform: String? = nil) -> String {
    let checks = reports.flatMap(\.results)
    let failed = checks.filter { !$0.verdict.passed }.count
    var lines = ["## signin-spec verify", ""]
    let models = "\(reports.count) model\(reports.count == 1 ? "" : "s"), \(checks.count) checks"
    lines.append(failed == 0 ? "✅ \(models): all hold." : "❌ \(models): \(failed) do not hold.")
    lines += ["", "| model | invariant | verdict |", "|---|---|---|"]
    for report in reports {
      for result in report.results {
        let verdict: String
        switch result.verdict {
        case .holds: verdict = "holds"
        case .notChecked(_, let acknowledged):
          verdict = acknowledged == nil ? "**NOT CHECKED**" : "not checked (acknowledged)"
        case .vacuous: verdict = "**VACUOUS**"
        case .violated: verdict = "**VIOLATED**"
        }
        lines.append("| \(cell(report.model.name)) | `\(result.invariant.rawValue)` | \(verdict) |")
      }
    }
    for report in reports {
      let renderer = TraceRenderer(model: report.model, platform: platform)
      for result in report.results {
        switch result.verdict {
        case .holds: continue
        case .notChecked(let reason, let acknowledged):
          lines += [
            "", "### \(report.model.name): `\(result.invariant.rawValue)` is not checked", "",
            cell(reason + (acknowledged.map { " (acknowledged: \($0))" } ?? "")),
          ]
        case .vacuous(let reason):
          lines += ["", "### \(report.model.name): `\(result.invariant.rawValue)` is vacuous", "", cell(reason)]
        case .violated(let c):
          lines += [
            "", "### \(report.model.name): `\(result.invariant.rawValue)` is violated", "", cell(c.message), "",
          ]
          lines.append("```")
          lines += renderer.configurationLines(c.configuration) + renderer.traceLines(c)
          lines.append("```")
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Text safe inside a Markdown table cell or paragraph.
  static func cell(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
  }
}
