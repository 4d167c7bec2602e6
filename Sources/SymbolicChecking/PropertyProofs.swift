import ModelChecking
import SignInModel
import Z3Kit

/// The model's own properties (`properties:`) on the backward fixpoint, whichever `engine`
/// is chosen: `always`/`never` as the reachability of a state breaking the predicate (the
/// complement is the inductive invariant), `reachable` as the reachability of one satisfying
/// it, `eventually` as the least fixpoint of "every path takes a transition into the
/// predicate" (the technique of `terminates`: a dead end, an end or a cycle avoiding it is
/// not in the set), and `leadsTo` as the reachability of a transition into `from` but not
/// `to` whose target is outside that fixpoint for `to`. Conditions come from
/// `TransitionSystem.propertyChecks`, the same the explicit search evaluates.
extension SymbolicChecker {
  func decideProperty(_ check: PropertyCheck, session: SymbolicSession) throws(Z3Error) -> (
    ProofVerdict, String, String?
  ) {
    let f = BackwardFixpoint(session: session)
    let proofs = PropertyFixpoint(fixpoint: f)
    let method = "backward fixpoint (Z3)"
    func unknown(_ reason: String) -> (ProofVerdict, String, String?) {
      (.unknown(reason: describe(reason)), method, nil)
    }
    switch check.kind {
    case .indistinguishable:
      return (.failed(reason: "an indistinguishable property is checked on its self-composition"), method, nil)
    case .always, .never:
      switch try f.canReach(proofs.cases(check.predicate, holding: false)) {
      case .proven(let n, _): return (.proven, "\(method), \(n) iterations", nil)
      case .violated(let configuration):
        return (replay(check.invariant, configuration, session.encoding.system), method, nil)
      case .unknown(let reason): return unknown(reason)
      }
    case .reachable:
      switch try f.canReach(proofs.cases(check.predicate, holding: true), findsConfiguration: false) {
      case .violated: return (.proven, "\(method): a path reaches it", nil)
      case .unknown(let reason): return unknown(reason)
      case .proven(let n, _):
        return (
          .violated(
            Counterexample(
              invariant: check.invariant, message: PropertyMessages.unreachable(check.property), configuration: [],
              steps: [], loopStartsAt: nil)), "\(method), \(n) iterations", nil
        )
      }
    case .eventually:
      guard case .sets(let good, let n) = try proofs.everyPathReaches(check.predicate) else {
        return unknown("no fixpoint for 'every path reaches'")
      }
      let start = f.context.or([f.encoding.boolTerm(check.predicate.initial, f.state), proofs.atStart(good[0])])
      switch try proofs.startConfiguration(where: f.context.not(start)) {
      case .none: return (.proven, "\(method), \(n) iterations", nil)
      case .some(.some(let configuration)):
        return (replay(check.invariant, configuration, session.encoding.system), method, nil)
      case .some(.none): return unknown("unknown")
      }
    case .leadsTo:
      guard let target = check.target, case .sets(let good, _) = try proofs.everyPathReaches(target) else {
        return unknown("no fixpoint for 'every path reaches'")
      }
      let c = f.context
      var cases: [InvariantConditions.Case] = [
        (
          0,
          c.and([
            proofs.initialFlow, f.encoding.boolTerm(check.predicate.initial, f.state),
            c.not(f.encoding.boolTerm(target.initial, f.state)), c.not(good[0]),
          ])
        )
      ]
      for (b, branch) in f.encoding.system.branches.enumerated() {
        let reaches = branch.target.map { proofs.after(good[$0], branch) } ?? c.bool(false)
        cases.append(
          (
            branch.step,
            c.and([
              f.session.enabled(branch), f.encoding.boolTerm(check.predicate.afterBranch[b], f.state),
              c.not(f.encoding.boolTerm(target.afterBranch[b], f.state)), c.not(reaches),
            ])
          ))
      }
      switch try f.canReach(cases) {
      case .proven(let n, _): return (.proven, "\(method), \(n) iterations", nil)
      case .violated(let configuration):
        return (replay(check.invariant, configuration, session.encoding.system), method, nil)
      case .unknown(let reason): return unknown(reason)
      }
    }
  }
}

/// The fixpoint pieces the model properties need beyond `BackwardFixpoint`'s.
struct PropertyFixpoint {
  enum Sets {
    case sets([Z3Term], iterations: Int)
    case unknown(String)
  }

  let fixpoint: BackwardFixpoint
  var context: Z3Context { fixpoint.context }
  var model: SignInModel { fixpoint.model }
  private var flowConstants: [Z3Term] { fixpoint.session.flowConstants }

  /// The flow at its initial values.
  var initialFlow: Z3Term {
    context.and(model.flowIndices.map { context.equal(fixpoint.state[$0]!, context.int(model.variables[$0].initial)) })
  }

  /// `formula` (over the state at the branch's target) after `branch`, over its pre-state.
  func after(_ formula: Z3Term, _ branch: TransitionSystem.Branch) -> Z3Term {
    context.substitute(formula, flowConstants, fixpoint.session.postFlow(branch))
  }

  /// `formula` at signIn's initial flow.
  func atStart(_ formula: Z3Term) -> Z3Term {
    context.substitute(
      formula, flowConstants, model.flowIndices.map { context.int(model.variables[$0].initial) })
  }

  /// The places where `condition` holds (or does not): at signIn and after every enabled branch.
  func cases(_ condition: PropertyCondition, holding: Bool) -> [InvariantConditions.Case] {
    func term(_ e: Expr) -> Z3Term {
      let t = fixpoint.encoding.boolTerm(e, fixpoint.state)
      return holding ? t : context.not(t)
    }
    var result: [InvariantConditions.Case] = [(0, context.and([initialFlow, term(condition.initial)]))]
    for (b, branch) in fixpoint.encoding.system.branches.enumerated() {
      result.append(
        (
          branch.step,
          context.and([fixpoint.session.enabled(branch), term(condition.afterBranch[b])])
        ))
    }
    return result
  }

  /// Per step, the states from which every maximal path takes a transition after which
  /// `condition` holds: the least fixpoint, so a path that ends (done, a restart, a dead
  /// end) or cycles without it is outside.
  func everyPathReaches(_ condition: PropertyCondition) throws(Z3Error) -> Sets {
    let nothing = [Int](repeating: unassigned, count: model.variables.count)
    let key = condition.afterBranch.map { e in e.evaluatePartially(nothing).map(Expr.constant) ?? e }
    if let known = fixpoint.session.everyPathReachesCache[key] {
      return .sets(known.sets, iterations: known.iterations)
    }
    // A condition that holds after exactly the branches into a terminal step or a restart asks
    // what `terminates` proved: both least fixpoints take the same steps in lockstep (a branch
    // the one counts as reaching the condition, the other counts as ending), so their sets
    // agree on every step that is not terminal, where this one's are empty.
    if let ends = fixpoint.session.allPathsEnd, endsExactly(key) {
      let sets = model.steps.indices.map { model.steps[$0].isTerminal ? context.bool(false) : ends.sets[$0] }
      fixpoint.session.everyPathReachesCache[key] = (sets, ends.iterations)
      return .sets(sets, iterations: ends.iterations)
    }
    let answer = try computeEveryPathReaches(condition)
    if case .sets(let sets, let n) = answer { fixpoint.session.everyPathReachesCache[key] = (sets, n) }
    return answer
  }

  /// Whether `afterBranch` (a condition after each branch, constants folded) is constant and
  /// true exactly after the branches into a terminal step or a restart.
  private func endsExactly(_ afterBranch: [Expr]) -> Bool {
    let branches = fixpoint.encoding.system.branches
    return afterBranch.count == branches.count
      && zip(afterBranch, branches).allSatisfy { condition, branch in
        guard case .constant(let value) = condition else { return false }
        return (value != 0) == (branch.target.map { model.steps[$0].isTerminal } ?? true)
      }
  }

  private func computeEveryPathReaches(_ condition: PropertyCondition) throws(Z3Error) -> Sets {
    let encoding = fixpoint.encoding
    let state = fixpoint.state
    let solver = try Z3Solver(context)
    fixpoint.session.assertValidState(on: solver)
    var current = model.steps.map { _ in context.bool(false) }
    let branches = encoding.system.branches
    let byStep = Dictionary(grouping: branches.indices) { branches[$0].step }
    // What does not change between iterations is encoded once (Z3 shares equal terms, so the
    // formulas are the same as when they were encoded in every iteration).
    let enabled = branches.map { fixpoint.session.enabled($0) }
    let holdsAfter = branches.indices.map { encoding.boolTerm(condition.afterBranch[$0], state) }
    let flow = flowConstants
    let postFlow = branches.map { fixpoint.session.postFlow($0) }
    let results = StepResults(fixpoint.session.targets)
    for iteration in 1...max(1, fixpoint.maxIterations) {
      if let spent = fixpoint.clock.spent(after: iteration - 1) { return .unknown(spent) }
      func make(_ s: Int) -> Z3Term {
        if model.steps[s].isTerminal { return context.bool(false) }
        let indices = byStep[s] ?? []
        let some = context.or(indices.map { enabled[$0] })
        let every = indices.map { b -> Z3Term in
          var ways = [context.not(enabled[b]), holdsAfter[b]]
          if let target = branches[b].target { ways.append(context.substitute(current[target], flow, postFlow[b])) }
          return context.or(ways)
        }
        return fixpoint.tidy(context.and([some] + every))
      }
      let inputs = current
      let next = model.steps.indices.map { s in results.result(s, inputs, in: context) { make(s) } }
      let grew: Z3Result
      if context.sameTerms(next, current) {
        grew = .unsatisfiable  // every set is the term it was: nothing grew
      } else {
        solver.push()
        solver.assert(context.or(model.steps.indices.map { context.and([next[$0], context.not(current[$0])]) }))
        grew = try solver.check()
        solver.pop()
      }
      current = next
      switch grew {
      case .satisfiable: continue
      case .unknown(let reason): return .unknown(reason)
      case .unsatisfiable: return .sets(current, iterations: iteration)
      }
    }
    return .unknown(fixpoint.session.limits.iterationsSpent())
  }

  /// A valid configuration where `condition` (over the configuration) holds: nil when none,
  /// `.some(nil)` when Z3 gives no answer.
  func startConfiguration(where condition: Z3Term) throws(Z3Error) -> [Int]?? {
    let solver = try Z3Solver(context)
    fixpoint.session.assertValidState(on: solver)
    solver.assert(condition)
    switch try solver.check() {
    case .unsatisfiable: return .none
    case .unknown: return .some(nil)
    case .satisfiable:
      return .some(try fixpoint.encoding.firstConfiguration(solver, fixpoint.state))
    }
  }
}
