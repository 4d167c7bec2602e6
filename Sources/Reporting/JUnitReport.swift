import Foundation
import ModelChecking
import SignInModel

/// JUnit XML: one test suite per model, one test case per invariant, so CI systems
/// show the verdicts natively.
public enum JUnitReport {
  public static func render(_ reports: [CheckReport], platform: String? = nil) -> String {
    var xml = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
    let failures = reports.flatMap(\.results).filter { !$0.verdict.passed }.count
    let tests = reports.flatMap(\.results).count
    xml.append("<testsuites name=\"signin-spec verify\" tests=\"\(tests)\" failures=\"\(failures)\">")
    for report in reports {
      let failed = report.results.filter { !$0.verdict.passed }.count
      xml.append(
        "  <testsuite name=\"\(escape(report.model.name))\" tests=\"\(report.results.count)\" "
          + "failures=\"\(failed)\" time=\"\(String(format: "%.3f", report.statistics.seconds))\">")
      let renderer = TraceRenderer(model: report.model, platform: platform)
      for result in report.results {
        let head = "    <testcase classname=\"\(escape(report.model.name))\" name=\"\(result.invariant.rawValue)\""
        switch result.verdict {
        case .holds:
          xml.append(head + "/>")
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

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
