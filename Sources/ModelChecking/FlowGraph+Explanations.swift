import SignInModel

/// Shortest paths to states that satisfy a predicate, and the explanations of the verdicts
/// that no single state breaks: where a flow that never reaches `done` gets furthest, and
/// the calls that could enter a step no configuration reaches.
extension FlowGraph {
  /// The first node, in breadth-first order (so one with the fewest calls from `signIn`), at
  /// which `predicate` holds of its step (-1 after a restart) and valuation.
  func firstNode(where predicate: (_ step: Int, _ valuation: [Int]) -> Bool) -> Int? {
    nodeSteps.indices.first { predicate(nodeSteps[$0], valuation(of: $0)) }
  }

  /// The calls of a shortest path from `signIn` to a state where `predicate` holds, or nil if
  /// no explored state satisfies it. Generic trace production for any state property.
  func shortestCounterexample(
    _ invariant: Invariant, _ message: String, toStateWhere predicate: (_ step: Int, _ valuation: [Int]) -> Bool
  ) -> Counterexample? {
    firstNode(where: predicate).map { counterexample(invariant, message, edges: path(to: $0), loopStart: nil) }
  }

  /// The path to `node`, then the call of `response` there: the edge it takes, or, when its
  /// rules decide no outcome, an `undetermined` call.
  func path(to node: Int, thenCalling response: Int) -> (edges: [Int], then: [TraceStep]) {
    if let taken = outEdges(node).first(where: { edges[$0].response == response }) {
      return (path(to: node) + [taken], [])
    }
    return (path(to: node), [undeterminedCall(at: node, response: response, "no rule leads anywhere", lines: [])])
  }

  /// For a class where `done` is never reached: the reachable step closest to `done` by the
  /// rules (ignoring guards; the one reached last among equals), the shortest path to it, and the call there that would lead
  /// towards `done` with the guards that block it and the rule that applies instead.
  func furthestPoint(_ structure: FlowStructure) -> (edges: [Int], then: [TraceStep], detail: String)? {
    // The shallowest node of each step; among them the closest to done, and of those the deepest.
    var best: Int? = nil
    var seen = Set<Int>()
    for (n, step) in nodeSteps.enumerated() where step >= 0 && !model.steps[step].isTerminal {
      guard seen.insert(step).inserted else { continue }
      if best == nil || structure.distanceToDone[step] <= structure.distanceToDone[nodeSteps[best!]] { best = n }
    }
    guard let node = best else { return nil }
    let step = nodeSteps[node]
    let distance = structure.distanceToDone[step]
    let here = "'\(model.steps[step].id)' (\(model.file):\(model.steps[step].line))"
    let way = structure.waysOut[step].first { distance != .max && structure.distanceToDone[$0.target] == distance - 1 }
    guard let way else {
      return (path(to: node), [], "the furthest step reached is \(here), and no rule leads from it towards done")
    }
    let branch = system.branches[way.branch]
    let response = model.responses[branch.response].name
    let blocked = structure.guards(of: way.branch, blockedIn: valuation(of: node))
    var detail =
      "the furthest step reached is \(here); there \(response) leads towards done (to '"
      + "\(model.steps[way.target].id)') only if "
      + (blocked.isEmpty ? "its rules apply" : blocked.joined(separator: " and "))
      + " holds, which it does not for this configuration"
    let (edges, then) = path(to: node, thenCalling: branch.response)
    if then.isEmpty, let last = edges.last, let line = system.branches[self.edges[last].branch].ruleLines.last {
      detail += "; the rule at \(model.file):\(line) applies instead"
    }
    return (edges, then, detail)
  }

  /// For each step this graph never reaches but some rule leads into from a step it does
  /// reach: the first (shallowest) node at such a step and the branch that would enter.
  func waysInNotTaken(_ structure: FlowStructure) -> [Int: (node: Int, branch: Int)] {
    guard reachedStepCount < model.steps.count else { return [:] }
    let open = structure.waysOut.map { $0.filter { !reachedStep[$0.target] } }
    var found: [Int: (node: Int, branch: Int)] = [:]
    for (n, step) in nodeSteps.enumerated() where step >= 0 && !open[step].isEmpty {
      for way in open[step] where found[way.target] == nil { found[way.target] = (n, way.branch) }
    }
    return found
  }
}
