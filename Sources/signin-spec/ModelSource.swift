import Foundation
import SignInModel

/// A model named on the command line: a file, or `REV:PATH` read from git with `git show`.
enum ModelSource {
  static func load(_ argument: String) throws -> SignInModel {
    let text: String
    if FileManager.default.fileExists(atPath: argument) {
      do {
        return try ModelLoader.load(file: argument)
      } catch {
        printError(error.description)
        throw ExitStatus.badModel
      }
    } else if let colon = argument.firstIndex(of: ":"), colon != argument.startIndex {
      text = try gitShow(argument)
    } else {
      printError("error: no such model file: \(argument) (give a file or a git revision REV:PATH)")
      throw ExitStatus.usage
    }
    do {
      return try ModelLoader.load(yaml: text, file: argument)
    } catch {
      printError(error.description)
      throw ExitStatus.badModel
    }
  }

  private static func gitShow(_ spec: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "show", spec]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do { try process.run() } catch {
      printError("error: cannot run git to read \(spec): \(error.localizedDescription)")
      throw ExitStatus.usage
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      printError("error: git show \(spec) failed: " + message.trimmingCharacters(in: .whitespacesAndNewlines))
      throw ExitStatus.usage
    }
    return String(decoding: data, as: UTF8.self)
  }
}
