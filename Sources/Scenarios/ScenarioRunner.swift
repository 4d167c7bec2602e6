/// The result of checking one scenario: each call expected and observed.
public struct ScenarioResult: Sendable {
  public let scenario: Scenario
  /// For each call: what was expected and what the model did (nil after the model refused a call).
  public let observed: [CallRecord?]
  /// Why the model refused a call (a response the step does not accept), if it did.
  public let refusal: String?

  public var passed: Bool {
    refusal == nil
      && zip(scenario.calls, observed).allSatisfy { call, record in
        record.map { call.expected.matches($0) } ?? false
      }
  }

  /// The failure: the expected trace beside the observed one, a mark on each difference.
  public var report: String {
    let s = scenario
    var lines = ["FAIL \(s.file):\(s.line) \(s.name) (\(s.model.name), \(s.platform))"]
    lines.append("     source: \(scenario.source)")
    if !scenario.settings.isEmpty {
      lines.append("     configuration: " + scenario.settings.map { "\($0.name)=\($0.value)" }.joined(separator: " "))
    }
    let width = max(8, scenario.calls.map { $0.call.count + $0.expected.description.count + 6 }.max() ?? 0)
    lines.append("     " + "call: expected".padding(toLength: width, withPad: " ", startingAt: 0) + "observed")
    for (i, call) in scenario.calls.enumerated() {
      let record = i < observed.count ? observed[i] : nil
      let left = "\(i + 1). \(call.call): \(call.expected)".padding(toLength: width, withPad: " ", startingAt: 0)
      let seen = record?.outcomeText ?? (i == observed.count ? "refused: \(refusal ?? "")" : "(not run)")
      let mark = record.map { call.expected.matches($0) } == true ? "  " : "✗ "
      lines.append("   \(mark)\(left)\(seen)")
    }
    return lines.joined(separator: "\n")
  }
}

/// Runs scenarios on their models.
public enum ScenarioRunner {
  public static func run(_ scenario: Scenario) -> ScenarioResult {
    var observed: [CallRecord?] = []
    do {
      var session = try SimulationSession(
        model: scenario.model, settings: scenario.settings, platform: scenario.platform)
      for call in scenario.calls { observed.append(try session.call(call.call)) }
      return ScenarioResult(scenario: scenario, observed: observed, refusal: nil)
    } catch {
      return ScenarioResult(scenario: scenario, observed: observed, refusal: error.message)
    }
  }
}
