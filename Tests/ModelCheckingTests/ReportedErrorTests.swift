import Foundation
import ModelChecking
import Reporting
import SignInModel
import Testing

/// Every trace an engine shows names, call by call, the exception behind the outcome and what
/// each platform reports for it: in the terminal, in SARIF's code flow and in the JSON report.
@Suite("Traces carry the exception and each platform's error")
struct ReportedErrorTests {
  static let model = Result { try ModelLoader.load(file: "models/2026-all-platforms.yaml") }

  /// A three-call trace: TOTP setup, a wrong setup code (EnableSoftwareTokenMFAException), an
  /// unknown challenge.
  static func trace() throws -> Counterexample {
    let model = try model.get()
    var simulator = try ModelSimulator(model: model, configuration: ["pool.mfa": "required", "pool.totp": "true"])
    _ = try simulator.respond("correctPassword")
    _ = try simulator.respond("wrongCode")
    _ = try simulator.respond("unknownChallenge")
    return Counterexample(
      invariant: .terminates, message: "example", configuration: [], steps: simulator.trace, loopStartsAt: nil)
  }

  @Test("the model's names: the exception, the neutral error and the platforms that differ")
  func reportedFromRules() throws {
    let model = try Self.model.get()
    let steps = try Self.trace().steps
    let wrong = model.reported(steps[1].outcome, ruleLines: steps[1].ruleLines)
    #expect(wrong.exception == "EnableSoftwareTokenMFAException")
    #expect(wrong.error(on: "swift") == "AuthError.service.softwareTokenMFANotEnabled")
    #expect(wrong.error(on: "js") == "EnableSoftwareTokenMFAException")
    #expect(wrong.error(on: nil) == "EnableSoftwareTokenMFAException")
    #expect(
      wrong.differences(platformOrder: model.platforms)
        == "swift: AuthError.service.softwareTokenMFANotEnabled; android, flutter: EnableSoftwareTokenMfaException")
    let unknown = model.reported(steps[2].outcome, ruleLines: steps[2].ruleLines)
    #expect(unknown.exception == "UnknownChallengeError" && unknown.error(on: "flutter") == "InvalidStateException")
  }

  @Test("a terminal trace shows the platform's error with the exception behind it, or every platform's")
  func terminalText() throws {
    let trace = try Self.trace()
    let swift = TraceRenderer(model: try Self.model.get(), platform: "swift").traceLines(trace).joined(separator: "\n")
    #expect(swift.contains("error AuthError.service.softwareTokenMFANotEnabled [EnableSoftwareTokenMFAException]"))
    #expect(swift.contains("(swift: AuthError.unknown)"))
    let neutral = TraceRenderer(model: try Self.model.get()).traceLines(trace).joined(separator: "\n")
    #expect(
      neutral.contains("error EnableSoftwareTokenMFAException (swift: AuthError.service.softwareTokenMFANotEnabled"))
    #expect(neutral.contains("js: SignInException"))
  }

  @Test("the JSON of a trace writes exception and error on every call, null where none, and reads them back")
  func jsonTrace() throws {
    let filled = try Self.trace().reported(in: try Self.model.get())
    let data = try JSONEncoder().encode(filled)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let steps = try #require(object["steps"] as? [[String: Any]])
    #expect(steps[0]["exception"] is NSNull)
    #expect(steps[1]["exception"] as? String == "EnableSoftwareTokenMFAException")
    let platforms = try #require(steps[1]["platformErrors"] as? [String: Any])
    #expect(platforms["swift"] as? String == "AuthError.service.softwareTokenMFANotEnabled")
    #expect(try JSONDecoder().decode(Counterexample.self, from: data) == filled)
    // A trace written before these fields reads with none.
    var old = object
    old["steps"] = steps.map { $0.filter { !["exception", "error", "platformErrors"].contains($0.key) } }
    let read = try JSONDecoder().decode(Counterexample.self, from: try JSONSerialization.data(withJSONObject: old))
    #expect(read.steps.allSatisfy { $0.reported == nil })
  }
}

@Suite("export: the errors a response class carries")
struct CarriedErrorsExportTests {
  @Test("a class with errors: exports each with its platform names; a class without has no errors key")
  func exported() throws {
    let export = ModelExport(model: try ModelLoader.load(file: "models/2026-all-platforms.yaml"), tool: "test")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(try export.encoded().utf8)) as? [String: Any])
    let responses = try #require(object["responses"] as? [[String: Any]])
    let setupError = try #require(responses.first { $0["name"] as? String == "setupError" })
    let errors = try #require(setupError["errors"] as? [[String: Any]])
    #expect(errors.count == 7)
    #expect((errors[0]["platforms"] as? [String: String])?["swift"] == "AuthError.notAuthorized")
    #expect(responses.first { $0["name"] as? String == "correctCode" }?["errors"] == nil)
  }
}
