import ArgumentParser
import Foundation
import SignInModel

/// Model selection shared by the subcommands.
struct ModelOptions: ParsableArguments {
  @Argument(help: "Model files or folders (default: every .yaml, .yml and .json file in models/).")
  var models: [String] = []

  /// The files to load, in a stable order.
  func modelFiles() throws -> [String] {
    let inputs = models.isEmpty ? ["models"] : models
    var files: [String] = []
    for input in inputs {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
        throw ValidationError("no such model file or folder: \(input)")
      }
      if isDirectory.boolValue {
        let entries = try FileManager.default.contentsOfDirectory(atPath: input)
          .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".json") }.sorted()
        if entries.isEmpty { throw ValidationError("no model files (.yaml, .yml, .json) in \(input)") }
        files += entries.map { (input as NSString).appendingPathComponent($0) }
      } else {
        files.append(input)
      }
    }
    return files
  }

  /// Loads every model, printing all diagnostics to standard error before failing with exit 2.
  func loadModels() throws -> [SignInModel] {
    var loaded: [SignInModel] = []
    var failed = false
    for file in try modelFiles() {
      do {
        loaded.append(try ModelLoader.load(file: file))
      } catch {
        failed = true
        printError(error.description)
      }
    }
    if failed { throw ExitStatus.badModel }
    return loaded
  }
}

/// Writes a line to standard error after what standard output holds so far, so the two keep
/// their order where they go to the same pipe or file (standard output is buffered there).
func printError(_ text: String) {
  fflush(nil)  // every output stream: standard output is the one that holds data
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

extension ModelOptions {
  /// Loads one model file named on the command line: exit 64 when it is missing, 2 when malformed.
  static func loadOne(_ file: String) throws -> SignInModel {
    guard FileManager.default.fileExists(atPath: file) else { throw ValidationError("no such model file: \(file)") }
    do { return try ModelLoader.load(file: file) } catch {
      printError(error.description)
      throw ExitStatus.badModel
    }
  }
}
