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
  /// Started when the fixpoint is made (each fixpoint its own budget), or the one passed to
  /// `init(session:clock:)` (one property's fixpoints sharing one).
  let clock: FixpointLimits.Clock
  /// `tidy`'s equality propagation results, shared by this fixpoint's iterations.
  let propagation = PropagationMemo()

  var model: SignInModel { session.model }
  var context: Z3Context { session.context }
  var encoding: Z3Encoding { session.encoding }
  var conditions: InvariantConditions { session.conditions }
  var state: [Int: Z3Term] { session.state }

  /// A fixpoint over the session's shared context and encoding, with its own budget, or the
  /// budget `clock` keeps (one property's several fixpoints sharing one).
  init(session: SymbolicSession, clock: FixpointLimits.Clock? = nil) {
    self.session = session
    self.maxIterations = session.limits.maxIterations
    self.clock = clock ?? FixpointLimits.Clock(limits: session.limits)
  }

  private var flowConstants: [Z3Term] { session.flowConstants }

  /// `formula` (over the state at the branch's target) after `branch`, over its pre-state;
  /// `memo` shares the substitution between branches with the same effects in one iteration.
  private func after(_ formula: Z3Term, _ branch: TransitionSystem.Branch, _ memo: Substitutions) -> Z3Term {
    memo.substitute(formula, flowConstants, session.postFlow(branch), in: context)
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
    findsConfiguration: Bool = true,
    startIsBad: (Z3Term) -> Z3Term, update: ([Z3Term], Int, Substitutions) -> Z3Term
  ) throws(Z3Error) -> Answer {
    let solver = try Z3Solver(context)
    session.assertValidState(on: solver)
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
        guard findsConfiguration else { return .violated(configuration: []) }
        return .violated(configuration: try encoding.firstConfiguration(solver, state))
      }
    }
    var current = initial
    var layer = initial
    if earliest, let answer = try badStart(current) { return answer }
    // With `frontier`, the sets only grow: a second solver keeps "not yet in the set" for each
    // step as assertions added once per layer (`selector` names the step), so a check costs
    // one layer, not the whole set (on a 200-state chain the sets hold 200 layers). It is the
    // session's (`SymbolicSession.growthSolver`), its assertions in a scope of this fixpoint's.
    let growth = frontier ? try session.growthSolver() : nil
    growth?.push()
    defer { growth?.pop() }
    let selector = context.intConstant("fixpoint step")
    func exclude(_ sets: [Z3Term], on growth: Z3Solver) {
      for s in model.steps.indices {
        growth.assert(context.implies(context.equal(selector, context.int(s)), context.not(sets[s])))
      }
    }
    if let growth { exclude(initial, on: growth) }
    // A step's new set reads only its branches' targets' sets: where those are the very terms
    // of the last iteration, so is its result (Z3 shares equal terms, and `update` and `tidy`
    // are deterministic), and it is not made again.
    let steps = StepResults(session.targets)
    for iteration in 1...max(1, maxIterations) {
      if let spent = clock.spent(after: iteration - 1) { return .unknown(spent) }
      var added: [Z3Term] = []
      let memo = Substitutions()
      let inputs = frontier ? layer : current
      for s in model.steps.indices {
        added.append(steps.result(s, inputs, in: context) { tidy(update(inputs, s, memo)) })
        if let spent = clock.spent(after: iteration - 1) { return .unknown(spent) }
      }
      let grew: Z3Result
      if !frontier, context.sameTerms(added, current) {
        grew = .unsatisfiable  // every set is the term it was: nothing grew
      } else if let growth {
        // Popped on every way out: the session's later fixpoints share the solver.
        grew = try { () throws(Z3Error) -> Z3Result in
          growth.push()
          defer { growth.pop() }
          growth.assert(
            context.or(model.steps.indices.map { context.and([context.equal(selector, context.int($0)), added[$0]]) }))
          return try growth.check()
        }()
        exclude(added, on: growth)
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
    context.propagatingEqualities(context.simplify(formula), memo: propagation)
  }

  /// Is this state predicate (a condition per step, over the configuration and the flow)
  /// reachable from signIn under some valid configuration? `.violated` gives a configuration
  /// with a shortest path to it over all configurations; `.proven`, that none reaches it.
  /// An invariant holds when its bad cases are not reachable. Without `findsConfiguration`,
  /// `.violated` carries no configuration (a witness, a `reachable` property: only whether
  /// some start reaches the cases is asked, and the first configuration takes a query per
  /// variable).
  func canReach(
    _ cases: [InvariantConditions.Case], assumption: Z3Term? = nil, findsConfiguration: Bool = true
  ) throws(Z3Error) -> Answer {
    let initial = model.steps.indices.map { s in context.or(cases.filter { $0.step == s }.map(\.condition)) }
    return try solve(
      initial: initial, assumption: assumption ?? context.bool(true), earliest: true, frontier: true,
      findsConfiguration: findsConfiguration, startIsBad: { $0 }
    ) { layer, s, memo in
      var ways: [Z3Term] = []
      for branch in encoding.system.branches(from: s) {
        guard let target = branch.target else { continue }
        ways.append(context.and([session.enabled(branch), after(layer[target], branch, memo)]))
      }
      return context.or(ways)
    }
  }

  /// Does every path from signIn reach done or a restart, under every valid configuration?
  func allPathsEnd() throws(Z3Error) -> Answer {
    let initial = model.steps.map { context.bool($0.isTerminal) }
    return try solve(initial: initial, assumption: context.bool(true), startIsBad: { context.not($0) }) {
      current, s, memo in
      if model.steps[s].isTerminal { return context.bool(true) }
      let branches = encoding.system.branches(from: s)
      let some = context.or(branches.map { session.enabled($0) })
      let every = branches.map { branch -> Z3Term in
        guard let target = branch.target else { return context.bool(true) }
        return context.or([context.not(session.enabled(branch)), after(current[target], branch, memo)])
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
    ) { layer, s, memo in
      var ways: [Z3Term] = []
      for branch in encoding.system.branches(from: s) {
        guard let target = branch.target else { continue }
        ways.append(context.and([session.enabled(branch), after(layer[target], branch, memo)]))
      }
      return context.or(ways)
    }
  }
}

/// Substitutions of one fixpoint iteration, by formula and replacement: branches with the same
/// target and the same effects ask the same one (the terms are kept, so their ids stay theirs).
final class Substitutions {
  private struct Key: Hashable {
    let formula: UInt32
    let replacements: [UInt32]
  }
  private var done: [Key: (formula: Z3Term, result: Z3Term)] = [:]

  func substitute(_ formula: Z3Term, _ from: [Z3Term], _ to: [Z3Term], in context: Z3Context) -> Z3Term {
    let key = Key(formula: context.id(of: formula), replacements: to.map { context.id(of: $0) })
    if let known = done[key] { return known.result }
    let result = context.substitute(formula, from, to)
    done[key] = (formula, result)
    return result
  }
}

/// Each step's last result and the sets it was made from (kept, so their ids stay theirs).
final class StepResults {
  private let targets: [[Int]]
  private var last: [(inputs: [Z3Term], result: Z3Term)?]

  /// `targets[s]`: the steps whose sets step `s`'s result reads.
  init(_ targets: [[Int]]) {
    self.targets = targets
    last = Array(repeating: nil, count: targets.count)
  }

  /// Step `s`'s result for `sets`: the last one when its targets' sets are the same terms,
  /// else `make()`.
  func result(_ s: Int, _ sets: [Z3Term], in context: Z3Context, make: () -> Z3Term) -> Z3Term {
    let inputs = targets[s].map { sets[$0] }
    if let last = last[s], context.sameTerms(last.inputs, inputs) { return last.result }
    let result = make()
    last[s] = (inputs, result)
    return result
  }
}
