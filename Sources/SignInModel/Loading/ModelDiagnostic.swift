/// One problem in a model file, located by file, line and column (1-based; 0 = unknown).
public struct ModelDiagnostic: Error, Sendable, Equatable, CustomStringConvertible {
  public let file: String
  public let line: Int
  public let column: Int
  public let message: String

  public init(file: String, line: Int, column: Int = 0, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  /// `file:line:column: error: message`, the form compilers and editors understand.
  public var description: String {
    var location = file
    if line > 0 { location += ":\(line)" }
    if line > 0 && column > 0 { location += ":\(column)" }
    return "\(location): error: \(message)"
  }
}

/// Every problem found while loading one model file.
public struct ModelLoadError: Error, Sendable, CustomStringConvertible {
  public let diagnostics: [ModelDiagnostic]
  public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
