import ArgumentParser
import CognitoWire
import Diagnosis
import Foundation
import Recordings
import SignInModel

/// Diagnoses recorded sign-ins: which configurations of the model explain them, or where they
/// depart from it.
struct Diagnose: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Say which pool and user configurations explain a recorded sign-in, or where it departs from the model.",
    discussion: """
      Reads HAR 1.2 files (their Cognito entries), signin-spec serve's request log (--log), or JSON-lines
      recordings (schemas/cognito-recording.v1.schema.json). Each user's requests are checked in order; the
      requests before the user's first InitiateAuth cannot be placed and are listed as not checked.
      Exit status: 0 every flow is consistent; 1 a flow is inconsistent; 2 a file is not a recording (or is
      malformed, too large, out of order); 4 inconclusive (a limit reached, nothing inconsistent); 64 usage.

      Examples:
        signin-spec diagnose session.har
        signin-spec diagnose requests.jsonl --model models/2024-flutter.yaml --format json
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, sarif }

  @Argument(help: "Recordings: HAR files, serve request logs or JSON-lines recordings.")
  var files: [String]

  @Option(help: "The model (default: models/2026-all-platforms.yaml).")
  var model = "models/2026-all-platforms.yaml"

  @Option(help: "The platform whose step names the text output uses (swift, js, android, flutter; default: model ids).")
  var platform: String?

  @Option(help: "Output format: text, json or sarif.")
  var format: Format = .text

  @Option(help: "The largest recording read, in bytes.")
  var maxBytes: Int = RecordingReader.defaultMaxBytes

  @Option(help: "The most model states one call may reach before the verdict is inconclusive.")
  var maxStates: Int = Diagnoser.defaultMaxStates

  func validate() throws {
    guard !files.isEmpty else { throw ValidationError("give at least one recording") }
    try OptionChecks.range(maxBytes, 1...(1 << 34), "--max-bytes")
    try OptionChecks.range(maxStates, 1...100_000_000, "--max-states")
    if let platform, !["swift", "js", "android", "flutter"].contains(platform) {
      throw ValidationError("--platform takes swift, js, android or flutter, not '\(platform)'")
    }
  }

  func run() async throws {
    let loaded = try ModelSource.load(model)
    var recordings: [Recording] = []
    for file in files {
      do { recordings.append(try RecordingReader.read(file, maxBytes: maxBytes)) } catch {
        printError(error.description)
        throw ExitStatus.badModel
      }
    }
    let diagnoser = Diagnoser(model: loaded, maxStates: maxStates, platform: platform)
    let diagnoses = recordings.map { RecordingDiagnosis($0, diagnoser: diagnoser) }
    let report = DiagnosisReport(model: loaded, diagnoses: diagnoses)
    switch format {
    case .text: print(report.text(), terminator: "")
    case .json: print(String(decoding: Self.pretty(report.json()), as: UTF8.self))
    case .sarif: print(String(decoding: Self.pretty(report.sarif()), as: UTF8.self))
    }
    let verdicts = diagnoses.flatMap(\.flows).map(\.verdict.kind)
    if verdicts.contains(.inconsistent) { throw ExitStatus.violation }
    if verdicts.contains(.inconclusive) { throw ExitStatus.inconclusive }
  }

  static func pretty(_ value: JSONValue) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)) ?? Data("{}".utf8)
  }
}
