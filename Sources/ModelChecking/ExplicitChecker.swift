import Dispatch
import Foundation
import SignInModel

/// Checks every invariant of a model over every configuration by explicit-state search.
///
/// Configurations are enumerated lazily: exploration starts with every configuration
/// variable unassigned and forks on a variable only when a guard reads it, so each
/// explored class stands for all configurations that agree on what the flow reads.
/// Within a class the search is breadth-first, so each counterexample is shortest
/// (in calls) for its class, and the checker keeps the shortest over all classes.
public struct ExplicitChecker: Sendable {
  public let model: SignInModel
  /// The rules every class's exploration evaluates, built once.
  public internal(set) var system: TransitionSystem
  /// Worker threads; classes are split between them.
  public let jobs: Int
  /// Transition systems over independent copies of the model (`ModelLoader.reload`) for the
  /// workers after the first, taken in turn (worker w reads copy (w - 1) mod count; none: all
  /// read `system`). Workers that share one model
  /// contend for the reference counts of its objects on every state: on two cores the search
  /// ran no faster with two workers than with one, and with a copy each it takes half as long.
  public var workerSystems: [TransitionSystem] = []

  /// Constraints split into groups that share no variable.
  let constraintGroups: [ConstraintGroup]
  let counter: ConstraintCounter
  /// The model's constraints compiled for three-valued evaluation (`mayHold`).
  let constraintCodes: [PartialExpr]
  /// `model.canSignIn` compiled, for `FlowGraph.strictClasses`.
  let canSignInCode: CompiledExpr?
  /// Resource limits; the search stops at the first one passed and says so in the report.
  public var limits = ExplicitLimits.none
  /// Explore each class three-valued and split it into the strict search's classes at the end
  /// (`FlowGraph.threeValued`, `finish`): the same report, with one graph explored where the
  /// strict search explores the same graph once per value of a variable no guard needed. False
  /// forks at every unassigned variable read (the search before, kept to compare against).
  var threeValuedClasses = true
  /// Called about once a second after the first second with (classes, states) explored so far.
  public var progress: (@Sendable (Int, Int) -> Void)?

  public init(model: SignInModel, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.init(system: TransitionSystem(model: model), jobs: jobs)
  }

  public init(system: TransitionSystem, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
    let model = system.model
    self.model = model
    self.system = system
    self.jobs = max(1, jobs)
    self.constraintGroups = Self.groups(of: model.constraints.map(\.expr))
    self.counter = ConstraintCounter(model: model)
    self.constraintCodes = model.constraints.map { PartialExpr($0.expr) }
    self.canSignInCode = model.canSignIn.map(CompiledExpr.init)
  }

  /// Runs the check; `invariants` limits which verdicts are reported (nil: the built-ins and
  /// the model's own properties, `Invariant.all(for:)`).
  /// - Parameter configuration: check only configurations that agree with this partial
  ///   assignment (`unassigned` = any); nil checks them all.
  public func check(invariants: [Invariant]? = nil, configuration: [Int]? = nil) -> CheckReport {
    let invariants = invariants ?? Invariant.all(for: model)
    // Hyperproperties are searched on their self-composition; the statistics stay the model's own,
    // or where nothing else is checked, they are the self-compositions' (`selfCompositions`).
    if invariants.contains(where: isIndistinguishable) {
      let rest = invariants.filter { !isIndistinguishable($0) }
      var report =
        rest.isEmpty
        ? CheckReport(model: model, statistics: CheckStatistics(), results: [])
        : check(invariants: rest, configuration: configuration)
      var statistics = report.statistics
      var results: [Invariant: InvariantResult] = [:]
      for result in report.results { results[result.invariant] = result }
      for invariant in invariants where isIndistinguishable(invariant) {
        let (result, product, incomplete) = checkIndistinguishable(invariant)
        results[invariant] = result
        if report.incomplete == nil, let incomplete { report.incomplete = incomplete }
        // A property that compares nothing returns without a search: nothing to count.
        if rest.isEmpty && product != CheckStatistics() {
          statistics.add(product)
          statistics.selfCompositions += 1
        }
      }
      return CheckReport(
        model: model, statistics: statistics, results: invariants.compactMap { results[$0] },
        incomplete: report.incomplete)
    }
    let start = DispatchTime.now()
    let root = configuration ?? [Int](repeating: unassigned, count: model.configurationIndices.count)

    // Expand the fork tree breadth-first until there is enough work to share.
    var frontier: [WorkItem] = [WorkItem(config: root, key: [], graph: nil, canSignIn: true)]
    let structure = FlowStructure(system: system)
    var sequential = Aggregate(structure: structure)
    var sequentialCache = ConstraintCache()
    let budget = LimitBudget(limits, progress: progress)
    while frontier.count < jobs * 64 && !frontier.isEmpty && !budget.exhausted {
      var next: [WorkItem] = []
      for item in frontier where !budget.exhausted {
        switch explore(item, cache: &sequentialCache, budget: budget) {
        case .done(let leaf):
          sequential.add(leaf)
          _ = budget.charge(leaf)
        case .fork(let children): next.append(contentsOf: children)
        }
      }
      frontier = next
      if next.isEmpty { break }
    }
    let partials = Partials()
    let work = frontier
    DispatchQueue.concurrentPerform(iterations: jobs) { worker in
      var local = Aggregate(structure: structure)
      var cache = ConstraintCache()
      // The same search over this worker's own copy of the model, if it has one (same indices).
      var own = self
      if worker > 0, !workerSystems.isEmpty { own.system = workerSystems[(worker - 1) % workerSystems.count] }
      while !budget.exhausted, let i = partials.nextItem(below: work.count) {
        var first = work[i]
        first.graph?.system = own.system
        // Each waiting class with the bytes it holds (`PendingMemory`).
        var stack = [(first, 0)]
        while let (item, bytes) = stack.popLast() {
          budget.pending.release(bytes)
          switch own.explore(item, cache: &cache, budget: budget) {
          case .done(let leaf):
            local.add(leaf)
            if !budget.charge(leaf) { stack.removeAll() }
          case .fork(let children):
            if !budget.push(children, holding: Self.heldBytes(children), onto: &stack) { stack.removeAll() }
          }
        }
      }
      partials.store(local, at: worker)
    }
    var total = sequential
    for partial in partials.all() { total.merge(partial) }
    var statistics = total.statistics
    statistics.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    return CheckReport(
      model: model, statistics: statistics, results: total.verdicts(for: invariants, complete: budget.reason == nil),
      incomplete: budget.reason)
  }

  /// About how many bytes the children of one fork hold while they wait, in their order: each
  /// its own configuration, key and graph configuration; the graph explored before the fork,
  /// which they share until each explores on, is counted with the last (the one explored last).
  static func heldBytes(_ children: [WorkItem]) -> [Int] {
    var bytes = children.map { 8 * (2 * $0.config.count + $0.key.count) }
    if let graph = children.last?.graph { bytes[bytes.count - 1] += graph.heldBytes }
    return bytes
  }

  /// A configuration class still to explore, with the graph explored so far (if any).
  struct WorkItem {
    var config: [Int]
    var key: [Int]
    var graph: FlowGraph?
    var canSignIn: Bool
  }

  enum Step {
    case done(Leaf)
    case fork([WorkItem])
  }

  /// The result of one fully determined configuration class: a three-valued class stands for
  /// the `classes` strict classes in it that satisfy the constraints, `excludedClasses` do not
  /// (`FlowGraph.strictClasses`), and shows the first of them by key.
  struct Leaf {
    var key: [Int]
    var excluded = false
    var classes = 1
    var excludedClasses = 0
    var covered: Double = 0
    var graph: FlowGraph?
    var canSignIn = true
    /// A configuration of this class that satisfies every constraint (`unassigned` = any).
    var representative: [Int] = []
  }

  /// True unless some constraint is already false under the partial assignment.
  public func mayHold(_ config: [Int]) -> Bool {
    constraintCodes.allSatisfy { $0.evaluate(config) != 0 }
  }

  /// Explores one class; within it, the search stops at `budget`'s states and depth.
  func explore(_ item: consuming WorkItem, cache: inout ConstraintCache, budget: LimitBudget? = nil) -> Step {
    do {
      if item.graph == nil {
        if !mayHold(item.config) { return .done(Leaf(key: item.key, excluded: true, excludedClasses: 1)) }
        item.canSignIn = try model.canSignIn?.holds(item.config) ?? true
        item.graph = FlowGraph(system: system, configuration: item.config)
        item.graph!.threeValued = threeValuedClasses
      }
      try item.graph!.explore(maxNodes: budget?.remainingStates ?? .max, maxDepth: budget?.maxDepth ?? .max)
      return .done(finish(item, cache: &cache))
    } catch {
      let variable = error.index
      var children: [WorkItem] = []
      for value in model.variables[variable].domain.values {
        var child = copy item
        child.config[variable] = value
        child.graph?.configuration[variable] = value
        child.key += [variable, value]
        children.append(child)
      }
      return .fork(children)
    }
  }

  /// Completes a fully explored class: counts the configurations it covers that satisfy
  /// every constraint, and picks a representative configuration for its counterexamples.
  /// Constraints are split into groups that share no variable; each group's free variables
  /// are enumerated on their own (pruned by three-valued evaluation) and counts multiply.
  ///
  /// A class explored three-valued is split into the strict search's classes (each counted and
  /// checked against the constraints on its own) and reported as the first of them by key that
  /// meets the constraints: the counts, keys and configurations are the strict search's. A class
  /// where no evaluation was decided three-valued is one of them already.
  func finish(_ item: WorkItem, cache: inout ConstraintCache) -> Leaf {
    guard let graph = item.graph, graph.threeValued, graph.threeValuedDecisions > 0 else {
      return finish(item.config, key: item.key, graph: item.graph, canSignIn: item.canSignIn, cache: &cache)
    }
    var root = item.config
    for k in stride(from: 0, to: item.key.count, by: 2) { root[item.key[k]] = unassigned }
    var first: Leaf? = nil
    var classes = 0
    var excluded = 0
    var covered = 0.0
    graph.strictClasses(from: root, canSignIn: canSignInCode) { configuration, key in
      let leaf = finish(configuration, key: key, graph: nil, canSignIn: item.canSignIn, cache: &cache)
      if leaf.excluded {
        excluded += 1
        return
      }
      classes += 1
      covered += leaf.covered
      if first == nil || key.lexicographicallyPrecedes(first!.key) {
        first = leaf
        first!.graph = graph
        first!.graph!.configuration = configuration
      }
    }
    guard var leaf = first else {
      return Leaf(key: item.key, excluded: true, classes: 0, excludedClasses: excluded)
    }
    leaf.classes = classes
    leaf.excludedClasses = excluded
    leaf.covered = covered
    return leaf
  }

  /// `finish` of the class of `configuration` explored strictly (or one strict class of a
  /// three-valued class, then without its graph).
  func finish(_ configuration: [Int], key: [Int], graph: FlowGraph?, canSignIn: Bool, cache: inout ConstraintCache)
    -> Leaf
  {
    var covered = 1.0
    var representative = configuration
    var inGroups = Set<Int>()
    for (g, group) in constraintGroups.enumerated() {
      inGroups.formUnion(group.variables)
      let entry = count(group: g, from: configuration, cache: &cache)
      guard let completion = entry.1 else { return Leaf(key: key, excluded: true, excludedClasses: 1) }
      covered *= entry.0
      for (v, value) in zip(group.variables, completion) { representative[v] = value }
    }
    for v in model.configurationIndices where configuration[v] == unassigned && !inGroups.contains(v) {
      covered *= Double(model.variables[v].domain.count)
    }
    return Leaf(key: key, covered: covered, graph: graph, canSignIn: canSignIn, representative: representative)
  }

  /// How many configurations agree with the partial assignment `config` (configuration
  /// variables; `unassigned` = any) and meet every constraint (`signin-spec diagnose` counts
  /// the configurations that explain a recording with it).
  public func coveredConfigurations(_ config: [Int]) -> Double {
    var cache = ConstraintCache()
    return coveredConfigurations(config, cache: &cache)
  }

  /// `coveredConfigurations(_:)`, with each group's count kept in `cache` by the values of the
  /// group's variables (a caller counting many configurations that share them counts each once).
  public func coveredConfigurations(_ config: [Int], cache: inout ConstraintCache) -> Double {
    guard mayHold(config) else { return 0 }
    var covered = 1.0
    var inGroups = Set<Int>()
    for (g, group) in constraintGroups.enumerated() {
      inGroups.formUnion(group.variables)
      let entry = count(group: g, from: config, cache: &cache)
      guard entry.1 != nil else { return 0 }
      covered *= entry.0
    }
    for v in model.configurationIndices where config[v] == unassigned && !inGroups.contains(v) {
      covered *= Double(model.variables[v].domain.count)
    }
    return covered
  }

  /// Constraints that share variables, with the variables they read.
  struct ConstraintGroup {
    var constraints: [Expr]
    var variables: [Int]
  }

  static func groups(of constraints: [Expr]) -> [ConstraintGroup] {
    var groups: [ConstraintGroup] = []
    for constraint in constraints {
      let vars = Set(constraint.variables)
      var merged = ConstraintGroup(constraints: [constraint], variables: Array(vars))
      groups.removeAll { group in
        guard !vars.isDisjoint(with: group.variables) else { return false }
        merged.constraints += group.constraints
        merged.variables = Array(Set(merged.variables).union(group.variables))
        return true
      }
      groups.append(merged)
    }
    return groups.map { ConstraintGroup(constraints: $0.constraints, variables: $0.variables.sorted()) }
  }

  /// `count(_:from:)` of group `g`, kept in `cache` by the values of the group's variables.
  func count(group g: Int, from config: [Int], cache: inout ConstraintCache) -> (Double, [Int]?) {
    let group = constraintGroups[g]
    let key = [g] + group.variables.map { config[$0] }
    if let cached = cache[key] { return cached }
    let entry = count(group, from: config)
    cache[key] = entry
    return entry
  }

  /// How many assignments of the group's free variables satisfy its constraints, and the first one.
  func count(_ group: ConstraintGroup, from config: [Int]) -> (Double, [Int]?) {
    // Structure first; plain enumeration only for a group `ConstraintCounter.refusal(in:)` refuses.
    if let counted = try? counter.count(group.constraints, variables: group.variables, config: config) {
      return counted
    }
    let free = group.variables.filter { config[$0] == unassigned }
    var candidate = config
    var total = 0.0
    var first: [Int]? = nil
    func enumerate(_ k: Int) {
      for c in group.constraints where c.evaluatePartially(candidate) == 0 { return }
      if k == free.count {
        total += 1
        if first == nil { first = group.variables.map { candidate[$0] } }
        return
      }
      for value in model.variables[free[k]].domain.values {
        candidate[free[k]] = value
        enumerate(k + 1)
      }
      candidate[free[k]] = unassigned
    }
    enumerate(0)
    return (total, first)
  }
}

/// Constraint groups' counts by (group, the values of its variables): how many assignments of
/// its free variables satisfy it, and the first one (nil: none).
public typealias ConstraintCache = [[Int]: (Double, [Int]?)]

/// Per-worker results, merged at the end. `@unchecked Sendable` is safe: every access to
/// its mutable state goes through `lock`.
final class Partials: @unchecked Sendable {
  private var items: [Aggregate?]
  private let lock = NSLock()
  private var next = 0
  init() { items = [] }
  /// Hands out work items one at a time, so workers that finish early take more.
  func nextItem(below count: Int) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    guard next < count else { return nil }
    next += 1
    return next - 1
  }
  func store(_ aggregate: Aggregate, at index: Int) {
    lock.lock()
    defer { lock.unlock() }
    while items.count <= index { items.append(nil) }
    items[index] = aggregate
  }
  func all() -> [Aggregate] {
    lock.lock()
    defer { lock.unlock() }
    return items.compactMap { $0 }
  }
}

/// Accumulates statistics and the shortest counterexample per invariant over classes.
struct Aggregate {
  let structure: FlowStructure
  var model: SignInModel { structure.system.model }
  var statistics = CheckStatistics()
  var best: [Invariant: (Counterexample, [Int])] = [:]
  /// Per step, the shortest calls over all classes to a call that could enter it (a way in not
  /// taken), with its class key: the trace of a `stepsReachable` finding for that step.
  var waysIn: [Int: (Counterexample, [Int])] = [:]
  var stepsReached = Set<Int>()
  var witnessedFailAuthentication = false
  var witnessedOffer = false
  var witnessedRequiredMFA = false
  var doneReached = false
  /// Some explored class's user can sign in (`canSignIn` holds there).
  var someoneCanSignIn = false
  var witnessedProperties: Set<Invariant> = []

  init(structure: FlowStructure) { self.structure = structure }

  mutating func add(_ leaf: ExplicitChecker.Leaf) {
    statistics.excludedClasses += leaf.excludedClasses
    guard !leaf.excluded, let graph = leaf.graph else { return }
    statistics.configurationClasses += leaf.classes
    statistics.configurations += leaf.covered
    statistics.states += graph.nodeCount * leaf.classes
    statistics.transitions += graph.edges.count * leaf.classes
    stepsReached.formUnion(graph.stepsReached)
    witnessedFailAuthentication = witnessedFailAuthentication || graph.witnessedFailAuthentication
    witnessedOffer = witnessedOffer || graph.witnessedOffer
    witnessedRequiredMFA = witnessedRequiredMFA || graph.witnessedRequiredMFA
    doneReached = doneReached || graph.doneReached
    someoneCanSignIn = someoneCanSignIn || leaf.canSignIn
    witnessedProperties.formUnion(graph.witnessedProperties)
    let configuration = graph.assignments(for: leaf.representative)
    for (invariant, c) in graph.violations {
      offer(
        invariant,
        Counterexample(
          invariant: invariant, message: c.message, configuration: configuration, steps: c.steps,
          loopStartsAt: c.loopStartsAt), key: leaf.key)
    }
    if leaf.canSignIn && !graph.doneReached && !graph.stoppedEarly {
      var (edges, ends) = graph.shortestPathToEnd()
      var then: [TraceStep] = []
      var message = "this user can sign in (canSignIn holds) but no path reaches done: "
      if let point = graph.furthestPoint(structure) {
        (edges, then) = (point.edges, point.then)
        message += point.detail + "; "
      }
      message +=
        ends.isEmpty
        ? "every path gets stuck (a dead end or a cycle)"
        : "every path ends in " + ends.joined(separator: " or ")
      let c = graph.counterexample(.doneReachable, message, edges: edges, loopStart: nil, appending: then)
      offer(
        .doneReachable,
        Counterexample(
          invariant: .doneReachable, message: message, configuration: configuration, steps: c.steps, loopStartsAt: nil),
        key: leaf.key)
    }
    for (step, way) in graph.waysInNotTaken(structure) {
      let length = graph.depth[way.node] + 1
      if let (existing, existingKey) = waysIn[step],
        existing.length < length || (existing.length == length && !leaf.key.lexicographicallyPrecedes(existingKey))
      {
        continue
      }
      let (edges, then) = graph.path(to: way.node, thenCalling: structure.system.branches[way.branch].response)
      let c = graph.counterexample(.stepsReachable, "", edges: edges, loopStart: nil, appending: then)
      waysIn[step] = (
        Counterexample(
          invariant: .stepsReachable, message: "", configuration: configuration, steps: c.steps, loopStartsAt: nil),
        leaf.key
      )
    }
  }

  /// The `stepsReachable` finding for steps no class reaches: each step with its line and the
  /// guards on every way into it; the trace of the first that has one leads to a call that could enter it.
  func unreachable(_ missing: [Int]) -> Counterexample {
    let file = model.file
    let parts = missing.map { step -> String in
      let ways = structure.waysIn[step].map { b -> String in
        let from = structure.system.branches[b].step
        if !stepsReached.contains(from) { return structure.origin(of: b) + " (itself unreachable)" }
        let guards = structure.guards(of: b)
        return structure.origin(of: b) + (guards.isEmpty ? "" : ", " + guards.joined(separator: " and "))
      }
      let place = "'\(model.steps[step].id)' (\(file):\(model.steps[step].line))"
      return place
        + (ways.isEmpty ? ": no rule leads to it" : ": every way in is blocked: " + ways.joined(separator: "; "))
    }
    let message = "unreachable under every configuration: " + parts.joined(separator: " | ")
    let trace = missing.lazy.compactMap { waysIn[$0]?.0 }.first
    return Counterexample(
      invariant: .stepsReachable, message: message, configuration: trace?.configuration ?? [],
      steps: trace?.steps ?? [], loopStartsAt: nil)
  }

  private mutating func offer(_ invariant: Invariant, _ counterexample: Counterexample, key: [Int]) {
    if let (existing, existingKey) = best[invariant] {
      if existing.length < counterexample.length { return }
      if existing.length == counterexample.length && !key.lexicographicallyPrecedes(existingKey) { return }
    }
    best[invariant] = (counterexample, key)
  }

  mutating func merge(_ other: Aggregate) {
    statistics.configurationClasses += other.statistics.configurationClasses
    statistics.configurations += other.statistics.configurations
    statistics.excludedClasses += other.statistics.excludedClasses
    statistics.states += other.statistics.states
    statistics.transitions += other.statistics.transitions
    stepsReached.formUnion(other.stepsReached)
    witnessedFailAuthentication = witnessedFailAuthentication || other.witnessedFailAuthentication
    witnessedOffer = witnessedOffer || other.witnessedOffer
    witnessedRequiredMFA = witnessedRequiredMFA || other.witnessedRequiredMFA
    doneReached = doneReached || other.doneReached
    someoneCanSignIn = someoneCanSignIn || other.someoneCanSignIn
    witnessedProperties.formUnion(other.witnessedProperties)
    for (invariant, (counterexample, key)) in other.best { offer(invariant, counterexample, key: key) }
    for (step, (counterexample, key)) in other.waysIn {
      if let (existing, existingKey) = waysIn[step],
        existing.length < counterexample.length
          || (existing.length == counterexample.length && !key.lexicographicallyPrecedes(existingKey))
      {
        continue
      }
      waysIn[step] = (counterexample, key)
    }
  }

  /// The verdicts; when the search was not `complete` (a limit), only violations found in a
  /// state or transition count, never one that needs every class (reachability, vacuity).
  func verdicts(for invariants: [Invariant], complete: Bool = true) -> [InvariantResult] {
    invariants.map { invariant in
      if let (counterexample, _) = best[invariant] {
        return InvariantResult(invariant: invariant, verdict: .violated(counterexample))
      }
      if let notChecked = invariant.notChecked(in: model) {
        return InvariantResult(invariant: invariant, verdict: notChecked)
      }
      if !complete { return InvariantResult(invariant: invariant, verdict: .holds) }
      if statistics.configurationClasses == 0 {
        return InvariantResult(
          invariant: invariant, verdict: .vacuous(reason: "no configuration satisfies the constraints"))
      }
      switch invariant {
      case .stepsReachable:
        let missing = model.steps.indices.filter { !stepsReached.contains($0) }
        if !missing.isEmpty { return InvariantResult(invariant: invariant, verdict: .violated(unreachable(missing))) }
      case .failAuthenticationRestarts where !witnessedFailAuthentication:
        return InvariantResult(
          invariant: invariant, verdict: .vacuous(reason: "no reachable transition fails authentication"))
      case .offersAreUsable where !witnessedOffer:
        return InvariantResult(invariant: invariant, verdict: .vacuous(reason: "no selection step is reachable"))
      case .doneReachable where model.canSignIn != nil && !someoneCanSignIn:
        return InvariantResult(invariant: invariant, verdict: .vacuous(reason: Invariant.nobodyCanSignIn))
      case .noFactorSkipped where !doneReached:
        return InvariantResult(invariant: invariant, verdict: .vacuous(reason: "done is never reached"))
      case .noFactorSkipped where model.mfaRequirement != nil && !witnessedRequiredMFA:
        return InvariantResult(invariant: invariant, verdict: .vacuous(reason: "no path to done ever requires MFA"))
      default:
        if let property = invariant.property(in: model), property.kind == .reachable,
          !witnessedProperties.contains(invariant)
        {
          return InvariantResult(
            invariant: invariant,
            verdict: .violated(
              Counterexample(
                invariant: invariant, message: PropertyMessages.unreachable(property), configuration: [], steps: [],
                loopStartsAt: nil)))
        }
      }
      return InvariantResult(invariant: invariant, verdict: .holds)
    }
  }
}
