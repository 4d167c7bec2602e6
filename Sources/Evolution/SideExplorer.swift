import SignInModel

/// Breadth-first search of one model for one configuration class. When a guard reads a
/// configuration variable the class has not fixed, the search stops and names it, so the
/// caller can fork the class on its values (configuration classes, as the explicit engine).
struct SideExplorer {
  enum Result {
    case needs(variable: Int)
    case explored(SideBehaviour)
  }

  private struct State: Hashable {
    let step: Int
    let flow: [Int]
  }

  let model: SignInModel
  /// Renames applied to this side's step ids, so both sides speak of steps alike.
  let stepNames: [String]

  init(model: SignInModel, renames: [String: String] = [:]) {
    self.model = model
    self.stepNames = model.steps.map { renames[$0.id] ?? $0.id }
  }

  func explore(_ configuration: [Int]) -> Result {
    let flowRange = model.flowIndices
    var behaviour = SideBehaviour()
    let start = State(step: 0, flow: flowRange.map { configuration[$0] })
    var states: [State] = [start]
    var parents: [(Int, TraceCall)?] = [nil]
    var seen: [State: Int] = [start: 0]
    var index = 0
    var valuation = configuration
    func trace(to state: Int) -> [TraceCall] {
      var calls: [TraceCall] = []
      var s = state
      while let (p, call) = parents[s] {
        calls.append(call)
        s = p
      }
      return calls.reversed()
    }
    while index < states.count {
      let state = states[index]
      let step = model.steps[state.step]
      for (k, i) in flowRange.enumerated() { valuation[i] = state.flow[k] }
      if behaviour.stepTraces[state.step] == nil { behaviour.stepTraces[state.step] = trace(to: index) }
      if step.kind == .signedIn { behaviour.doneReachable = true }
      if step.isTerminal {
        index += 1
        continue
      }
      do {
        if let offers = step.offers {
          let set = model.optionSets[offers.optionSet]
          for c in offers.conditions where try c.when.holds(valuation) {
            behaviour.offered[state.step, default: []].insert(set.options[c.option].name)
          }
        }
        for stepResponse in step.responses {
          let response = model.responses[stepResponse.response].name
          for (next, outcome) in try resolve(stepResponse.rules, valuation) {
            let key = TransitionKey(step: stepNames[state.step], response: response, outcome: describe(outcome))
            let call = TraceCall(step: key.step, response: response, outcome: key.outcome)
            if behaviour.transitions.insert(key).inserted {
              behaviour.transitionTraces[key] = trace(to: index) + [call]
            }
            let target: Int
            switch outcome {
            case .step(let s): target = s
            case .error: target = state.step
            case .restart, .route: continue
            }
            let successor = State(step: target, flow: flowRange.map { next[$0] })
            if seen[successor] == nil {
              seen[successor] = states.count
              states.append(successor)
              parents.append((index, call))
            }
          }
        }
      } catch {
        return .needs(variable: error.index)
      }
      index += 1
    }
    behaviour.states = states.count
    return .explored(behaviour)
  }

  private func describe(_ outcome: Outcome) -> String {
    switch outcome {
    case .step(let s): return stepNames[s]
    case .error(let name): return "error \(name)"
    case .restart: return "restart"
    case .route(let r): return "route \(model.routes[r].name)"
    }
  }

  /// Every outcome the rules give in `valuation`, following routes (no rule: no outcome).
  private func resolve(_ rules: [Rule], _ valuation: [Int]) throws(UnassignedVariable) -> [([Int], Outcome)] {
    var result: [([Int], Outcome)] = []
    for rule in rules where try rule.guardExpr.holds(valuation) {
      var next = valuation
      for (variable, value) in rule.effects { next[variable] = try value.evaluate(valuation) }
      if case .route(let r) = rule.outcome {
        result += try resolve(model.routes[r].rules, next)
      } else {
        result.append((next, rule.outcome))
      }
    }
    return result
  }
}
