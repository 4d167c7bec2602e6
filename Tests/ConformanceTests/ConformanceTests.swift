import Conformance
import Foundation
import ModelChecking
import SignInClient
import SignInModel
import Testing

/// The reference client, on the simulated pool, does at every call what the model expects.
@Suite("Conformance of the reference client to the models")
struct ConformanceTests {
  static func describe(_ m: ConformanceMismatch) -> String {
    let config = m.configuration.compactMap { a in a.value.map { "\(a.variable)=\($0)" } }.joined(separator: " ")
    let calls = m.expected.map { "\($0.call)(\($0.response)) -> \($0.outcome)" }.joined(separator: "; ")
    return "\(config)\n  calls: \(calls)\n  client: \(m.observed)"
  }

  @Test("every configuration of the 2023 model that the run covers, three sequences each")
  func model2023() async throws {
    let runner = ConformanceRunner(model: try ModelLoader.load(file: "models/2023-swift.yaml"))
    // The pool simulates neither devices nor SRP (pool.customMfa is read in customWithSRP only).
    let report = await runner.run(runner.allConfigurations(fixed: Self.unsimulated), seed: 1)
    print(
      "conformance 2023: \(report.configurations) configurations, \(report.sequences) sequences, \(report.callsChecked) calls checked, \(report.mismatches.count) mismatches"
    )
    #expect(report.configurations > 4_000)
    #expect(report.mismatches.isEmpty, "\(report.mismatches.prefix(3).map(Self.describe).joined(separator: "\n"))")
  }

  /// Pool settings the simulated pool does not simulate, pinned to their defaults.
  static let unsimulated = [
    "pool.customMfa": "none", "pool.deviceTracking": "off", "pool.deviceSuppressesMfa": "false",
    "user.deviceRemembered": "false",
  ]

  @Test(
    "sampled configurations of the 2024 and 2026 models",
    arguments: ["models/2024-flutter.yaml", "models/2026-all-platforms.yaml"])
  func sampled(file: String) async throws {
    let runner = ConformanceRunner(model: try ModelLoader.load(file: file))
    let configurations = runner.sampleConfigurations(count: 1_500, seed: 7, fixed: Self.unsimulated)
    let report = await runner.run(configurations, seed: 2)
    print(
      "conformance \(file): \(report.configurations) configurations, \(report.sequences) sequences, \(report.callsChecked) calls checked, \(report.mismatches.count) mismatches"
    )
    #expect(report.configurations == 1_500)
    #expect(report.mismatches.isEmpty, "\(report.mismatches.prefix(3).map(Self.describe).joined(separator: "\n"))")
  }
}

@Suite("What a user sees")
struct FullObservationTests {
  @Test("the simulated pool echoes the request in its errors, and the reference client redacts it")
  func echoRedacted() async throws {
    let model = try ModelLoader.load(file: "models/2026-all-platforms.yaml")
    let harness = Harness(model: model)
    var configuration: [String: String] = [:]
    for i in model.configurationIndices {
      let v = model.variables[i]
      configuration[v.name] = v.domain.render(v.defaultValue ?? v.domain.values[0])
    }
    configuration["pool.authFlow"] = "userPassword"
    var run = try #require(harness.start(configuration))
    let record = try await harness.perform(Harness.Call(response: "wrongPassword"), on: &run)
    #expect(record.expectedException == "NotAuthorizedException")
    #expect(record.disagreement == nil, "\(record.disagreement?.description ?? "")")
    guard case .threw(let error, _) = record.observation.outcome else {
      Issue.record("signIn with a wrong password returned a step")
      return
    }
    #expect(error.description.contains("[redacted]"), "the pool echoed the password: \(error)")
    #expect(!error.description.contains(Harness.wrongPassword))
  }
}
