import Foundation
import Yams

/// Reads a model file (YAML, or JSON, which is YAML too) into a `SignInModel`,
/// reporting every problem as `file:line:column: error: message`.
public enum ModelLoader {
  /// Loads the model at `path`: a regular file (or a link to one) of at most `ModelLimits.maxFileBytes`.
  public static func load(file path: String) throws(ModelLoadError) -> SignInModel {
    let data: [UInt8]
    switch ModelFileReader.read(path) {
    case .success(let bytes): data = bytes
    case .failure(let problem):
      throw ModelLoadError(diagnostics: [ModelDiagnostic(file: path, line: 0, message: problem.message)])
    }
    return try load(bytes: data, file: path)
  }

  /// Loads a model from a file's bytes: they must be UTF-8 (the first bad byte is located).
  public static func load(bytes data: [UInt8], file path: String) throws(ModelLoadError) -> SignInModel {
    return try load(yaml: utf8Text(data, file: path), file: path)
  }

  /// The YAML document in the file at `path`, read with every check a model file gets (a regular
  /// file of at most `ModelLimits.maxFileBytes`, UTF-8, no control characters, not empty, aliases,
  /// depth and expanded size bounded before Yams builds a node): for other YAML files the tool
  /// reads, such as scenario files. Every error names the file, and the line where there is one.
  /// `what` names the kind of file in messages ("a scenario file").
  public static func document(file path: String, what: String = "a YAML file") throws(ModelLoadError) -> Node {
    let data: [UInt8]
    switch ModelFileReader.read(path, what: what) {
    case .success(let bytes): data = bytes
    case .failure(let problem):
      throw ModelLoadError(diagnostics: [ModelDiagnostic(file: path, line: 0, message: problem.message)])
    }
    return try document(yaml: utf8Text(data, file: path), file: path)
  }

  /// A file's bytes as text, or an error at the first byte that is not UTF-8 (file:line:column).
  static func utf8Text(_ data: [UInt8], file path: String) throws(ModelLoadError) -> String {
    if let bad = SourceTextCheck.firstInvalidUTF8(data) {
      let hex = String(bad.byte, radix: 16, uppercase: true)
      throw ModelLoadError(diagnostics: [
        ModelDiagnostic(
          file: path, line: bad.line, column: bad.column,
          message: "the file is not UTF-8 text: byte 0x\(hex) at byte column \(bad.column) is not valid UTF-8")
      ])
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// Loads a model from `yaml`; `file` is used in diagnostics and recorded in the model.
  public static func load(yaml: String, file: String) throws(ModelLoadError) -> SignInModel {
    let root = try document(yaml: yaml, file: file)
    let builder = ModelBuilder(file: file, hash: fnv1a64Hex(Array(yaml.utf8)))
    builder.source = SourceLocator(yaml)
    guard let model = builder.build(root), builder.diagnostics.isEmpty else {
      throw ModelLoadError(diagnostics: rootDiagnostics(builder.diagnostics, file: file))
    }
    return model
  }

  /// The YAML document in `yaml`, after the checks on size, control characters, emptiness and
  /// aliases, depth and expanded size (on libyaml's events, before Yams builds or hashes a node).
  static func document(yaml: String, file: String) throws(ModelLoadError) -> Node {
    func fail(_ line: Int, _ column: Int, _ message: String) -> ModelLoadError {
      ModelLoadError(diagnostics: [ModelDiagnostic(file: file, line: line, column: column, message: message)])
    }
    if yaml.utf8.count > ModelLimits.maxFileBytes {
      throw fail(1, 0, "the model is larger than \(ModelLimits.maxFileBytes) bytes, the limit")
    }
    if let control = SourceTextCheck.firstControlCharacter(yaml) {
      let hex = String(control.scalar.value, radix: 16, uppercase: true)
      let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      throw fail(control.line, control.column, "control character \(code) is not allowed in a YAML file")
    }
    if yaml.allSatisfy(\.isWhitespace) { throw fail(1, 0, "the file is empty") }
    // Aliases, depth and expanded size are bounded before Yams builds or hashes any node.
    if let problem = YAMLPreScan.check(yaml) { throw fail(problem.line, problem.column, problem.message) }
    let root: Node?
    do {
      root = try Yams.compose(yaml: yaml)
    } catch let error as YamlError {
      throw ModelLoadError(diagnostics: [syntaxDiagnostic(error, file: file, yaml: yaml)])
    } catch {
      throw fail(1, 0, "YAML syntax error: \(error)")
    }
    guard let root else { throw fail(1, 0, "the file is empty (only comments)") }
    return root
  }

  /// Sorted by place, one per line and column, at most `ModelLimits.maxDiagnostics` (then a count).
  static func rootDiagnostics(_ diagnostics: [ModelDiagnostic], file: String) -> [ModelDiagnostic] {
    guard !diagnostics.isEmpty else {
      return [ModelDiagnostic(file: file, line: 1, message: "the model could not be built")]
    }
    var seen = Set<[Int]>()
    let sorted = diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
      .filter { seen.insert([$0.line, $0.column]).inserted }
    guard sorted.count > ModelLimits.maxDiagnostics else { return sorted }
    let shown = Array(sorted.prefix(ModelLimits.maxDiagnostics))
    let last = shown[shown.count - 1]
    return shown + [
      ModelDiagnostic(
        file: file, line: last.line, column: last.column,
        message: "\(sorted.count - shown.count) more errors not shown (the first \(shown.count) are above)")
    ]
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
    case .reader(let problem, let offset, _, _):
      let place = SourceLocator(yaml).position(ofByte: offset ?? 0)
      return ModelDiagnostic(
        file: file, line: place.line, column: place.column, message: "cannot read the YAML: \(problem)")
    default:
      return ModelDiagnostic(file: file, line: 1, message: "YAML error: \(error)")
    }
  }
}
