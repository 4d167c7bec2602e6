import Foundation
import ModelChecking
import SignInModel

/// JUnit XML: one test suite per model, one test case per invariant, so CI systems
/// show the verdicts natively.
public enum JUnitReport {
  public static func render(_ reports: [CheckReport], platform: String? = nil) -> String {
    var xml = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
    let failures = reports.flatMap(\.results).filter(isFailure).count
    let skipped = reports.flatMap(\.results).filter(isSkipped).count
    let tests = reports.flatMap(\.results).count
    xml.append(
      "<testsuites name=\"signin-spec verify\" tests=\"\(tests)\" failures=\"\(failures)\" skipped=\"\(skipped)\">")
    for report in reports {
      let failed = report.results.filter(isFailure).count
      let notChecked = report.results.filter(isSkipped).count
      xml.append(
        "  <testsuite name=\"\(escape(report.model.name))\" tests=\"\(report.results.count)\" "
          + "failures=\"\(failed)\" skipped=\"\(notChecked)\" time=\"\(String(format: "%.3f", report.statistics.seconds))\">"
      )
      let renderer = TraceRenderer(model: report.model, platform: platform)
      for result in report.results {
        let head = "    <testcase classname=\"\(escape(report.model.name))\" name=\"\(result.invariant.rawValue)\""
        switch result.verdict {
        case .holds:
          xml.append(head + "/>")
        case .notChecked(let reason, let acknowledged):
          let why = "NOT CHECKED: " + reason + (acknowledged.map { "; acknowledged: \($0)" } ?? "")
          xml.append(head + ">")
          xml.append("      <skipped message=\"\(escape(why))\"/>")
          xml.append("    </testcase>")
        case .vacuous(let reason):
          xml.append(head + ">")
          xml.append("      <failure message=\"\(escape("vacuous: " + reason))\" type=\"vacuous\"/>")
          xml.append("    </testcase>")
        case .violated(let c):
          xml.append(head + ">")
          let body = (renderer.configurationLines(c.configuration) + renderer.traceLines(c)).joined(separator: "\n")
          xml.append("      <failure message=\"\(escape(c.message))\" type=\"violated\">\(escape(body))</failure>")
          xml.append("    </testcase>")
        }
      }
      xml.append("  </testsuite>")
    }
    xml.append("</testsuites>")
    return xml.joined(separator: "\n") + "\n"
  }

  /// A NOT CHECKED verdict is a skipped test case (its exit status still counts it unless acknowledged).
  static func isSkipped(_ result: InvariantResult) -> Bool {
    if case .notChecked = result.verdict { return true }
    return false
  }

  static func isFailure(_ result: InvariantResult) -> Bool { !result.verdict.passed && !isSkipped(result) }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
