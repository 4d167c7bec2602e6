import ModelChecking
import SignInModel

/// A difference between what the model expects and what the reference client did.
package struct ConformanceMismatch: Sendable {
  package let configuration: [Assignment]
  /// The calls up to and including the one that differed, with the model's expected outcome.
  package let expected: [TraceStep]
  /// How the client differed on the last call.
  package let disagreement: Disagreement
  /// `disagreement`, rendered.
  package var observed: String { disagreement.description }
}

/// Totals of one conformance run.
package struct ConformanceReport: Sendable {
  package var configurations = 0
  package var sequences = 0
  /// Sequences whose configuration does SRP's arithmetic (`Harness.usesSRP`), or that selected
  /// PASSWORD_SRP.
  package var srpSequences = 0
  package var callsChecked = 0
  package var mismatches: [ConformanceMismatch] = []
  /// The model's transitions the run took ("step / response -> outcome", as
  /// `Harness.allTransitions` names them), and how many the model has.
  package var covered: Set<String> = []
  package var transitions = 0

  /// "N/M transitions": the transitions covered out of the model's.
  package var coverage: String { "\(covered.count)/\(transitions) transitions" }
}

/// Runs the reference client through `Harness` for many configurations, one response
/// sequence at a time: sequences are random walks over the model's responses, seeded, with
/// at most `maxFailures` failed attempts (so the five-failure bound is not hit).
package struct ConformanceRunner: Sendable {
  package let harness: Harness
  package var model: SignInModel { harness.model }
  package let sequencesPerConfiguration: Int
  package let maxLength: Int
  package let maxFailures: Int

  package init(model: SignInModel, sequencesPerConfiguration: Int = 3, maxLength: Int = 8, maxFailures: Int = 3) {
    harness = Harness(model: model)
    self.sequencesPerConfiguration = sequencesPerConfiguration
    self.maxLength = maxLength
    self.maxFailures = maxFailures
  }

  /// Whether the run can exercise this configuration (see `Harness`).
  package func covers(_ configuration: [String: String]) -> Bool { harness.covers(configuration) }

  /// Every valid configuration of the model, in a fixed order.
  /// `fixed` pins variables to one value (by name and rendered value), so a run can leave out
  /// variables the pool does not simulate.
  package func allConfigurations(fixed: [String: String] = [:]) -> [[String: String]] {
    var result: [[String: String]] = []
    var values = [Int](repeating: 0, count: model.configurationCount)
    let indices = Array(model.configurationIndices)
    func visit(_ k: Int) {
      if k == indices.count {
        if model.constraints.allSatisfy({ (try? $0.expr.holds(values)) == true }) { result.append(dictionary(values)) }
        return
      }
      let variable = model.variables[indices[k]]
      for v in variable.domain.values where fixed[variable.name].map({ $0 == variable.domain.render(v) }) ?? true {
        values[indices[k]] = v
        visit(k + 1)
      }
    }
    visit(0)
    return result
  }

  /// `count` valid configurations of `kind` (`Harness.Kind`) drawn with `seed`.
  /// `fixed` pins variables as in `allConfigurations(fixed:)`.
  package func sampleConfigurations(
    count: Int, seed: UInt64, fixed: [String: String] = [:], kind: Harness.Kind = .any
  ) -> [[String: String]] {
    var rng = SplitMix64(seed: seed)
    var result: [[String: String]] = []
    var attempts = 0
    let choices = model.configurationIndices.map { i -> [Int] in
      let variable = model.variables[i]
      return variable.domain.values.filter { v in fixed[variable.name].map { $0 == variable.domain.render(v) } ?? true }
    }
    guard !choices.contains(where: \.isEmpty) else { return [] }
    while result.count < count && attempts < count * 1000 {
      attempts += 1
      let values = choices.map { domain -> Int in domain[Int(rng.next() % UInt64(domain.count))] }
      if model.constraints.allSatisfy({ (try? $0.expr.holds(values)) == true }) {
        let d = dictionary(values)
        if harness.covers(d, kind: kind) { result.append(d) }
      }
    }
    return result
  }

  func dictionary(_ values: [Int]) -> [String: String] {
    var d: [String: String] = [:]
    for i in model.configurationIndices { d[model.variables[i].name] = model.variables[i].domain.render(values[i]) }
    return d
  }

  /// Runs the sequences for each configuration and collects every mismatch.
  package func run(_ configurations: [[String: String]], seed: UInt64) async -> ConformanceReport {
    var report = ConformanceReport()
    report.transitions = harness.allTransitions.count
    var rng = SplitMix64(seed: seed)
    for configuration in configurations where covers(configuration) {
      report.configurations += 1
      for _ in 0..<sequencesPerConfiguration {
        report.sequences += 1
        var srp = Harness.usesSRP(configuration)
        if let mismatch = await runSequence(configuration, rng: &rng, report: &report, srp: &srp) {
          report.mismatches.append(mismatch)
        }
        if srp { report.srpSequences += 1 }
      }
    }
    return report
  }

  private func runSequence(
    _ configuration: [String: String], rng: inout SplitMix64, report: inout ConformanceReport, srp: inout Bool
  ) async -> ConformanceMismatch? {
    // The reference client in process: opening never fails.
    guard var run = try? await harness.open(configuration, recordsTrace: true) else { return nil }
    var failures = 0
    for _ in 0..<maxLength {
      guard let stepIndex = run.oracle.step, !model.steps[stepIndex].isTerminal else { return nil }
      let step = model.steps[stepIndex]
      let choices = step.responses.map { model.responses[$0.response].name }
        .filter { harness.supports($0, in: run.oracle) }
      if choices.isEmpty { return nil }
      // Prefer responses that do not fail once the failure budget is spent.
      var response = choices[Int(rng.next() % UInt64(choices.count))]
      var probe = run.oracle
      guard let first = try? probe.respond(response) else { return nil }
      if case .error = first { failures += 1 }
      if failures > maxFailures {
        let safe = choices.filter { c in
          var probe = run.oracle
          if case .error? = try? probe.respond(c) { return false }
          return true
        }
        guard let pick = safe.first else { return nil }
        response = pick
      }
      report.callsChecked += 1
      if response == ResponseName.selectPASSWORD_SRP.rawValue { srp = true }
      guard let record = try? await harness.perform(Harness.Call(response: response), on: &run) else { return nil }
      report.covered.insert(harness.transitionText(of: record))
      if let disagreement = record.disagreement {
        return ConformanceMismatch(
          configuration: model.configurationIndices.map {
            Assignment(variable: model.variables[$0].name, value: configuration[model.variables[$0].name])
          },
          expected: run.oracle.trace, disagreement: disagreement)
      }
    }
    return nil
  }
}
