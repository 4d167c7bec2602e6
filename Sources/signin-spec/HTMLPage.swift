import Evolution
import Foundation
import HTMLReporting
import ModelChecking
import SafeFiles
import SymbolicChecking

/// Writes the HTML report of `verify --html` and `report --html`.
enum HTMLPage {
  static func write(
    _ reports: [CheckReport], proofs: [ProofReport], lint: [[LintWarning]]? = nil, platform: String?,
    maxDiagramSteps: Int = HTMLReport.defaultMaxDiagramSteps, fuzzRuns: [FuzzRun] = [],
    diffs: [ModelDiff] = [], to file: String
  ) throws {
    var warnedMissingDot = false
    let models = reports.enumerated().map { k, report in
      HTMLReport.ModelResult(
        report: report, proof: proofs.first { $0.model === report.model },
        lint: lint.map { $0[k] } ?? Linter(model: report.model).warnings())
    }
    var page = HTMLReport(models: models, platform: platform, toolVersion: SignInSpec.version) { dot in
      do { return try Graphviz.svg(dot) } catch {
        if !warnedMissingDot {
          printError("warning: --html: diagrams not drawn (\(error)); install Graphviz (make graphviz)")
          warnedMissingDot = true
        }
        return nil
      }
    }
    page.maxDiagramSteps = maxDiagramSteps
    page.fuzzRuns = fuzzRuns
    page.diffs = diffs
    do { try SafeFile.write(Data(page.render().utf8), to: file) } catch {
      printError("error: --html: \(error)")
      throw ExitStatus.usage
    }
  }
}
