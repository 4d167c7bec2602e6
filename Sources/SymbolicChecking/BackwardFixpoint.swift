import ModelChecking
import SignInModel
import Z3Kit

/// Unbounded proofs by backward least fixpoints over per-step formulas.
///
/// For each step it keeps one formula over (configuration, flow). An iteration replaces
/// each step's formula using its branches, with each successor's formula taken after the
/// branch by substitution (no quantifiers), and Z3 simplifies it; the fixpoint is reached
/// when Z3 shows no step's set grew. The state space is finite, so it always converges.
/// Three questions use it:
/// - `canReach`: states from which some path reaches a bad case (safety; the complement
///   is an inductive invariant that excludes every bad state),
/// - `allPathsEnd`: states from which every path reaches done or a restart (termination:
///   no dead end and no cycle),
/// - `canReach` done, for `doneReachable`.
struct BackwardFixpoint {
  enum Answer {
    /// No valid starting configuration is in the "bad" set.
    case proven(iterations: Int, invariant: [Z3Term])
    /// A valid starting configuration that is.
    case violated(configuration: [Int])
    case unknown(String)
  }

  let session: SymbolicSession
  let maxIterations: Int
  /// Started when the fixpoint is made: each property's fixpoints get their own budget.
  let clock: FixpointLimits.Clock

  var model: SignInModel { session.model }
  var context: Z3Context { session.context }
  var encoding: Z3Encoding { session.encoding }
  var conditions: InvariantConditions { session.conditions }
  var state: [Int: Z3Term] { session.state }

  /// A fixpoint over the session's shared context and encoding.
  init(session: SymbolicSession) {
    self.session = session
    self.maxIterations = session.limits.maxIterations
    self.clock = FixpointLimits.Clock(limits: session.limits)
  }

  private var flowConstants: [Z3Term] { model.flowIndices.map { state[$0]! } }

  private func after(_ formula: Z3Term, _ branch: TransitionSystem.Branch) -> Z3Term {
    let post = encoding.postFlow(branch, state)
    return context.substitute(formula, flowConstants, model.flowIndices.map { post[$0]! })
  }

  /// Iterates `update` from `initial` to the least fixpoint, then asks whether a valid
  /// configuration with `assumption` starts (at signIn, initial flow) where `isBad` says.
  ///
  /// With `earliest`, the start is also checked after each iteration (and before the first):
  /// the sets grow one call at a time, so the first iteration whose set holds a valid start
  /// gives a configuration with a shortest path over all configurations, and a violation
  /// stops the iterations there. Only for monotone questions ("can reach"), where a start
  /// once inside stays inside.
  ///
  /// With `frontier`, `update` gives only the predecessors of the sets it is given, and is
  /// given only what the last iteration added (the states a bad case is exactly k calls
  /// away from): the new set is the old one or those. Substituting into the last layer rather
  /// than the whole set keeps the formulas small on long chains (a 50-state chain).
  /// It is the same least fixpoint: once a layer adds nothing new, no later layer can.
  private func solve(
    initial: [Z3Term], assumption: Z3Term, earliest: Bool = false, frontier: Bool = false,
    startIsBad: (Z3Term) -> Z3Term, update: ([Z3Term], Int) -> Z3Term
  ) throws(Z3Error) -> Answer {
    let solver = try Z3Solver(context)
    solver.assert(context.and(model.variables.indices.map { encoding.inDomain($0, state[$0]!) }))
    solver.assert(encoding.validConfiguration(state))
    var start = state
    for i in model.flowIndices { start[i] = context.int(model.variables[i].initial) }
    let startValues = model.flowIndices.map { start[$0]! }
    /// Is a valid start with `assumption` bad for these sets? nil when not.
    func badStart(_ sets: [Z3Term]) throws(Z3Error) -> Answer? {
      let atStart = context.substitute(sets[0], flowConstants, startValues)
      solver.push()
      defer { solver.pop() }
      solver.assert(assumption)
      solver.assert(startIsBad(atStart))
      switch try solver.check() {
      case .unsatisfiable: return nil
      case .unknown(let reason): return .unknown(reason)
      case .satisfiable:
        return .violated(
          configuration: model.configurationIndices.map {
            solver.integerValue(of: state[$0]!) ?? model.variables[$0].domain.values[0]
          })
      }
    }
    var current = initial
    var layer = initial
    if earliest, let answer = try badStart(current) { return answer }
    // With `frontier`, the sets only grow: a second solver keeps "not yet in the set" for each
    // step as assertions added once per layer (`selector` names the step), so a check costs
    // one layer, not the whole set (on a 200-state chain the sets hold 200 layers).
    let growth = try Z3Solver(context)
    let selector = context.intConstant("fixpoint step")
    func exclude(_ sets: [Z3Term]) {
      for s in model.steps.indices {
        growth.assert(context.implies(context.equal(selector, context.int(s)), context.not(sets[s])))
      }
    }
    if frontier {
      growth.assert(context.and(model.variables.indices.map { encoding.inDomain($0, state[$0]!) }))
      growth.assert(encoding.validConfiguration(state))
      exclude(initial)
    }
    for iteration in 1...max(1, maxIterations) {
      if let spent = clock.spent(after: iteration - 1) { return .unknown(spent) }
      var added: [Z3Term] = []
      for s in model.steps.indices {
        added.append(tidy(update(frontier ? layer : current, s)))
        if let spent = clock.spent(after: iteration - 1) { return .unknown(spent) }
      }
      let grew: Z3Result
      if frontier {
        growth.push()
        growth.assert(
          context.or(model.steps.indices.map { context.and([context.equal(selector, context.int($0)), added[$0]]) }))
        grew = try growth.check()
        growth.pop()
        exclude(added)
      } else {
        solver.push()
        solver.assert(context.or(model.steps.indices.map { context.and([added[$0], context.not(current[$0])]) }))
        grew = try solver.check()
        solver.pop()
      }
      layer = added
      current = frontier ? model.steps.indices.map { context.simplify(context.or([current[$0], added[$0]])) } : added
      switch grew {
      case .satisfiable:
        // Earlier layers had no bad start, so only the new one can (`earliest` is monotone).
        if earliest, let answer = try badStart(frontier ? added : current) { return answer }
        continue
      case .unknown(let reason): return .unknown(reason)
      case .unsatisfiable:
        if earliest { return .proven(iterations: iteration, invariant: current) }
        return try badStart(current) ?? .proven(iterations: iteration, invariant: current)
      }
    }
    return .unknown(session.limits.iterationsSpent())
  }

  /// `formula` simplified, with each conjunction's equalities `x = numeral` substituted into
  /// its other parts (`Z3Context.propagatingEqualities`): equivalent, and on a long chain no
  /// larger than one call's set, where `simplify` alone kept every guard passed (long chains).
  func tidy(_ formula: Z3Term) -> Z3Term {
    context.simplify(context.propagatingEqualities(context.simplify(formula)))
  }

  /// Is this state predicate (a condition per step, over the configuration and the flow)
  /// reachable from signIn under some valid configuration? `.violated` gives a configuration
  /// with a shortest path to it over all configurations; `.proven`, that none reaches it.
  /// An invariant holds when its bad cases are not reachable.
  func canReach(_ cases: [InvariantConditions.Case], assumption: Z3Term? = nil) throws(Z3Error) -> Answer {
    let initial = model.steps.indices.map { s in context.or(cases.filter { $0.step == s }.map(\.condition)) }
    return try solve(
      initial: initial, assumption: assumption ?? context.bool(true), earliest: true, frontier: true,
      startIsBad: { $0 }
    ) { layer, s in
      var ways: [Z3Term] = []
      for branch in encoding.system.branches where branch.step == s {
        guard let target = branch.target else { continue }
        ways.append(context.and([conditions.enabled(branch, state), after(layer[target], branch)]))
      }
      return context.or(ways)
    }
  }

  /// Does every path from signIn reach done or a restart, under every valid configuration?
  func allPathsEnd() throws(Z3Error) -> Answer {
    let initial = model.steps.map { context.bool($0.isTerminal) }
    return try solve(initial: initial, assumption: context.bool(true), startIsBad: { context.not($0) }) { current, s in
      if model.steps[s].isTerminal { return context.bool(true) }
      let branches = encoding.system.branches.filter { $0.step == s }
      let some = context.or(branches.map { conditions.enabled($0, state) })
      let every = branches.map { branch -> Z3Term in
        guard let target = branch.target else { return context.bool(true) }
        return context.or([context.not(conditions.enabled(branch, state)), after(current[target], branch)])
      }
      return context.and([some] + every)
    }
  }

  /// For every valid configuration where `canSignIn` holds, can done be reached?
  func doneReachable() throws(Z3Error) -> Answer {
    let done = model.steps.indices.filter { model.steps[$0].kind == .signedIn }.map { ($0, context.bool(true)) }
    let initial = model.steps.indices.map { s in context.or(done.filter { $0.0 == s }.map(\.1)) }
    return try solve(
      initial: initial, assumption: encoding.boolTerm(model.canSignIn ?? .true, state), frontier: true,
      startIsBad: { context.not($0) }
    ) { layer, s in
      var ways: [Z3Term] = []
      for branch in encoding.system.branches where branch.step == s {
        guard let target = branch.target else { continue }
        ways.append(context.and([conditions.enabled(branch, state), after(layer[target], branch)]))
      }
      return context.or(ways)
    }
  }
}
