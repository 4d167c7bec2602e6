import ArgumentParser
import Foundation
import Scenarios
import SignInModel

/// Checks expected traces (`scenarios/*.yaml`) against the models.
struct ScenariosCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scenarios",
    abstract: "Check every scenario file: each call must lead to the outcome the scenario expects.",
    discussion: "Exit 0 when every scenario passes, 1 when one fails, 2 for a malformed scenario or model file.")

  @Argument(help: "Scenario files or folders (default: scenarios/).")
  var paths: [String] = []

  @Flag(help: "Print every scenario, not only the failing ones.")
  var verbose = false

  func run() throws {
    var files: [String] = []
    for path in paths.isEmpty ? ["scenarios"] : paths {
      guard let found = ScenarioLoader.files(at: path) else { throw ValidationError("no such file or folder: \(path)") }
      files += found
    }
    if files.isEmpty { throw ValidationError("no scenario files (.yaml, .yml) in \(paths.joined(separator: ", "))") }
    var models: [String: SignInModel] = [:]
    var scenarios: [Scenario] = []
    var malformed = false
    for file in files {
      do {
        scenarios += try ScenarioLoader.load(file: file, models: &models)
      } catch {
        malformed = true
        printError(error.description)
      }
    }
    if malformed { throw ExitStatus.badModel }
    let results = scenarios.map(ScenarioRunner.run)
    for r in results where !r.passed || verbose {
      print(r.passed ? "pass \(r.scenario.file):\(r.scenario.line) \(r.scenario.name)" : r.report)
    }
    let failed = results.filter { !$0.passed }.count
    print("\(results.count) scenarios in \(files.count) files: \(results.count - failed) pass, \(failed) fail")
    ScenarioCoverage(results).text.forEach { print($0) }
    if failed > 0 { throw ExitStatus.violation }
  }
}
