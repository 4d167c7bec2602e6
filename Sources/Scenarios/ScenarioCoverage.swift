import SignInModel

/// Which steps of each model, and which platforms, the passing scenarios reach.
public struct ScenarioCoverage {
  public struct Line {
    public let model: String
    public let scenarios: Int
    public let stepsReached: Int
    public let steps: Int
    public let missing: [String]
    public let platforms: [String]
  }

  public let lines: [Line]

  public init(_ results: [ScenarioResult]) {
    var byModel: [String: [ScenarioResult]] = [:]
    var order: [String] = []
    for r in results {
      if byModel[r.scenario.model.name] == nil { order.append(r.scenario.model.name) }
      byModel[r.scenario.model.name, default: []].append(r)
    }
    lines = order.compactMap { name in
      guard let group = byModel[name], let model = group.first?.scenario.model else { return nil }
      let reached = Set(group.flatMap { $0.observed.compactMap { $0?.stepID } })
      let all = model.steps.dropFirst().map(\.id)
      let platforms = Set(group.map(\.scenario.platform))
      return Line(
        model: name, scenarios: group.count, stepsReached: all.filter(reached.contains).count, steps: all.count,
        missing: all.filter { !reached.contains($0) }, platforms: model.platforms.filter(platforms.contains))
    }
  }

  public var text: [String] {
    lines.map { l in
      "  \(l.model): \(l.scenarios) scenarios, steps reached \(l.stepsReached)/\(l.steps)"
        + (l.missing.isEmpty ? "" : " (not: \(l.missing.joined(separator: ", ")))")
        + ", platforms: \(l.platforms.joined(separator: ", "))"
    }
  }
}
