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
  /// Worker threads; classes are split between them.
  public let jobs: Int

  public init(model: SignInModel, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.model = model
    self.jobs = max(1, jobs)
  }

  /// Runs the check; `invariants` limits which verdicts are reported.
  public func check(invariants: [Invariant] = Invariant.allCases) -> CheckReport {
    let start = DispatchTime.now()
    let root = [Int](repeating: unassigned, count: model.configurationIndices.count)

    // Expand the fork tree breadth-first until there is enough work to share.
    var frontier: [(config: [Int], key: [Int])] = [(root, [])]
    var sequential = Aggregate(model: model)
    while frontier.count < jobs * 16 && !frontier.isEmpty {
      var next: [(config: [Int], key: [Int])] = []
      for item in frontier {
        switch explore(item.config, key: item.key) {
        case .done(let leaf): sequential.add(leaf)
        case .fork(let children): next.append(contentsOf: children)
        }
      }
      frontier = next
      if next.isEmpty { break }
    }
    let partials = Partials(count: frontier.count)
    let work = frontier
    DispatchQueue.concurrentPerform(iterations: jobs) { worker in
      var local = Aggregate(model: model)
      var i = worker
      while i < work.count {
        var stack = [work[i]]
        while let item = stack.popLast() {
          switch explore(item.config, key: item.key) {
          case .done(let leaf): local.add(leaf)
          case .fork(let children): stack.append(contentsOf: children.reversed())
          }
        }
        i += jobs
      }
      partials.store(local, at: worker)
    }
    var total = sequential
    for partial in partials.all() { total.merge(partial) }
    var statistics = total.statistics
    statistics.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    return CheckReport(model: model, statistics: statistics, results: total.verdicts(for: invariants))
  }

  enum Step {
    case done(Leaf)
    case fork([(config: [Int], key: [Int])])
  }

  /// The result of one fully determined configuration class.
  struct Leaf {
    var key: [Int]
    var excluded = false
    var covered: Double = 0
    var graph: FlowGraph?
    var canSignIn = true
  }

  func explore(_ config: [Int], key: [Int]) -> Step {
    do {
      for constraint in model.constraints where try !constraint.expr.holds(config) {
        return .done(Leaf(key: key, excluded: true))
      }
      let canSignIn = try model.canSignIn?.holds(config) ?? true
      var graph = FlowGraph(model: model, configuration: config)
      try graph.explore()
      var covered = 1.0
      for (i, v) in config.enumerated() where v == unassigned { covered *= Double(model.variables[i].domain.count) }
      return .done(Leaf(key: key, covered: covered, graph: graph, canSignIn: canSignIn))
    } catch {
      let variable = error.index
      let children = model.variables[variable].domain.values.map { value -> (config: [Int], key: [Int]) in
        var child = config
        child[variable] = value
        return (child, key + [variable, value])
      }
      return .fork(children)
    }
  }
}

/// Per-worker results, merged at the end.
final class Partials: @unchecked Sendable {
  private var items: [Aggregate?]
  private let lock = NSLock()
  init(count: Int) { items = [] }
  func store(_ aggregate: Aggregate, at index: Int) {
    lock.lock(); defer { lock.unlock() }
    while items.count <= index { items.append(nil) }
    items[index] = aggregate
  }
  func all() -> [Aggregate] { lock.lock(); defer { lock.unlock() }; return items.compactMap { $0 } }
}

/// Accumulates statistics and the shortest counterexample per invariant over classes.
struct Aggregate {
  let model: SignInModel
  var statistics = CheckStatistics()
  var best: [Invariant: (Counterexample, [Int])] = [:]
  var stepsReached = Set<Int>()
  var witnessedFailAuthentication = false
  var witnessedOffer = false
  var witnessedRequiredMFA = false
  var doneReached = false

  init(model: SignInModel) { self.model = model }

  mutating func add(_ leaf: ExplicitChecker.Leaf) {
    if leaf.excluded {
      statistics.excludedClasses += 1
      return
    }
    guard let graph = leaf.graph else { return }
    statistics.configurationClasses += 1
    statistics.configurations += leaf.covered
    statistics.states += graph.keys.count
    statistics.transitions += graph.edges.count
    stepsReached.formUnion(graph.stepsReached)
    witnessedFailAuthentication = witnessedFailAuthentication || graph.witnessedFailAuthentication
    witnessedOffer = witnessedOffer || graph.witnessedOffer
    witnessedRequiredMFA = witnessedRequiredMFA || graph.witnessedRequiredMFA
    doneReached = doneReached || graph.doneReached
    for (invariant, counterexample) in graph.violations { offer(invariant, counterexample, key: leaf.key) }
    if leaf.canSignIn && !graph.doneReached {
      let (path, ends) = graph.shortestPathToEnd()
      let message = "this user can sign in (canSignIn holds) but no path reaches done; every path ends in "
        + ends.joined(separator: " or ")
      offer(.doneReachable, graph.counterexample(.doneReachable, message, edges: path, loopStart: nil), key: leaf.key)
    }
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
    for (invariant, (counterexample, key)) in other.best { offer(invariant, counterexample, key: key) }
  }

  func verdicts(for invariants: [Invariant]) -> [InvariantResult] {
    invariants.map { invariant in
      if let (counterexample, _) = best[invariant] {
        return InvariantResult(invariant: invariant, verdict: .violated(counterexample))
      }
      if statistics.configurationClasses == 0 {
        return InvariantResult(invariant: invariant, verdict: .vacuous(reason: "no configuration satisfies the constraints"))
      }
      switch invariant {
      case .stepsReachable:
        let missing = model.steps.indices.filter { !stepsReached.contains($0) }.map { model.steps[$0].id }
        if !missing.isEmpty {
          let message = "unreachable under every configuration: " + missing.joined(separator: ", ")
          return InvariantResult(invariant: invariant, verdict: .violated(Counterexample(
            invariant: invariant, message: message, configuration: [], steps: [], loopStartsAt: nil)))
        }
      case .failAuthenticationRestarts where !witnessedFailAuthentication:
        return InvariantResult(invariant: invariant, verdict: .vacuous(reason: "no reachable transition fails authentication"))
      case .offersAreUsable where !witnessedOffer:
        return InvariantResult(invariant: invariant, verdict: .vacuous(reason: "no selection step is reachable"))
      case .noFactorSkipped where !doneReached:
        return InvariantResult(invariant: invariant, verdict: .vacuous(reason: "done is never reached"))
      case .noFactorSkipped where model.mfaRequired != nil && !witnessedRequiredMFA:
        return InvariantResult(invariant: invariant, verdict: .vacuous(reason: "no path to done ever requires MFA"))
      default: break
      }
      return InvariantResult(invariant: invariant, verdict: .holds)
    }
  }
}
