import SignInModel

extension TransitionSystem {
  /// The steps reached from signIn under one configuration, explored breadth first over the
  /// states (step and flow valuation) of that configuration, at most `maxStates` of them.
  ///
  /// A branch is taken where its guard holds and every variable it sets stays in its domain,
  /// as the symbolic engine's `enabled` reads it, so a model that is not deterministic reaches
  /// what Z3 says it reaches. Every step returned is reachable; past `maxStates` some
  /// reachable steps may be missing. Nil when `configurationValues` (the configuration
  /// variables' values in variable order; any flow values after them are ignored) is too
  /// short, has a value outside its domain, or breaks a constraint.
  public func stepsReached(configurationValues: [Int], maxStates: Int) -> Set<Int>? {
    let count = model.configurationIndices.count
    guard configurationValues.count >= count,
      let start = try? ModelSimulator(
        system: self, configurationValues: Array(configurationValues.prefix(count)), recordsTrace: false)
    else { return nil }
    // A state keeps only the flow's values: the configuration's are the same in every one.
    struct State: Hashable {
      let step: Int
      let flow: [Int]
    }
    let configuration = Array(start.valuation[..<count])
    let first = State(step: 0, flow: Array(start.valuation[count...]))
    var seen: Set<State> = [first]
    var queue = [first]
    var reached: Set<Int> = [0]
    var next = 0
    while next < queue.count {
      let state = queue[next]
      next += 1
      let valuationBefore = configuration + state.flow
      if model.steps[state.step].isTerminal { continue }
      for branch in branches(from: state.step) {
        guard let target = branch.target, (try? branch.guardExpr.evaluate(valuationBefore)).map({ $0 != 0 }) == true
        else { continue }
        var valuation = valuationBefore
        guard (try? branch.apply(inPlace: &valuation)) != nil,
          branch.effects.keys.allSatisfy({ model.variables[$0].domain.bounds?.contains(valuation[$0]) == true })
        else { continue }
        reached.insert(target)
        let successor = State(step: target, flow: Array(valuation[count...]))
        guard seen.count < maxStates, seen.insert(successor).inserted else { continue }
        queue.append(successor)
      }
    }
    return reached
  }
}
