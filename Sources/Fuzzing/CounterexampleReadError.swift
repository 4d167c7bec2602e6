import Foundation

/// Why a file is not a counterexample this signin-spec reads: the file, the field (a JSON
/// path such as `fuzzCase.calls[2].response`, nil for the whole file) and what is wrong.
package struct CounterexampleReadError: Error, Sendable, CustomStringConvertible {
  package let path: String
  package let field: String?
  package let reason: String

  package var description: String {
    "\(path): error: " + (field.map { "field '\($0)': " } ?? "") + reason
  }

  /// The JSON path of a decoding error's coding path: `a.b[2].c`.
  static func field(_ codingPath: [any CodingKey]) -> String? {
    if codingPath.isEmpty { return nil }
    var text = ""
    for key in codingPath {
      if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
    }
    return text
  }

  /// The field and reason of a `DecodingError`.
  static func from(_ error: DecodingError, path: String) -> CounterexampleReadError {
    switch error {
    case .keyNotFound(let key, let context):
      return CounterexampleReadError(
        path: path, field: field(context.codingPath + [key]), reason: "missing (the schema requires it)")
    case .typeMismatch(let type, let context):
      return CounterexampleReadError(
        path: path, field: field(context.codingPath), reason: "has the wrong type (expected \(type))")
    case .valueNotFound(let type, let context):
      return CounterexampleReadError(path: path, field: field(context.codingPath), reason: "is null (expected \(type))")
    case .dataCorrupted(let context):
      return CounterexampleReadError(
        path: path, field: field(context.codingPath),
        reason: context.debugDescription)
    @unknown default:
      return CounterexampleReadError(path: path, field: nil, reason: "\(error)")
    }
  }
}
