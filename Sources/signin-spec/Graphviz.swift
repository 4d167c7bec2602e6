import Foundation

/// Graphviz's `dot`, found on PATH, turning DOT text into SVG.
enum Graphviz {
  enum Failure: Error, CustomStringConvertible {
    /// No `dot` on PATH.
    case missing
    /// `dot` ran and failed (its status and messages).
    case failed(Int32, String)

    var description: String {
      switch self {
      case .missing: return "Graphviz's 'dot' is not on PATH"
      case .failed(let status, let messages): return "Graphviz's dot failed (status \(status)): \(messages)"
      }
    }
  }

  static func svg(_ dot: String) throws(Failure) -> String {
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
      .map { "\($0)/dot" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let path else { throw .missing }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-Tsvg"]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    do { try process.run() } catch { throw .failed(-1, error.localizedDescription) }
    let writer = Thread {
      input.fileHandleForWriting.write(Data(dot.utf8))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let svg = output.fileHandleForReading.readDataToEndOfFile()
    let messages = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw .failed(process.terminationStatus, String(decoding: messages, as: UTF8.self))
    }
    return String(decoding: svg, as: UTF8.self)
  }
}
