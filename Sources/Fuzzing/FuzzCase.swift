import Conformance
import ModelChecking
import SignInClient
import SignInModel

/// One call of a fuzz case: the response class given, and whether the server answers it
/// with a challenge the client cannot know (a future enum value).
package struct FuzzCall: Codable, Sendable, Equatable, Hashable {
  package var response: String
  package var unknownChallenge: Bool

  package init(response: String, unknownChallenge: Bool = false) {
    self.response = response
    self.unknownChallenge = unknownChallenge
  }
}

/// A configuration and the calls made under it: what the fuzzer generates, shrinks and saves.
package struct FuzzCase: Codable, Sendable, Equatable, Hashable {
  package var configuration: [String: String]
  package var calls: [FuzzCall]

  package init(configuration: [String: String], calls: [FuzzCall]) {
    self.configuration = configuration
    self.calls = calls
  }
}

/// One executed call: what the model expected and what the client did.
package struct ObservedCall: Codable, Sendable, Equatable {
  package let call: String
  package let response: String
  package let stepBefore: String
  package let expected: String
  package let observed: String
}

/// The result of running a case: every call, and the first disagreement if there was one.
package struct Execution: Sendable {
  package var calls: [ObservedCall] = []
  /// Index in `calls` of the call where the client differed from the model.
  package var failingCall: Int?
  /// How the client differed at `failingCall`.
  package var disagreement: Disagreement?
  /// `disagreement`, rendered.
  package var message: String? { disagreement?.description }
  /// False when the calls do not fit the model (a response the step does not accept).
  package var valid = true
  /// Transitions the model took: "step / response -> outcome".
  package var transitions: [String] = []
  /// The model's state before the first call and after each call: the valuation of every
  /// variable (configuration, then flow) and the step id, nil once the flow ended.
  package var states: [(valuation: [Int], step: String?)] = []

  package var failed: Bool { failingCall != nil }
}

/// Runs fuzz cases through `Harness`: the model is the oracle, the client (optionally a
/// deliberately broken one, through its hooks) runs on the simulated pool.
package struct CaseExecutor: Sendable {
  package let harness: Harness
  package var model: SignInModel { harness.model }

  package init(model: SignInModel, hooks: ClientHooks = .reference) {
    harness = Harness(model: model, hooks: hooks)
  }

  static func describe(_ outcome: TraceOutcome) -> String {
    switch outcome {
    case .step(let id): return id
    case .error(let name, _): return "error \(name)"
    case .restart(let reason): return "restart (\(reason))"
    case .undetermined(let place): return "undetermined: \(place)"
    }
  }

  package func execute(_ fuzzCase: FuzzCase) async -> Execution {
    var execution = Execution()
    guard var run = harness.start(fuzzCase.configuration) else {
      execution.valid = false
      return execution
    }
    execution.states.append((run.oracle.valuation, run.oracle.stepID))
    for call in fuzzCase.calls {
      guard let stepIndex = run.oracle.step, !model.steps[stepIndex].isTerminal else { break }
      let step = model.steps[stepIndex]
      // Calls the generator never makes are not valid cases.
      guard harness.supports(call.response, at: step.id) else {
        execution.valid = false
        return execution
      }
      let record: Harness.Record
      do {
        record = try await harness.perform(
          Harness.Call(response: call.response, unknownChallenge: call.unknownChallenge), on: &run)
      } catch {
        execution.valid = false
        return execution
      }
      execution.transitions.append(
        "\(step.id) / \(call.response) -> \(Self.transitionOutcome(record.modelOutcome))")
      execution.calls.append(ObservedCall(
        call: record.function, response: call.response + (call.unknownChallenge ? " + unknown challenge" : ""),
        stepBefore: step.id, expected: Self.describe(record.expected), observed: record.observation.description))
      execution.states.append((run.oracle.valuation, call.unknownChallenge ? nil : run.oracle.stepID))
      if let disagreement = record.disagreement {
        execution.failingCall = execution.calls.count - 1
        execution.disagreement = disagreement
        return execution
      }
      if call.unknownChallenge, case .restart = record.expected { break }
    }
    return execution
  }

  static func transitionOutcome(_ outcome: TraceOutcome) -> String {
    switch outcome {
    case .step(let id): return id
    case .error: return "error"
    case .restart: return "restart"
    case .undetermined: return "undetermined"
    }
  }

  /// Every transition the model has, in the same form as `Execution.transitions`.
  package var allTransitions: [String] {
    var seen = Set<String>()
    var result: [String] = []
    for branch in harness.system.branches {
      let outcome: String
      switch branch.outcome {
      case .step(let s): outcome = model.steps[s].id
      case .error: outcome = "error"
      default: outcome = "restart"
      }
      let key = "\(model.steps[branch.step].id) / \(model.responses[branch.response].name) -> \(outcome)"
      if seen.insert(key).inserted { result.append(key) }
    }
    return result
  }
}
