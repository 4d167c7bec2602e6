import Conformance
import ModelChecking
import SignInModel

extension Fuzzer {
  /// Where a case fails, in the model's terms: the model's step before the failing call (nil
  /// after a restart), what the call led to ("error", "restart" or a step id), and the call.
  struct FailurePoint {
    let stepBefore: String?
    let outcome: String
    let call: FuzzCall

    init?(_ fuzzCase: FuzzCase, _ execution: Execution) {
      guard let i = execution.failingCall, i < fuzzCase.calls.count, i < execution.states.count,
        i < execution.transitions.count, let arrow = execution.transitions[i].range(of: " -> ")
      else { return nil }
      stepBefore = execution.states[i].step
      outcome = String(execution.transitions[i][arrow.upperBound...])
      call = fuzzCase.calls[i]
    }
  }

  /// A model state reached by a prefix of calls.
  private struct Node {
    var oracle: ModelSimulator
    var calls: [FuzzCall]
    var trail: [String]
  }

  /// Shorter cases than `length` calls that reach `point` again, over other configurations:
  /// the current one, each one variable away from it, and a fixed sample of the generator's
  /// configurations. For each, the model's own transition system is walked breadth-first
  /// (after a terminal step or a restart the next call starts a new flow, as in a session)
  /// and a case is proposed wherever the failing call can be made from the same step, or a
  /// call leads to the same step. Cases come shortest first, then in configuration order;
  /// at most `perShape` configurations for one sequence of calls and model steps. The order
  /// depends on the inputs only.
  func shorterCases(
    than length: Int, reaching point: FailurePoint, from configuration: [String: String], perShape: Int = 2
  ) -> [FuzzCase] {
    guard length > 1 else { return [] }
    let maxPrefix = min(length - 2, 3)
    var byLength = [[FuzzCase]](repeating: [], count: length)
    var shapes: [String: Int] = [:]
    func propose(_ calls: [FuzzCall], _ configuration: [String: String], _ trail: String) {
      let shape = "\(calls) \(trail)"
      guard calls.count < length, shapes[shape, default: 0] < perShape else { return }
      shapes[shape, default: 0] += 1
      byLength[calls.count].append(FuzzCase(configuration: configuration, calls: calls))
    }
    for candidate in otherConfigurations(around: configuration) {
      guard
        let fresh = try? ModelSimulator(
          system: executor.harness.system, configuration: candidate, recordsTrace: false)
      else { continue }
      var level = [Node(oracle: fresh, calls: [], trail: [])]
      for depth in 0...maxPrefix {
        var next: [Node] = []
        for node in level {
          // The failing call itself, from the same step (the executor refuses it if it does not fit).
          if node.oracle.stepID == point.stepBefore {
            propose(node.calls + [point.call], candidate, "\(node.trail)")
          }
          let ended = node.oracle.step.map { model.steps[$0].isTerminal } ?? true
          let base = ended ? fresh : node.oracle
          guard let s = base.step else { continue }
          let step = model.steps[s]
          for slot in step.responses {
            let name = model.responses[slot.response].name
            guard executor.harness.supports(name, in: base) else { continue }
            var after = base
            guard let outcome = try? after.respond(name) else { continue }
            let label = CaseExecutor.transitionOutcome(outcome)
            // Another call that leads to the same step.
            if label == point.outcome && label != "error" && label != "restart" && name != point.call.response {
              var last = point.call
              last.response = name
              if ResponseName(rawValue: name) != .networkFault { (last.fault, last.faultRequest) = (nil, nil) }
              if ResponseName(rawValue: name) != .serviceError { last.error = nil }
              propose(node.calls + [last], candidate, "\(node.trail) \(label)")
            }
            // Prefixes keep to plain answers: faults are the failing call's business.
            guard depth < maxPrefix, ResponseName(rawValue: name)?.isFault != true else { continue }
            next.append(
              Node(oracle: after, calls: node.calls + [FuzzCall(response: name)], trail: node.trail + [label]))
          }
        }
        level = next
      }
    }
    return byLength.flatMap { $0 }
  }

  /// `configuration`, every valid configuration one variable away from it, then a fixed
  /// sample of generated ones; each once.
  func otherConfigurations(around configuration: [String: String], sample: Int = 200) -> [[String: String]] {
    var result = [configuration]
    var seen: Set<[String: String]> = [configuration]
    for i in model.configurationIndices {
      let v = model.variables[i]
      for value in v.domain.values {
        var changed = configuration
        changed[v.name] = v.domain.render(value)
        if executor.harness.covers(changed), seen.insert(changed).inserted { result.append(changed) }
      }
    }
    var rng = SplitMix64(seed: 0x5348_5249_4E4B)
    for _ in 0..<sample {
      guard let generated = try? self.configuration(&rng) else { break }
      if seen.insert(generated).inserted { result.append(generated) }
    }
    return result
  }
}
