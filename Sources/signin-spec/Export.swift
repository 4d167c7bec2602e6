import ArgumentParser
import Foundation
import Reporting
import SignInModel

/// Writes the loaded, resolved model as JSON for other tools.
struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write the loaded model (variables, steps, flattened transitions, invariants) as JSON.",
    discussion: """
      The document is format signin-spec-model-export, version 1, described by the JSON Schema \
      schemas/model-export.v1.schema.json. Guards and updates are strings in the model's guard \
      language, with definitions and offered(X) expanded.

      Example:
        signin-spec export models/2026-all-platforms.yaml --format json > model.json
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case json }

  @Argument(help: "The model file.")
  var model: String

  @Option(help: "Output format: json.")
  var format: Format = .json

  func run() throws {
    let loaded = try ModelOptions.loadOne(model)
    do {
      print(try ModelExport(model: loaded, tool: "signin-spec \(SignInSpec.version)").encoded())
    } catch {
      printError("error: cannot encode the model: \(error)")
      throw ExitStatus.internalError
    }
  }
}
