import Foundation
import ModelChecking
import SignInModel

/// Model-check findings (`verify --save`) in the corpus format: the configuration (every
/// variable the counterexample leaves free set to its first value, which the flow never reads)
/// and the calls as the fuzz case, each call's outcome as both `expected` and `observed`, and
/// the model's state before and after each call as the ITF trace. `client` is "model".
extension CounterexampleFile {
  /// The `client` of a model-check finding.
  package static let modelClient = "model"

  package init(counterexample c: Counterexample, model: SignInModel, tool: String) {
    var configuration: [String: String] = [:]
    for a in c.configuration {
      guard let index = model.variableIndex(named: a.variable) else { continue }
      let domain = model.variables[index].domain
      configuration[a.variable] = a.value ?? domain.values.first.map(domain.render)
    }
    let fuzzCase = FuzzCase(configuration: configuration, calls: c.steps.map { FuzzCall(response: $0.response) })
    var execution = Execution()
    execution.calls = c.steps.map { step in
      let reported = model.reported(step.outcome, ruleLines: step.ruleLines)
      let outcome = CaseExecutor.describe(step.outcome, reported.exception)
      return ObservedCall(
        call: step.call, response: step.response, stepBefore: step.stepBefore, expected: outcome, observed: outcome,
        exception: reported.exception, error: reported.error)
    }
    // The states: replayed on the model; a last call with no single outcome leaves the state as it was.
    if var simulator = try? ModelSimulator(model: model, configuration: configuration) {
      execution.states.append((simulator.valuation, simulator.stepID))
      for step in c.steps {
        if (try? simulator.respond(step.response)) == nil {
          execution.states.append((simulator.valuation, step.stepBefore))
          break
        }
        execution.states.append((simulator.valuation, simulator.stepID))
      }
    }
    self.tool = tool
    self.model = ModelReference(name: model.name, file: model.file, contentHash: model.contentHash)
    seed = "none"
    client = Self.modelClient
    property = "\(c.invariant.rawValue): \(c.invariant.meaning)"
    message = c.message
    originalLength = c.length
    shrunkLength = c.length
    self.fuzzCase = fuzzCase
    calls = execution.calls
    failingCall = max(0, c.length - 1)
    itf = Self.itf(execution, model: model)
    itf.loop = c.loopStartsAt
    invariant = c.invariant.rawValue
  }

  /// What replaying a model-check finding on a model shows.
  package enum ModelReplay: Equatable, Sendable {
    /// The invariant is still broken under the saved configuration (the verdict `verify` gave).
    case reproduced(String)
    /// The invariant now holds under the saved configuration.
    case holds
    /// The saved calls no longer fit the model (why).
    case stale(String)
  }

  /// Replays a model-check finding: the calls must still fit the model (each response accepted
  /// by the step the flow is on; a call whose rules decide no single outcome ends the replay),
  /// then the explicit checker checks the invariant again under the saved configuration (under
  /// every configuration for `stepsReachable`, a verdict about all of them).
  /// - Throws: `CounterexampleReadError` when `invariant` names no invariant.
  package func replayModelFinding(on model: SignInModel, path: String) throws(CounterexampleReadError) -> ModelReplay {
    guard let name = invariant, Invariant.all(for: model).contains(Invariant(rawValue: name)) else {
      throw CounterexampleReadError(
        path: path, field: "invariant",
        reason: "'\(invariant ?? "")' is neither a built-in invariant nor a property of this model")
    }
    let property = Invariant(rawValue: name)
    if property.property(in: model)?.kind == .indistinguishable {
      // Two runs are not one fuzz case: the property is checked again over every pair of runs.
      let report = ExplicitChecker(model: model, jobs: 1).check(invariants: [property])
      if case .violated(let c)? = report.results.first?.verdict { return .reproduced(c.message) }
      return .holds
    }
    var simulator: ModelSimulator
    do { simulator = try ModelSimulator(model: model, configuration: fuzzCase.configuration) } catch {
      return .stale(error.description)
    }
    for call in fuzzCase.calls {
      do { try simulator.respond(call.response) } catch {
        if case .notDeterministic = error { break }
        return .stale(error.description)
      }
    }
    var configuration: [Int]? = nil
    if property != .stepsReachable {
      configuration = model.configurationIndices.map { i in
        let domain = model.variables[i].domain
        return domain.values.first { domain.render($0) == fuzzCase.configuration[model.variables[i].name] }
          ?? unassigned
      }
    }
    let report = ExplicitChecker(model: model, jobs: 1).check(invariants: [property], configuration: configuration)
    switch report.results.first?.verdict {
    case .violated(let c)?: return .reproduced(c.message)
    case .vacuous(let reason)?: return .reproduced("holds only vacuously: \(reason)")
    case .notChecked(let reason, _)?: return .reproduced("not checked: \(reason)")
    case .holds?, nil: return .holds
    }
  }
}
