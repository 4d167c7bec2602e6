import ModelChecking
import SignInModel
import Z3Kit

/// Bounded model checking with Z3: unrolls the transitions from signIn one call at a time.
/// The symbolic checker uses it to turn a Spacer "reachable" answer into a concrete
/// configuration, and to find witnesses that steps are reachable.
struct BoundedSearch {
  let model: SignInModel
  let maxDepth: Int
  let timeoutMilliseconds: UInt32
  var resourceLimit: UInt32 = 0
  /// The shared context and encoding to unroll in; nil makes a new one per search.
  var session: SymbolicSession?
  /// The most work (Z3's deterministic "rlimit count") one search may do over all its depths,
  /// 0 for no limit (`FixpointLimits.searchWorkLimit`), checked between depths: past it the
  /// search stops as if it had reached `maxDepth` (the depth that crosses it finishes).
  var workLimit: UInt64 = FixpointLimits.defaultSearchWorkLimit

  init(model: SignInModel, maxDepth: Int, timeoutMilliseconds: UInt32, resourceLimit: UInt32 = 0) {
    self.model = model
    self.maxDepth = maxDepth
    self.timeoutMilliseconds = timeoutMilliseconds
    self.resourceLimit = resourceLimit
  }

  /// A search in the session's context, with its limits.
  init(session: SymbolicSession, maxDepth: Int) {
    self.init(
      model: session.model, maxDepth: maxDepth, timeoutMilliseconds: session.timeoutMilliseconds,
      resourceLimit: session.resourceLimit)
    self.session = session
    workLimit = session.limits.searchWorkLimit
  }

  /// Why the search on `path` must stop before the next depth, if it must: `clock` says the
  /// property's or the run's budget is spent, or `path` did more than `workLimit` (checked
  /// between depths, so the depth that crosses it finishes).
  private func stop(_ path: Unrolling, depth: Int, clock: FixpointLimits.Clock?) -> String? {
    if let spent = clock?.spent(after: depth) { return spent }
    guard workLimit > 0, let count = path.solver.resourceCount, count &- path.startCount > workLimit else { return nil }
    return "its work limit of \(workLimit) units ran out after \(depth) calls (--search-rlimit \(workLimit))"
  }

  /// How a search for a configuration ended.
  enum Search {
    /// The configuration of a shortest path.
    case found([Int])
    /// Why no path was found: none within `maxDepth`, a limit, or Z3's unknown.
    case stopped(String)
  }

  private func unrolling() throws(Z3Error) -> Unrolling {
    if let session { return try Unrolling(session: session) }
    let fresh = try SymbolicSession(
      model: model, system: TransitionSystem(model: model), timeoutMilliseconds: timeoutMilliseconds,
      resourceLimit: resourceLimit)
    return try Unrolling(session: fresh)
  }

  /// The path being unrolled: one step and flow valuation per depth, sharing one configuration.
  final class Unrolling {
    let model: SignInModel
    let context: Z3Context
    let encoding: Z3Encoding
    let conditions: InvariantConditions
    let solver: Z3Solver
    let config: [Int: Z3Term]
    private(set) var steps: [Z3Term] = []
    private(set) var flows: [[Int: Z3Term]] = []
    /// The context's work counter when the unrolling began (it counts every solver's work).
    let startCount: UInt64

    init(session: SymbolicSession) throws(Z3Error) {
      model = session.model
      context = session.context
      encoding = session.encoding
      conditions = session.conditions
      solver = try Z3Solver(context, incremental: true)
      config = encoding.constants(model.configurationIndices)
      solver.assert(encoding.validConfiguration(config))
      startCount = solver.resourceCount ?? 0
    }

    /// Adds the next depth: the initial state at depth 0, else one transition from the last.
    func extend() -> (step: Z3Term, state: [Int: Z3Term]) {
      let depth = steps.count
      let s = context.intConstant("step@\(depth)")
      var state = config
      for (i, t) in encoding.constants(model.flowIndices, prefix: "@\(depth).") { state[i] = t }
      if let ps = steps.last, let previous = flows.last {
        var moves: [Z3Term] = []
        for branch in encoding.system.branches {
          guard let target = branch.target else { continue }
          let post = encoding.postFlow(branch, previous)
          moves.append(
            context.and(
              [
                context.equal(ps, context.int(branch.step)), conditions.enabled(branch, previous),
                context.equal(s, context.int(target)),
              ]
                + model.flowIndices.map { context.equal(state[$0]!, post[$0]!) }))
        }
        solver.assert(context.or(moves))
      } else {
        solver.assert(context.equal(s, context.int(0)))
        for i in model.flowIndices { solver.assert(context.equal(state[i]!, context.int(model.variables[i].initial))) }
      }
      steps.append(s)
      flows.append(state)
      return (s, state)
    }

    /// Is `condition` satisfiable on the path so far? Returns the model's value of `term` if so.
    func check(_ condition: Z3Term, value term: Z3Term) throws(Z3Error) -> (Z3Result, Int?) {
      solver.push()
      defer { solver.pop() }
      solver.assert(condition)
      let result = try solver.check()
      return (result, result == .satisfiable ? solver.integerValue(of: term) : nil)
    }
  }

  /// The configuration (one value per configuration variable) of a shortest path on which
  /// one of `cases` holds (or, with `cycle`, a state repeats), or why there is none: none
  /// within `maxDepth`, past `workLimit`, `clock` says a budget is spent, or Z3 said unknown.
  func findConfiguration(
    cases: (InvariantConditions, [Int: Z3Term]) -> [InvariantConditions.Case], cycle: Bool = false,
    clock: FixpointLimits.Clock? = nil
  ) throws(Z3Error) -> Search {
    let path = try unrolling()
    let context = path.context
    for depth in 0...maxDepth {
      if let why = stop(path, depth: depth, clock: clock) { return .stopped(why) }
      let (s, state) = path.extend()
      var bad = cases(path.conditions, state).map {
        context.and([context.equal(s, context.int($0.step)), $0.condition])
      }
      if cycle {
        let nonTerminal = context.or(
          model.steps.indices.filter { !model.steps[$0].isTerminal }.map { context.equal(s, context.int($0)) })
        for j in 0..<depth {
          bad.append(
            context.and(
              [nonTerminal, context.equal(s, path.steps[j])]
                + model.flowIndices.map { context.equal(state[$0]!, path.flows[j][$0]!) }))
        }
      }
      path.solver.push()
      path.solver.assert(context.or(bad))
      let result = try path.solver.check()
      defer { path.solver.pop() }
      if result == .satisfiable {
        return .found(try path.encoding.firstConfiguration(path.solver, path.config))
      }
      if case .unknown(let reason) = result { return .stopped("Z3 answered unknown at \(depth) calls: \(reason)") }
    }
    return .stopped("no path within \(maxDepth) calls")
  }

  /// The steps some path of at most `maxDepth` calls reaches (under some configuration):
  /// witnesses for `stepsReachable`, found with one incremental solver. Stops early, with the
  /// steps found so far, past `workLimit` or once `clock` says a budget is spent.
  /// - Returns: the steps, and the most calls of the paths searched.
  func reachableSteps(clock: FixpointLimits.Clock? = nil) throws(Z3Error) -> (steps: Set<Int>, calls: Int) {
    let path = try unrolling()
    let context = path.context
    var found: Set<Int> = []
    var calls = 0
    for depth in 0...maxDepth {
      if stop(path, depth: depth, clock: clock) != nil { break }
      let (s, _) = path.extend()
      calls = depth
      while found.count < model.steps.count {
        let missing = context.or(
          model.steps.indices.filter { !found.contains($0) }.map { context.equal(s, context.int($0)) })
        guard case (.satisfiable, let value?) = try path.check(missing, value: s) else { break }
        found.insert(value)
      }
      if found.count == model.steps.count { break }
      if try path.solver.check() != .satisfiable { break }
    }
    return (found, calls)
  }
}
