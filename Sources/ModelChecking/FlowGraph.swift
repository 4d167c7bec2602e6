import SignInModel

/// The reachable flow graph of one configuration class, explored breadth-first, with
/// every per-state and per-transition invariant checked on the way.
///
/// A configuration class is a partial assignment of configuration variables under which
/// the whole exploration never reads an unassigned one; `explore` throws
/// `UnassignedVariable` otherwise, and the checker forks on that variable.
///
/// Nodes, edges and out-edge lists are kept in flat arrays of integers (a node's flow is a
/// slice of `flows`, an edge names its branch), so the copy a fork makes and an append
/// retain no element. An edge's branch number is read in whichever `system` the graph holds:
/// every copy of the model a worker reads (`ModelLoader.reload`) flattens the same branches in
/// the same order.
struct FlowGraph {
  /// A state's key where the model has no `FlowPacking`: its step and flow.
  struct NodeKey: Hashable {
    var step: Int
    var flow: [Int]
  }

  struct Edge {
    var from: Int
    var to: Int
    var response: Int
    /// The branch taken (`system.branches`): its outcome and rule lines are the edge's.
    var branch: Int
  }

  /// The rules it evaluates (a worker sets its own copy's, `ExplicitChecker.workerSystems`).
  var system: TransitionSystem
  var model: SignInModel { system.model }
  /// The configuration part of the valuation, `unassigned` where free. The checker fixes
  /// more of it when exploration throws, and resumes from `cursor`.
  var configuration: [Int]
  /// The next node to process; everything before it is explored.
  private(set) var cursor = 0
  private var started = false
  /// Per node, its step (-1 for a restart).
  private(set) var nodeSteps: [Int] = []
  /// Per node, its flow: `flowCount` values from `node * flowCount` (zeros for a restart).
  private var flows: [Int] = []
  let flowCount: Int
  private(set) var depth: [Int] = []
  private(set) var parentEdge: [Int] = []
  private(set) var edges: [Edge] = []
  /// The out-edges of every processed node, one node after another: node n's are
  /// `outList[outStart[n]..<outStart[n + 1]]` (the last processed node's run to the end).
  private var outList: [Int] = []
  private var outStart: [Int] = []
  /// Nodes by `FlowPacking` key, or by step and flow where the model has none.
  private var packedIndex = IntTable()
  private var index: [NodeKey: Int] = [:]
  /// Per restart reason (`SearchTables.restartReasons`), its node, or -1.
  private var restartNodes: [Int]
  /// For each edge and model property k: whether its predicate (slot 2k) and `leadsTo` target
  /// (2k+1) hold after it, `markStride` slots per edge, in one array (not one per edge).
  private var edgeMarks: [Bool] = []
  private let markStride: Int
  /// `markStride` falses: a new edge's marks (appended as one block).
  private let noMarks: [Bool]
  /// Per `SearchTables.checkedInvariants` slot: violated (for a fact or a safety property)
  /// or witnessed (a `reachable` property) here, so the per-edge checks hash no invariant name.
  private var found: [Bool]

  /// The first (so shortest) violation found per invariant.
  private(set) var violations: [Invariant: Counterexample] = [:]
  /// Per step, whether some node is on it, and how many steps are.
  private(set) var reachedStep: [Bool]
  private(set) var reachedStepCount = 0
  /// The steps some node is on.
  var stepsReached: Set<Int> { Set(reachedStep.indices.filter { reachedStep[$0] }) }
  private(set) var witnessedFailAuthentication = false
  private(set) var witnessedOffer = false
  private(set) var witnessedRequiredMFA = false
  private(set) var doneReached = false
  /// The `reachable` model properties whose predicate holds somewhere in this graph.
  private(set) var witnessedProperties: Set<Invariant> = []
  /// For each model property: its predicate and target at signIn (slots as `edgeMarks`).
  private var initialMarks: [Bool] = []
  /// True when `explore` stopped at its node or depth bound: the graph is a prefix of the class's.
  private(set) var stoppedEarly = false
  /// What processing the current node changed besides appending to the node and edge arrays,
  /// oldest first, so `restore` can undo exactly that (a per-node copy of every table would
  /// retain and release each of them at every node).
  private var changes: [Change] = []
  /// The current node's valuation and the valuation after a branch, kept between nodes so
  /// `process` fills them in place instead of allocating two arrays per node.
  private var valuesBuffer: [Int] = []
  private var afterBuffer: [Int] = []
  /// Evaluate three-valued (Kleene's logic) where strict evaluation stops at an unassigned
  /// configuration variable, and throw only where the value depends on it: `a == x && b` with
  /// `b` false then decides without `a`, and the class is not split on `a`. Every such stop is
  /// kept in `strictStops`, so `strictClasses(from:canSignIn:)` can tell the classes the
  /// strict search (false: throw at every stop) makes of this one.
  var threeValued = false
  /// With `threeValued`: each evaluation whose strict evaluation stopped at an unassigned
  /// variable, in the order evaluated, decided or not; kept across a fork's rollback (the
  /// strict search forks there too).
  private(set) var strictStops: [StrictStop] = []
  /// How many of `strictStops` were decided three-valued (no fork followed). With none, every
  /// stop was a fork of this search too, made in the strict search's order: the class is a
  /// strict class, and `strictClasses` has nothing to split.
  private(set) var threeValuedDecisions = 0

  init(system: TransitionSystem, configuration: [Int]) {
    self.system = system
    self.configuration = configuration
    flowCount = system.model.flowIndices.count
    markStride = 2 * system.propertyChecks.count
    noMarks = Array(repeating: false, count: markStride)
    found = Array(repeating: false, count: system.search.checkedInvariants.count)
    restartNodes = Array(repeating: -1, count: system.search.restartReasons.count)
    reachedStep = Array(repeating: false, count: system.model.steps.count)
  }

  /// The number of nodes (states) found so far.
  var nodeCount: Int { nodeSteps.count }

  /// About how many bytes the graph's arrays hold (`PendingMemory`): per node its step, flow,
  /// depth, parent, out-edge start and index entry; per edge its fields, out-list entry and
  /// marks; the configuration and the per-step and per-restart tables.
  var heldBytes: Int {
    8 * (nodeSteps.count * (6 + flowCount) + edges.count * 7 + configuration.count + restartNodes.count)
      + edgeMarks.count + reachedStep.count + found.count
  }

  /// Whether mark `slot` holds after edge `e` (`edgeMarks`).
  private func mark(_ e: Int, _ slot: Int) -> Bool { edgeMarks[e * markStride + slot] }

  private var flowStart: Int { model.flowIndices.lowerBound }

  /// The flow of `node` (empty for a restart).
  func flow(of node: Int) -> ArraySlice<Int> {
    nodeSteps[node] < 0 ? [] : flows[node * flowCount..<(node + 1) * flowCount]
  }

  func valuation(of node: Int) -> [Int] { configuration + flow(of: node) }

  /// The out-edges of `node` (none before it is processed).
  func outEdges(_ node: Int) -> ArraySlice<Int> {
    guard node < outStart.count else { return [] }
    return outList[outStart[node]..<outEnd(node)]
  }

  private func outEnd(_ node: Int) -> Int { node + 1 < outStart.count ? outStart[node + 1] : outList.count }

  /// The reason of restart node `node`, from the branch that made it.
  func restartReason(of node: Int) -> String {
    system.search.restartReasons[system.search.restartReason[edges[parentEdge[node]].branch]]
  }

  /// The node of `step` with the flow of `valuation` (a whole valuation), made as a child of
  /// `parent` through `edge` if new: on a packed model the flow is copied out only for a new node.
  private mutating func node(step: Int, _ valuation: [Int], parent: Int, edge: Int) -> Int {
    if let packing = system.search.flowPacking {
      let packed = packing.key(step: step, valuation, flowStart: flowStart)
      if let existing = packedIndex[packed] { return existing }
      packedIndex.insert(packed, nodeSteps.count)
    } else {
      let key = NodeKey(step: step, flow: Array(valuation[flowStart...]))
      if let existing = index[key] { return existing }
      index[key] = nodeSteps.count
    }
    flows.append(contentsOf: valuation[flowStart...])
    return newNode(step: step, parent: parent, edge: edge)
  }

  /// The node of restart reason `reason`, made as a child of `parent` through `edge` if new.
  private mutating func restartNode(_ reason: Int, parent: Int, edge: Int) -> Int {
    if restartNodes[reason] >= 0 { return restartNodes[reason] }
    restartNodes[reason] = nodeSteps.count
    flows.append(contentsOf: repeatElement(0, count: flowCount))
    return newNode(step: -1, parent: parent, edge: edge)
  }

  /// Makes a node (its flow already appended, its key indexed).
  private mutating func newNode(step: Int, parent: Int, edge: Int) -> Int {
    let id = nodeSteps.count
    nodeSteps.append(step)
    depth.append(parent < 0 ? 0 : depth[parent] + 1)
    parentEdge.append(edge)
    return id
  }

  /// Where the node and edge arrays ended and the flags before `process` ran, so a node whose
  /// processing read an unassigned variable can be rolled back (with `changes`) and processed
  /// again once the variable is fixed.
  private struct Snapshot {
    var nodeCount: Int
    var edgeCount: Int
    var flags: (Bool, Bool, Bool, Bool)
  }

  /// A change `process` made to the tables that are not appended to (`changes`).
  private enum Change {
    /// The step was reached for the first time.
    case reachedStep(Int)
    /// The invariant's first violation was recorded.
    case violation(Invariant)
    /// The slot of `found` went from false to true.
    case found(Int)
    /// The property was witnessed for the first time.
    case witnessed(Invariant)
  }

  /// Explores every state reachable from `signIn` under this configuration class,
  /// resuming where an earlier call stopped.
  /// - Throws: `UnassignedVariable` with the graph rolled back to the node being processed.
  /// Stops early (`stoppedEarly`) before processing a node once more than `maxNodes` nodes exist
  /// or the node is more than `maxDepth` calls deep; violations recorded so far stay real.
  mutating func explore(maxNodes: Int = .max, maxDepth: Int = .max) throws(UnassignedVariable) {
    if !started {
      started = true
      node(step: 0, configuration + model.flowIndices.map { model.variables[$0].initial }, parent: -1, edge: -1)
    }
    while cursor < nodeSteps.count {
      if nodeSteps.count > maxNodes || depth[cursor] > maxDepth {
        stoppedEarly = true
        return
      }
      let snapshot = Snapshot(
        nodeCount: nodeSteps.count, edgeCount: edges.count,
        flags: (witnessedFailAuthentication, witnessedOffer, witnessedRequiredMFA, doneReached))
      changes.removeAll(keepingCapacity: true)
      do {
        try process(cursor)
      } catch {
        restore(snapshot, processing: cursor)
        throw error
      }
      cursor += 1
    }
    findCycle()
    checkLiveness()
  }

  private mutating func restore(_ snapshot: Snapshot, processing current: Int) {
    for n in snapshot.nodeCount..<nodeSteps.count {
      if nodeSteps[n] < 0 {
        restartNodes[system.search.restartReason[edges[parentEdge[n]].branch]] = -1
      } else if let packing = system.search.flowPacking {
        packedIndex.remove(packing.key(step: nodeSteps[n], flows, flowStart: n * flowCount))
      } else {
        index[NodeKey(step: nodeSteps[n], flow: Array(flow(of: n)))] = nil
      }
    }
    nodeSteps.removeSubrange(snapshot.nodeCount...)
    flows.removeSubrange((snapshot.nodeCount * flowCount)...)
    depth.removeSubrange(snapshot.nodeCount...)
    parentEdge.removeSubrange(snapshot.nodeCount...)
    edges.removeSubrange(snapshot.edgeCount...)
    edgeMarks.removeSubrange((snapshot.edgeCount * markStride)...)
    outList.removeSubrange(outStart[current]...)
    outStart.removeSubrange(current...)
    for change in changes.reversed() {
      switch change {
      case .reachedStep(let s):
        reachedStep[s] = false
        reachedStepCount -= 1
      case .violation(let invariant): violations[invariant] = nil
      case .found(let slot): found[slot] = false
      case .witnessed(let invariant): witnessedProperties.remove(invariant)
      }
    }
    changes.removeAll(keepingCapacity: true)
    (witnessedFailAuthentication, witnessedOffer, witnessedRequiredMFA, doneReached) = snapshot.flags
  }

  /// Adds `invariant` to the witnessed properties, noting the change for `restore` when it is new.
  private mutating func witness(_ invariant: Invariant) {
    if witnessedProperties.insert(invariant).inserted { changes.append(.witnessed(invariant)) }
  }

  /// Whether `code` holds in `values` (the valuation of `node`, or after `branch` from it):
  /// strictly, or with `threeValued` three-valued where the strict evaluation stops (noted in
  /// `strictStops`).
  /// - Throws: `UnassignedVariable` where the value depends on an unassigned variable.
  private mutating func holds(_ code: CompiledExpr, _ values: [Int], node: Int, branch: Int = -1)
    throws(UnassignedVariable) -> Bool
  {
    do {
      return try code.holds(values)
    } catch {
      guard threeValued else { throw error }
      note(
        StrictStop(StoppedCode(code: code.instructions[...], stackDepth: code.stackDepth), node: node, branch: branch))
      guard let decided = code.threeValued.evaluate(values) else { throw error }
      threeValuedDecisions += 1
      return decided != 0
    }
  }

  /// Notes a strict stop in table code (which is evaluated strictly only) before the throw.
  private mutating func noteStop(_ stop: StoppedCode, node: Int) {
    guard threeValued else { return }
    note(StrictStop(stop, node: node))
  }

  /// Appends `stop` to `strictStops` unless the node already has the same evaluation (its
  /// processing again after a fork): over the same valuation with at least as much fixed, that
  /// one stops nowhere in the replay.
  private mutating func note(_ stop: StrictStop) {
    var i = strictStops.count - 1
    while i >= 0 && strictStops[i].node == stop.node {
      if strictStops[i].branch == stop.branch && strictStops[i].code.elementsEqual(stop.code) { return }
      i -= 1
    }
    strictStops.append(stop)
  }

  /// Sets `found[slot]`, noting the change for `restore` when it is new.
  private mutating func setFound(_ slot: Int) {
    guard !found[slot] else { return }
    found[slot] = true
    changes.append(.found(slot))
  }

  /// The valuation of `node`, a node on a step (its class's configuration and its flow),
  /// written into `buffer` in place when it has the right size.
  private func fill(_ buffer: inout [Int], node: Int) {
    let configurationCount = configuration.count
    guard buffer.count == configurationCount + flowCount else {
      buffer = valuation(of: node)
      return
    }
    buffer.withUnsafeMutableBufferPointer { b in
      configuration.withUnsafeBufferPointer { c in
        for i in 0..<configurationCount { b[i] = c[i] }
      }
      flows.withUnsafeBufferPointer { f in
        let base = node * flowCount
        for k in 0..<flowCount { b[configurationCount + k] = f[base + k] }
      }
    }
  }

  private mutating func process(_ current: Int) throws(UnassignedVariable) {
    outStart.append(outList.count)
    let s = nodeSteps[current]
    guard s >= 0 else { return }
    let tables = system.search
    if !reachedStep[s] {
      reachedStep[s] = true
      reachedStepCount += 1
      changes.append(.reachedStep(s))
    }
    // The node's valuation, and the valuation after each branch (filled with it below, each
    // branch's effects written and undone in place): the buffers are taken out of `self` (so
    // they are unique) and put back however this ends.
    var values = valuesBuffer
    valuesBuffer = []
    fill(&values, node: current)
    var after = afterBuffer
    afterBuffer = []
    defer {
      valuesBuffer = values
      afterBuffer = after
    }
    if current == 0 { try checkPropertiesAtStart(values) }
    try checkFacts(atNode: current, step: s, values: values)
    if tables.stepReportsSignedIn[s] != tables.stepIsDone[s] {
      let step = model.steps[s]
      record(
        .isSignedInIffDone, atNode: current,
        "step '\(step.id)' reports isSignedIn = \(step.isSignedIn) but "
          + "\(step.kind == .signedIn ? "is" : "is not") the done step")
    }
    if tables.stepIsTerminal[s] {
      if tables.stepIsDone[s] { doneReached = true }
      return
    }
    fill(&after, node: current)
    if tables.stepOffers[s] { try checkOffers(step: s, node: current, values: values) }

    var firstMismatch: TraceStep? = nil
    var matching: [Int] = []
    for (k, response) in tables.stepResponses[s].enumerated() {
      var mismatches: [TransitionSystem.Mismatch] = []
      if threeValued {
        // Every stop was decided but the last when the walk throws (it throws at the first undecided).
        var stops: [StoppedCode] = []
        var threw = true
        defer {
          threeValuedDecisions += stops.count - (threw && !stops.isEmpty ? 1 : 0)
          for stop in stops { note(StrictStop(stop, node: current)) }
        }
        try system.matchingBranches(
          step: s, responseSlot: k, valuation: values, into: &matching, mismatches: &mismatches, stops: &stops)
        threw = false
      } else {
        try system.matchingBranches(
          step: s, responseSlot: k, valuation: values, into: &matching, mismatches: &mismatches)
      }
      if let first = mismatches.first {
        let lines = first.matchingLines.map(String.init).joined(separator: ", ")
        let what = first.matchingLines.isEmpty ? "no rule matches" : "rules at lines \(lines) all match"
        let call = undeterminedCall(
          at: current, response: response, "\(first.place): \(what)",
          lines: first.matchingLines.isEmpty ? first.ruleLines : first.matchingLines)
        firstMismatch = firstMismatch ?? call
        record(.deterministic, atNode: current, "\(first.place): \(what)", then: call)
      }
      for b in matching {
        try add(index: b, from: current, response: response, values: values, after: &after, tables: tables)
      }
    }
    if outList.count == outStart[current] {
      record(
        .terminates, atNode: current, "dead end: no response leads anywhere from step '\(model.steps[s].id)'",
        then: firstMismatch)
    }
  }

  private mutating func checkOffers(step s: Int, node: Int, values: [Int]) throws(UnassignedVariable) {
    witnessedOffer = true
    let step = model.steps[s]
    guard let offers = step.offers else { return }
    let set = model.optionSets[offers.optionSet]
    var offered: [String] = []
    let checks = system.search.offerChecks[s]
    for check in checks where try holds(check.when, values, node: node) {
      let option = check.option
      offered.append(set.options[option].name)
      if try !holds(check.usable, values, node: node) {
        record(
          .offersAreUsable, atNode: node,
          "step '\(step.id)' offers \(set.options[option].name), which this user cannot use "
            + "(\(set.options[option].text) is false)")
      } else if let factor = check.factor, try !holds(factor.condition, values, node: node) {
        record(.offersAreUsable, atNode: node, "step '\(step.id)' offers \(factor.description)")
      }
    }
    if offered.isEmpty {
      record(.offersAreUsable, atNode: node, "step '\(step.id)' offers an empty list of \(set.name) options")
    }
  }

  /// Takes branch `index` from node `from` (valuation `values`). `after` holds `values` and is
  /// handed back so: the valuation after the branch is written into it and undone at the end.
  /// What an edge reads of the branch comes from `tables` (no `Branch` is retained per edge).
  private mutating func add(
    index: Int, from: Int, response: Int, values: [Int], after: inout [Int], tables: SearchTables
  ) throws(UnassignedVariable) {
    defer { tables.restoreEffects(branch: index, values: values, into: &after) }
    if let stop = tables.applyEffects(branch: index, values: values, into: &after) {
      noteStop(stop.code, node: from)
      throw UnassignedVariable(index: stop.variable)
    }
    if let variable = tables.firstOutsideDomain(branch: index, in: after) {
      let edge = appendEdge(from: from, to: from, response: response, branch: index)
      record(
        .staysInDomain, atEdge: edge,
        "'\(model.variables[variable].name)' is set to \(after[variable]), outside its domain "
          + model.variables[variable].domain.spelling)
      return
    }
    let step: Int
    switch tables.branchTarget[index] {
    case SearchTables.stays: step = nodeSteps[from]
    case SearchTables.restarts: step = -1
    case SearchTables.routes: return  // branches never end in a route
    case let s: step = s
    }
    let edge = appendEdge(from: from, to: -1, response: response, branch: index)
    let target =
      step < 0
      ? restartNode(tables.restartReason[index], parent: from, edge: edge)
      : node(step: step, after, parent: from, edge: edge)
    edges[edge].to = target
    outList.append(edge)

    try checkFacts(branch: index, edge: edge, values: values, after: after, tables: tables)
    try checkProperties(branch: index, edge: edge, values: values)
    let authFailedBefore = values[model.builtins.authFailed] != 0
    let failsAuthentication = tables.branchFailsAuthentication[index]
    if failsAuthentication { witnessedFailAuthentication = true }
    let stepTarget = tables.branchTarget[index]
    if authFailedBefore || failsAuthentication, stepTarget >= 0 {
      record(
        .failAuthenticationRestarts, atEdge: edge,
        "the define trigger failed authentication, yet the flow goes on to step '\(model.steps[stepTarget].id)' "
          + "without a new signIn")
    }
    if stepTarget >= 0, tables.stepIsDone[stepTarget] {
      if after[model.builtins.firstFactorVerified] == 0 {
        record(
          .noFactorSkipped, atEdge: edge, "reached '\(model.steps[stepTarget].id)' without verifying a first factor")
      } else if let required = tables.mfaRequirementCode, try holds(required, after, node: from, branch: index) {
        witnessedRequiredMFA = true
        if after[model.builtins.mfaVerified] == 0 {
          record(
            .noFactorSkipped, atEdge: edge,
            "reached '\(model.steps[stepTarget].id)' without an MFA factor although \(model.mfaRequirementSource)")
        }
      }
    }
  }

  private mutating func appendEdge(from: Int, to: Int, response: Int, branch: Int) -> Int {
    edges.append(Edge(from: from, to: to, response: response, branch: branch))
    if markStride > 0 { edgeMarks.append(contentsOf: noMarks) }
    return edges.count - 1
  }

  // MARK: - Cycles

  /// Finds the cycle among non-terminal states with the shortest prefix, then the
  /// shortest loop through its entry, and records it as a `terminates` violation.
  private mutating func findCycle() {
    let components = stronglyConnectedComponents()
    var entry: Int? = nil
    for (n, component) in components.enumerated() where component >= 0 {
      if entry == nil || depth[n] < depth[entry!] { entry = n }
    }
    guard let entry else { return }
    // Shortest loop from entry back to entry inside its component.
    let component = components[entry]
    var previous = [Int: Int]()  // node -> edge
    var queue = [entry]
    var head = 0
    var closing: Int? = nil
    search: while head < queue.count {
      let n = queue[head]
      head += 1
      for e in outEdges(n) {
        let t = edges[e].to
        guard t >= 0, components[t] == component else { continue }
        if t == entry {
          closing = e
          break search
        }
        if previous[t] == nil {
          previous[t] = e
          queue.append(t)
        }
      }
    }
    guard let closing else { return }
    var loop = [closing]
    var cursor = edges[closing].from
    while cursor != entry, let e = previous[cursor] {
      loop.insert(e, at: 0)
      cursor = edges[e].from
    }
    let prefix = path(to: entry)
    let stepName = model.steps[nodeSteps[entry]].id
    let candidate = counterexample(
      .terminates, "a cycle at step '\(stepName)' can repeat forever without reaching done or a restart",
      edges: prefix + loop, loopStart: prefix.count)
    if let existing = violations[.terminates], existing.length <= candidate.length { return }
    violations[.terminates] = candidate
  }

  /// For each node, the id of its non-trivial strongly connected component (a cycle), or -1.
  private func stronglyConnectedComponents() -> [Int] {
    let count = nodeSteps.count
    var indexOf = [Int](repeating: -1, count: count)
    var low = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var stack: [Int] = []
    var component = [Int](repeating: -1, count: count)
    var nextIndex = 0
    var nextComponent = 0
    // A node takes part in cycles when it is on a non-terminal step; its successors are the
    // targets of its out-edges that are, in edge order (read in place, not as an array per node).
    let terminal = system.search.stepIsTerminal
    let live = nodeSteps.map { $0 >= 0 && !terminal[$0] }
    /// The next successor of `n` from out-edge position `i` on: (node, next position), or nil.
    func successor(_ n: Int, from i: Int) -> (Int, Int)? {
      guard live[n], n < outStart.count else { return nil }
      let base = outStart[n]
      let end = outEnd(n)
      var i = i
      while base + i < end {
        let t = edges[outList[base + i]].to
        i += 1
        if t >= 0 && live[t] { return (t, i) }
      }
      return nil
    }
    var work: [(node: Int, position: Int)] = []
    for root in 0..<count where indexOf[root] < 0 {
      work.append((root, 0))
      indexOf[root] = nextIndex
      low[root] = nextIndex
      nextIndex += 1
      stack.append(root)
      onStack[root] = true
      while let (n, i) = work.last {
        if let (m, next) = successor(n, from: i) {
          work[work.count - 1].position = next
          if indexOf[m] < 0 {
            indexOf[m] = nextIndex
            low[m] = nextIndex
            nextIndex += 1
            stack.append(m)
            onStack[m] = true
            work.append((m, 0))
          } else if onStack[m] {
            low[n] = min(low[n], indexOf[m])
          }
        } else {
          work.removeLast()
          if let parent = work.last { low[parent.node] = min(low[parent.node], low[n]) }
          if low[n] == indexOf[n] {
            var members: [Int] = []
            while true {
              let m = stack.removeLast()
              onStack[m] = false
              members.append(m)
              if m == n { break }
            }
            let selfLoop = live[n] && outEdges(n).contains { edges[$0].to == n }
            if members.count > 1 || selfLoop {
              for m in members { component[m] = nextComponent }
              nextComponent += 1
            }
          }
        }
      }
    }
    return component
  }

  // MARK: - Counterexamples

  /// The edges of the shortest path from `signIn` to `node` (the search is breadth-first).
  func path(to node: Int) -> [Int] {
    var result: [Int] = []
    var cursor = node
    while parentEdge[cursor] >= 0 {
      result.insert(parentEdge[cursor], at: 0)
      cursor = edges[parentEdge[cursor]].from
    }
    return result
  }

  /// Records a violation at `node`; `then` is the call made there that shows it (a route-level
  /// finding: the response whose rules do not decide one outcome).
  fileprivate mutating func record(_ invariant: Invariant, atNode node: Int, _ message: String, then: TraceStep? = nil)
  {
    guard violations[invariant] == nil else { return }
    if let slot = system.search.invariantSlots[invariant] { setFound(slot) }
    violations[invariant] = counterexample(
      invariant, message, edges: path(to: node), loopStart: nil, appending: then.map { [$0] } ?? [])
    changes.append(.violation(invariant))
  }

  /// The call of `response` at `node` when its rules decide no single outcome.
  func undeterminedCall(at node: Int, response: Int, _ what: String, lines: [Int]) -> TraceStep {
    let step = nodeSteps[node]
    return TraceStep(
      call: step == 0 ? "signIn" : "confirmSignIn", response: model.responses[response].name,
      stepBefore: model.steps[step].id, outcome: .undetermined(what), changes: [:], ruleLines: lines)
  }

  fileprivate mutating func record(_ invariant: Invariant, atEdge edge: Int, _ message: String) {
    guard violations[invariant] == nil else { return }
    if let slot = system.search.invariantSlots[invariant] { setFound(slot) }
    violations[invariant] = counterexample(
      invariant, message, edges: path(to: edges[edge].from) + [edge], loopStart: nil)
    changes.append(.violation(invariant))
  }

  /// The configuration of this class, with `nil` for variables it leaves free.
  var assignments: [Assignment] { assignments(for: configuration) }

  func assignments(for configuration: [Int]) -> [Assignment] {
    model.configurationIndices.map { i in
      Assignment(
        variable: model.variables[i].name,
        value: configuration[i] == unassigned ? nil : model.variables[i].domain.render(configuration[i]))
    }
  }

  func counterexample(
    _ invariant: Invariant, _ message: String, edges path: [Int], loopStart: Int?, appending extra: [TraceStep] = []
  ) -> Counterexample {
    var steps: [TraceStep] = []
    for e in path {
      let edge = edges[e]
      let sourceStep = nodeSteps[edge.from]
      let before = model.steps[sourceStep].id
      let branch = system.branches[edge.branch]
      let outcome: TraceOutcome
      var changes: [String: String] = [:]
      switch branch.outcome {
      case .step(let s): outcome = .step(model.steps[s].id)
      case .error(let name): outcome = .error(name, stays: before)
      case .restart(let reason): outcome = .restart(reason)
      case .route: outcome = .restart("internal: unresolved route")
      }
      if edge.to >= 0, nodeSteps[edge.to] >= 0 {
        let source = flow(of: edge.from)
        for (offset, value) in flow(of: edge.to).enumerated() where source[source.startIndex + offset] != value {
          let variable = model.variables[flowStart + offset]
          changes[variable.name] =
            "\(variable.domain.render(source[source.startIndex + offset])) -> \(variable.domain.render(value))"
        }
      }
      steps.append(
        TraceStep(
          call: sourceStep == 0 ? "signIn" : "confirmSignIn", response: model.responses[edge.response].name,
          stepBefore: before, outcome: outcome, changes: changes, ruleLines: branch.ruleLines))
    }
    return Counterexample(
      invariant: invariant, message: message, configuration: assignments, steps: steps + extra,
      loopStartsAt: loopStart)
  }

  /// The shortest path to a terminal outcome, used to show where a flow ends when done is unreachable.
  func shortestPathToEnd() -> (edges: [Int], ends: [String]) {
    var ends: [String] = []
    var best: Int? = nil
    for (n, step) in nodeSteps.enumerated() {
      let label: String?
      if step < 0 {
        label = "restart: \(restartReason(of: n))"
      } else if model.steps[step].isTerminal {
        label = "step \(model.steps[step].id)"
      } else {
        label = nil
      }
      guard let label else { continue }
      if !ends.contains(label) { ends.append(label) }
      if best == nil { best = n }
    }
    return (best.map { path(to: $0) } ?? [], ends)
  }
}

// MARK: - Fact properties

extension FlowGraph {
  /// Records the state properties of `FactProperties` that being at `step` breaks.
  /// (`values`: the node's valuation.)
  fileprivate mutating func checkFacts(atNode node: Int, step: Int, values: [Int]) throws(UnassignedVariable) {
    let codes = system.stateCheckCodes[step]
    guard !codes.isEmpty else { return }
    let slots = system.search.stateCheckSlots[step]
    for k in codes.indices where !found[slots[k]] {
      if try holds(codes[k], values, node: node) {
        let invariant = system.stateChecks[step][k].invariant
        record(invariant, atNode: node, FactProperties(model: model).explain(invariant, step: step))
      }
    }
  }

  /// Records the branch properties of `FactProperties` that taking branch `index` (as `edge`) breaks.
  fileprivate mutating func checkFacts(branch index: Int, edge: Int, values: [Int], after: [Int], tables: SearchTables)
    throws(UnassignedVariable)
  {
    var k = 0
    while true {
      let (broken, stop) = tables.firstBrokenFact(branch: index, from: k, values: values, found: found)
      if let stop {
        noteStop(stop.code, node: edges[edge].from)
        throw UnassignedVariable(index: stop.variable)
      }
      guard broken >= 0 else { return }
      let invariant = system.branchChecks[index][broken].invariant
      let message = FactProperties(model: model).explain(
        invariant, branch: system.branches[index], before: values, after: after)
      record(invariant, atEdge: edge, message)
      k = broken + 1
    }
  }
}

// MARK: - Model properties

extension FlowGraph {
  /// Evaluates the model properties at signIn (node 0).
  /// (`values`: node 0's valuation.)
  fileprivate mutating func checkPropertiesAtStart(_ values: [Int]) throws(UnassignedVariable) {
    var marks: [Bool] = []
    for check in system.propertyChecks {
      let predicate = try holds(check.predicate.initialCode, values, node: 0)
      marks.append(predicate)
      if let target = check.target {
        marks.append(try self.holds(target.initialCode, values, node: 0))
      } else {
        marks.append(false)
      }
      switch check.kind {
      case .always, .never:
        if !predicate { record(check.invariant, atNode: 0, PropertyMessages.safety(check, afterCalls: 0)) }
      case .reachable:
        if predicate { witness(check.invariant) }
      case .eventually, .leadsTo, .indistinguishable: break
      }
    }
    initialMarks = marks
  }

  /// Evaluates the model properties after `edge` (taking branch `branch` from `values`).
  fileprivate mutating func checkProperties(branch: Int, edge: Int, values: [Int]) throws(UnassignedVariable) {
    guard markStride > 0 else { return }
    let tables = system.search
    let base = edge * markStride
    // Every mark first (a condition that is constant after this branch is not evaluated), then
    // the records: an evaluation that throws rolls back the node's records anyway (`explore`'s snapshot).
    var attention: [Int] = []
    var stop: TableStop?
    let recorded = found
    edgeMarks.withUnsafeMutableBufferPointer { marks in
      values.withUnsafeBufferPointer { v in
        recorded.withUnsafeBufferPointer { found in
          stop = tables.evaluateMarks(
            branch: branch, values: v, found: found, marks: marks, base: base, attention: &attention)
        }
      }
    }
    if let stop {
      noteStop(stop.code, node: edges[edge].from)
      throw UnassignedVariable(index: stop.variable)
    }
    for k in attention {
      let check = system.propertyChecks[k]
      switch check.kind {
      case .always, .never:
        record(check.invariant, atEdge: edge, PropertyMessages.safety(check, afterCalls: depth[edges[edge].from] + 1))
      case .reachable:
        setFound(tables.propertySlots[k])
        witness(check.invariant)
      case .eventually, .leadsTo, .indistinguishable: break
      }
    }
  }

  /// A node where a path ends: a restart, a terminal step, or a dead end.
  private func isEnd(_ n: Int) -> Bool {
    nodeSteps[n] < 0 || system.search.stepIsTerminal[nodeSteps[n]] || n >= outStart.count || outStart[n] == outEnd(n)
  }

  /// For mark slot `slot`: the nodes from which every maximal path takes an edge where the
  /// slot holds (least fixpoint, so a cycle avoiding it is not good).
  private func everyPathMarks(_ slot: Int) -> [Bool] {
    let count = nodeSteps.count
    var good = [Bool](repeating: false, count: count)
    var open = [Int](repeating: 0, count: count)
    // Each node's predecessors through unmarked edges, one node after another (node t's from
    // `predecessorStart[t]`), in the order the edges are visited.
    var predecessorStart = [Int](repeating: 0, count: count + 1)
    var queue: [Int] = []
    for n in 0..<count where !isEnd(n) {
      for e in outEdges(n) where !mark(e, slot) {
        open[n] += 1
        predecessorStart[edges[e].to + 1] += 1
      }
      if open[n] == 0 {
        good[n] = true
        queue.append(n)
      }
    }
    for t in 0..<count { predecessorStart[t + 1] += predecessorStart[t] }
    var predecessors = [Int](repeating: 0, count: predecessorStart[count])
    var filled = predecessorStart
    for n in 0..<count where !isEnd(n) {
      for e in outEdges(n) where !mark(e, slot) {
        predecessors[filled[edges[e].to]] = n
        filled[edges[e].to] += 1
      }
    }
    while let n = queue.popLast() {
      for p in predecessors[predecessorStart[n]..<predecessorStart[n + 1]] where !good[p] {
        open[p] -= 1
        if open[p] == 0 {
          good[p] = true
          queue.append(p)
        }
      }
    }
    return good
  }

  /// From a node that is not good for `slot`, a maximal path avoiding the slot: to an end, or a loop.
  private func avoidingPath(from start: Int, slot: Int, good: [Bool]) -> (edges: [Int], loopAt: Int?) {
    var path: [Int] = []
    var seen: [Int: Int] = [start: 0]
    var n = start
    while !isEnd(n) {
      guard let e = outEdges(n).first(where: { !mark($0, slot) && !good[edges[$0].to] }) else { break }
      path.append(e)
      n = edges[e].to
      if let first = seen[n] { return (path, first) }
      seen[n] = path.count
    }
    return (path, nil)
  }

  /// Checks the `eventually` and `leadsTo` model properties on the explored graph.
  fileprivate mutating func checkLiveness() {
    guard !nodeSteps.isEmpty, !initialMarks.isEmpty else { return }
    for (k, check) in system.propertyChecks.enumerated() where violations[check.invariant] == nil {
      switch check.kind {
      case .eventually:
        guard !initialMarks[2 * k] else { continue }
        let good = everyPathMarks(2 * k)
        guard !good[0] else { continue }
        let (path, loop) = avoidingPath(from: 0, slot: 2 * k, good: good)
        violations[check.invariant] = counterexample(
          check.invariant, PropertyMessages.eventually(check, loops: loop != nil), edges: path, loopStart: loop)
      case .leadsTo:
        let good = everyPathMarks(2 * k + 1)
        var trigger: (prefix: [Int], node: Int)? = nil
        if initialMarks[2 * k] && !initialMarks[2 * k + 1] && !good[0] { trigger = ([], 0) }
        if trigger == nil {
          var best: Int? = nil
          for n in nodeSteps.indices {
            for e in outEdges(n) where mark(e, 2 * k) && !mark(e, 2 * k + 1) && !good[edges[e].to] {
              if best == nil || depth[n] < depth[edges[best!].from] { best = e }
            }
          }
          if let best { trigger = (path(to: edges[best].from) + [best], edges[best].to) }
        }
        guard let trigger else { continue }
        let (rest, loop) = avoidingPath(from: trigger.node, slot: 2 * k + 1, good: good)
        violations[check.invariant] = counterexample(
          check.invariant, PropertyMessages.leadsTo(check, afterCalls: trigger.prefix.count, loops: loop != nil),
          edges: trigger.prefix + rest, loopStart: loop.map { trigger.prefix.count + $0 })
      default:
        continue
      }
    }
  }
}
