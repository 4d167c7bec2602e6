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
    // Every configuration without SRP's arithmetic (SRP's configurations are sampled below).
    let report = await runner.run(
      runner.allConfigurations(fixed: Self.withoutSRP).filter { !Harness.usesSRP($0) }, seed: 1)
    print(Self.summary("2023", report))
    #expect(report.configurations > 4_000)
    #expect(report.mismatches.isEmpty, "\(report.mismatches.prefix(3).map(Self.describe).joined(separator: "\n"))")
  }

  /// Settings pinned so that no configuration does SRP's arithmetic but USER_AUTH's selection
  /// (no device tracking; pool.customMfa is read in customWithSRP only); the auth flows are
  /// left to `Harness.covers(_:kind:)`.
  static let withoutSRP = [
    "pool.customMfa": "none", "pool.deviceTracking": "off", "pool.deviceSuppressesMfa": "false",
    "user.deviceRemembered": "false",
  ]

  static func summary(_ name: String, _ report: ConformanceReport) -> String {
    "conformance \(name): \(report.configurations) configurations, \(report.sequences) sequences "
      + "(\(report.srpSequences) through SRP), \(report.callsChecked) calls checked, \(report.coverage), "
      + "\(report.mismatches.count) mismatches"
  }

  @Test(
    "sampled configurations of the 2024 and 2026 models",
    arguments: ["models/2024-flutter.yaml", "models/2026-all-platforms.yaml"])
  func sampled(file: String) async throws {
    let runner = ConformanceRunner(model: try ModelLoader.load(file: file))
    let configurations = runner.sampleConfigurations(count: 1_500, seed: 7, fixed: Self.withoutSRP, kind: .withoutSRP)
    let report = await runner.run(configurations, seed: 2)
    print(Self.summary(file, report))
    #expect(report.configurations == 1_500)
    #expect(report.mismatches.isEmpty, "\(report.mismatches.prefix(3).map(Self.describe).joined(separator: "\n"))")
  }

  /// How many SRP configurations each model's run samples: an SRP sequence costs about 0.1 s
  /// per sign-in and side, so 24 configurations (72 sequences) take about 20 s per model.
  static let srpConfigurations = 24

  @Test(
    "sampled configurations that do SRP's arithmetic (SRP flows, device tracking), on every shipped model",
    arguments: ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"])
  func srp(file: String) async throws {
    let runner = ConformanceRunner(model: try ModelLoader.load(file: file))
    let configurations = runner.sampleConfigurations(count: Self.srpConfigurations, seed: 11, kind: .srp)
    let report = await runner.run(configurations, seed: 3)
    print(Self.summary(file + " (SRP)", report))
    #expect(report.configurations == Self.srpConfigurations)
    #expect(report.srpSequences == report.sequences)
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
