import ArgumentParser
import ClientAdapters
import Foundation
import SafeFiles

/// Validation of numbers and paths given on the command line, run in `validate()` before any
/// work: a value out of range, not a number, or a path that cannot be used is a usage error
/// (exit 64) naming the option.
enum OptionChecks {
  /// Most worker threads any subcommand starts.
  static let maxJobs = 256
  /// Longest time limit accepted, in seconds (one day).
  static let maxSeconds = 86_400

  static func range(_ value: Int, _ range: ClosedRange<Int>, _ option: String, unit: String = "") throws {
    guard range.contains(value) else {
      throw ValidationError(
        "\(option) must be from \(range.lowerBound) to \(range.upperBound)\(unit), not \(value)")
    }
  }

  /// The options of a run on an adapter (`fuzz`, `replay`): `--adapter` a command line that
  /// splits, not beside `--client`, and `--adapter-time-limit` from 0 to 3600 seconds.
  static func adapter(_ adapter: String?, client: String, timeLimit: Double) throws {
    if let adapter {
      if client != "reference" {
        throw ValidationError("--client and --adapter exclude each other: --adapter names the client under test")
      }
      do { _ = try AdapterCommand(parsing: adapter) } catch { throw ValidationError("--adapter: \(error)") }
    }
    guard timeLimit.isFinite, timeLimit > 0, timeLimit <= 3_600 else {
      throw ValidationError("--adapter-time-limit takes seconds from 0 to 3600, not \(timeLimit)")
    }
  }

  /// `--set NAME=VALUE` settings: each has `=`, and no name is set twice (which value would win?).
  static func settings(_ settings: [String]) throws {
    var seen = Set<Substring>()
    for setting in settings {
      guard let eq = setting.firstIndex(of: "=") else {
        throw ValidationError("--set takes NAME=VALUE, not '\(setting)'")
      }
      let name = setting[..<eq]
      guard seen.insert(name).inserted else { throw ValidationError("--set gives '\(name)' twice") }
    }
  }

  /// A duration in seconds: finite, above zero and at most `limit`.
  static func seconds(_ value: Double?, _ text: String, _ option: String, limit: Double) throws {
    guard let value, value.isFinite else {
      throw ValidationError("\(option) takes 30s, 2m or a number of seconds, not '\(text)'")
    }
    guard value > 0, value <= limit else {
      throw ValidationError("\(option) must be above 0 and at most \(Int(limit)) seconds, not '\(text)'")
    }
  }

  /// An output file: its folder exists, and the path is new or a regular file.
  static func output(_ path: String?, _ option: String) throws {
    guard let path, let problem = SafeFile.problem(writing: path) else { return }
    throw ValidationError("\(option): \(problem.reason) (\(path))")
  }

  /// A folder that will be created if missing: whatever exists there must be a folder.
  static func folder(_ path: String, _ option: String) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
      throw ValidationError("\(option): \(path) exists and is not a folder")
    }
  }
}
