import Foundation
import Yams

/// Reads a model file (YAML, or JSON, which is YAML too) into a `SignInModel`,
/// reporting every problem as `file:line:column: error: message`.
public enum ModelLoader {
  /// Loads the model at `path`.
  public static func load(file path: String) throws(ModelLoadError) -> SignInModel {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ModelLoadError(diagnostics: [ModelDiagnostic(file: path, line: 0, message: "cannot read the file")])
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ModelLoadError(diagnostics: [ModelDiagnostic(file: path, line: 0, message: "the file is not UTF-8 text")])
    }
    return try load(yaml: text, file: path)
  }

  /// Loads a model from `yaml`; `file` is used in diagnostics and recorded in the model.
  public static func load(yaml: String, file: String) throws(ModelLoadError) -> SignInModel {
    let root: Node?
    do {
      root = try Yams.compose(yaml: yaml)
    } catch let error as YamlError {
      throw ModelLoadError(diagnostics: [syntaxDiagnostic(error, file: file, yaml: yaml)])
    } catch {
      throw ModelLoadError(diagnostics: [ModelDiagnostic(file: file, line: 0, message: "YAML syntax error: \(error)")])
    }
    guard let root else {
      throw ModelLoadError(diagnostics: [ModelDiagnostic(file: file, line: 1, message: "the file is empty")])
    }
    let builder = ModelBuilder(file: file, hash: fnv1a64Hex(Array(yaml.utf8)))
    guard let model = builder.build(root), builder.diagnostics.isEmpty else {
      let sorted = builder.diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
      throw ModelLoadError(diagnostics: sorted.isEmpty
        ? [ModelDiagnostic(file: file, line: 0, message: "the model could not be built")] : sorted)
    }
    return model
  }

  private static func syntaxDiagnostic(_ error: YamlError, file: String, yaml: String) -> ModelDiagnostic {
    switch error {
    case .duplicatedKeysInMapping(let duplicates, let context):
      // Yams marks the first key; find the repeat below it at the same indentation.
      let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
      let name = duplicates.first ?? "?"
      let first = context.mark.line
      let indent = String(repeating: " ", count: max(0, context.mark.column - 1))
      var line = first
      for (i, text) in lines.enumerated() where i + 1 > first && text.hasPrefix(indent + name + ":") {
        line = i + 1
        break
      }
      return ModelDiagnostic(
        file: file, line: line, column: context.mark.column,
        message: "duplicate name '\(name)' (first at line \(first))")
    case .scanner(let context, let problem, let mark, _),
      .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      let detail = context.map { "\(problem) \($0.text)" } ?? problem
      return ModelDiagnostic(file: file, line: mark.line, column: mark.column, message: "YAML syntax error: \(detail)")
    case .reader(let problem, _, _, _):
      return ModelDiagnostic(file: file, line: 0, message: "cannot read the YAML: \(problem)")
    default:
      return ModelDiagnostic(file: file, line: 0, message: "YAML error: \(error)")
    }
  }
}
