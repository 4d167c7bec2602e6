import SignInModel

extension TransitionSystem {
  /// The steps reached from signIn under one configuration: the explicit engine's flow graph of
  /// that configuration (`FlowGraph`, the search `verify` runs per configuration class), at most
  /// `maxStates` states of it.
  ///
  /// A branch is followed where its guard holds and every variable it sets stays in its domain,
  /// as the symbolic engine's `enabled` reads it, so a model that is not deterministic reaches
  /// what Z3 says it reaches. Every step returned is reachable; past `maxStates` some
  /// reachable steps may be missing. Nil when `configurationValues` (the configuration
  /// variables' values in variable order; any flow values after them are ignored) is too
  /// short, has a value outside its domain, or breaks a constraint.
  public func stepsReached(configurationValues: [Int], maxStates: Int) -> Set<Int>? {
    let count = model.configurationIndices.count
    // The simulator checks the values against their domains and the constraints.
    guard configurationValues.count >= count,
      let start = try? ModelSimulator(
        system: self, configurationValues: Array(configurationValues.prefix(count)), recordsTrace: false)
    else { return nil }
    var graph = FlowGraph(system: self, configuration: Array(start.valuation[..<count]))
    // Every configuration variable has a value, so no guard reads an unassigned one.
    guard (try? graph.explore(maxNodes: maxStates)) != nil else { return nil }
    return graph.stepsReached
  }
}
