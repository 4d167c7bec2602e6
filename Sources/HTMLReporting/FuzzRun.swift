import Foundation

/// A fuzz run as `signin-spec fuzz --format json` writes it (`signin-spec-fuzz-report`,
/// version 1), for the report's coverage section.
public struct FuzzRun: Decodable, Sendable {
  public let format: String
  public let version: Int
  public let model: String
  public let client: String
  public let seed: String
  public let cases: Int
  public let calls: Int
  public let failures: Int
  public let saved: [String]
  public let transitions: Int
  public let covered: Int
  public let neverExercised: [String]
  /// The file it was read from.
  public var file = ""

  private enum CodingKeys: String, CodingKey {
    case format, version, model, client, seed, cases, calls, failures, saved, transitions, covered, neverExercised
  }

  /// Why a file is not a fuzz report this page can show.
  public struct ReadError: Error, CustomStringConvertible {
    public let description: String
  }

  /// Reads and checks a fuzz report file.
  public static func read(_ file: String) throws(ReadError) -> FuzzRun {
    let data: Data
    do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
      throw ReadError(description: "\(file): cannot read: \(error.localizedDescription)")
    }
    var run: FuzzRun
    do { run = try JSONDecoder().decode(FuzzRun.self, from: data) } catch let error as DecodingError {
      throw ReadError(
        description: "\(file): not a signin-spec fuzz report (fuzz --format json): \(Self.describe(error))")
    } catch { throw ReadError(description: "\(file): \(error.localizedDescription)") }
    guard run.format == "signin-spec-fuzz-report" else {
      throw ReadError(description: "\(file): format is '\(run.format)', not signin-spec-fuzz-report")
    }
    guard run.version == 1 else {
      throw ReadError(description: "\(file): fuzz report version \(run.version) is not known (this tool reads 1)")
    }
    run.file = file
    return run
  }

  static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, _): return "no '\(key.stringValue)'"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
    case .dataCorrupted(let context): return context.debugDescription
    @unknown default: return "\(error)"
    }
  }
}
