import Foundation
import Scenarios
import SignInModel
import Testing

@Suite("Scenario files: expected traces checked on the model")
struct ScenarioTests {
  static func write(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString).yaml").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func scenarioFile(expecting second: String) -> String {
    """
    model: models/2023-swift.yaml
    platform: js
    scenarios:
      - name: SMS code
        source: "seeds/002_e5f5ae0642442d10.txt:18"
        configuration: {pool.mfa: required, pool.sms: true, user.phone: true}
        calls:
          - correctPassword: CONFIRM_SIGN_IN_WITH_SMS_CODE
          - wrongCode: \(second)
          - correctCode: DONE
    """
  }

  static func results(_ text: String) throws -> [ScenarioResult] {
    var models: [String: SignInModel] = [:]
    return try ScenarioLoader.load(file: try write(text), models: &models).map(ScenarioRunner.run)
  }

  @Test("a scenario whose every call leads where it expects passes")
  func passing() throws {
    let results = try Self.results(Self.scenarioFile(expecting: "error CodeMismatchException"))
    #expect(results.count == 1)
    #expect(results[0].passed)
  }

  @Test("a wrong expectation fails, with the observed trace beside the expected one")
  func failing() throws {
    let results = try Self.results(Self.scenarioFile(expecting: "DONE"))
    #expect(!results[0].passed)
    let report = results[0].report
    #expect(report.contains("✗ 2. wrongCode: DONE"))
    #expect(report.contains("error CodeMismatchException (stays on CONFIRM_SIGN_IN_WITH_SMS_CODE)"))
    #expect(report.contains("   1. correctPassword: CONFIRM_SIGN_IN_WITH_SMS_CODE"))
  }

  @Test("a response the step does not accept fails the scenario with the model's refusal")
  func refused() throws {
    let results = try Self.results(
      Self.scenarioFile(expecting: "done").replacingOccurrences(
        of: "- wrongCode:", with: "- selectSMS:"))
    #expect(!results[0].passed)
    #expect(results[0].report.contains("refused: step 'confirmSignInWithSMSMFACode' does not accept 'selectSMS'"))
  }

  @Test("a malformed scenario file names file:line for each problem")
  func malformed() throws {
    let text = Self.scenarioFile(expecting: "error CodeMismatchException")
      .replacingOccurrences(of: "pool.sms: true", with: "pool.sms: maybe")
      .replacingOccurrences(of: "- correctCode: DONE", with: "- correctCod: DONE")
    let path = try Self.write(text)
    var models: [String: SignInModel] = [:]
    #expect {
      _ = try ScenarioLoader.load(file: path, models: &models)
    } throws: { error in
      let text = (error as? ScenarioLoadError)?.description ?? ""
      return text.contains("\(path):6:") && text.contains("'maybe' is not a value of 'pool.sms'")
    }
    let unknownResponse = Self.scenarioFile(expecting: "done").replacingOccurrences(
      of: "- correctCode: DONE", with: "- correctCod: DONE")
    let other = try Self.write(unknownResponse)
    #expect {
      _ = try ScenarioLoader.load(file: other, models: &models)
    } throws: { error in
      ((error as? ScenarioLoadError)?.description ?? "").contains(
        "\(other):10:9: error: unknown response 'correctCod'; did you mean 'correctCode'?")
    }
  }

  @Test("expected outcomes are read as steps, done, errors and restarts")
  func expectations() {
    #expect(Expectation(parsing: "done") == .done)
    #expect(Expectation(parsing: "error CodeMismatchException") == .error("CodeMismatchException"))
    #expect(Expectation(parsing: "restart") == .restart(containing: nil))
    #expect(Expectation(parsing: "restart session is expired") == .restart(containing: "session is expired"))
    #expect(Expectation(parsing: "X [a.b]") == .step(name: "X", id: "a.b"))
    #expect(Expectation(parsing: "two words") == nil)
  }

  @Test("the shipped scenarios all pass and reach every step of every model")
  func shipped() throws {
    var models: [String: SignInModel] = [:]
    var results: [ScenarioResult] = []
    for file in ScenarioLoader.files(at: "scenarios") ?? [] {
      results += try ScenarioLoader.load(file: file, models: &models).map(ScenarioRunner.run)
    }
    #expect(results.count >= 40)
    for r in results where !r.passed { Issue.record("\(r.report)") }
    for line in ScenarioCoverage(results).lines {
      #expect(line.missing.isEmpty, "\(line.model)")
      #expect(line.platforms.count == 4, "\(line.model)")
    }
  }
}
