import ModelChecking
import SignInModel
import Z3Kit

/// One Z3 context and one encoding of a model, shared by every question `prove` asks about
/// it: making a context, flattening the rules into a `TransitionSystem` and translating the
/// constraints happen once per model, not once per property or witness.
///
/// The questions, for properties to build on:
/// - `BackwardFixpoint(session:).canReach(cases)`: is a state predicate (cases per step)
///   reachable from signIn under some valid configuration? An invariant holds when its bad
///   cases are not.
/// - `BoundedSearch(session:…)`: the shortest path to such cases, over all configurations.
final class SymbolicSession {
  let model: SignInModel
  let context: Z3Context
  let encoding: Z3Encoding
  let conditions: InvariantConditions
  /// Configuration and flow constants: the pre-state every case is written over.
  let state: [Int: Z3Term]
  let timeoutMilliseconds: UInt32
  let resourceLimit: UInt32
  /// Bounds on each fixpoint (iterations, a per-property time budget).
  var limits = FixpointLimits()
  private var satisfiable: Bool?
  /// `PropertyFixpoint.everyPathReaches`' answers in this session, by the condition after each
  /// branch with what it decides alone folded to a constant: two properties whose targets say
  /// the same after every branch (`everyFlowEnds` and `smsCodeLeadsToEnd` in the 2026 model)
  /// share one fixpoint.
  var everyPathReachesCache: [[Expr]: (sets: [Z3Term], iterations: Int)] = [:]
  /// `BackwardFixpoint.allPathsEnd`'s sets and iterations once `terminates` is proven: the sets
  /// of `everyPathReaches` for a condition that holds after exactly the branches into a terminal
  /// step or a restart are the same on every other step, so that fixpoint is not run again
  /// (`PropertyFixpoint.everyPathReaches`).
  var allPathsEnd: (sets: [Z3Term], iterations: Int)?

  /// Per branch (by identity): whether it can be taken and the flow after it, over `state`;
  /// encoded once per session instead of once per fixpoint iteration and property.
  private var branchTerms: [ObjectIdentifier: (enabled: Z3Term, post: [Z3Term])] = [:]

  private func terms(of branch: TransitionSystem.Branch) -> (enabled: Z3Term, post: [Z3Term]) {
    if let known = branchTerms[ObjectIdentifier(branch)] { return known }
    let post = encoding.postFlow(branch, state)
    let terms = (conditions.enabled(branch, state), model.flowIndices.map { post[$0]! })
    branchTerms[ObjectIdentifier(branch)] = terms
    return terms
  }

  /// `InvariantConditions.enabled(branch, state)`, encoded once.
  func enabled(_ branch: TransitionSystem.Branch) -> Z3Term { terms(of: branch).enabled }

  /// The flow variables after `branch` over `state`, in `model.flowIndices` order, encoded once.
  func postFlow(_ branch: TransitionSystem.Branch) -> [Z3Term] { terms(of: branch).post }

  /// Per step, the steps its branches lead to (each once, in order).
  private(set) lazy var targets: [[Int]] = model.steps.indices.map { s in
    var seen = Set<Int>()
    return encoding.system.branches(from: s).compactMap(\.target).filter { seen.insert($0).inserted }
  }

  /// The flow constants of `state`, in `model.flowIndices` order.
  private(set) lazy var flowConstants: [Z3Term] = model.flowIndices.map { state[$0]! }

  init(model: SignInModel, system: TransitionSystem, timeoutMilliseconds: UInt32, resourceLimit: UInt32) throws(Z3Error)
  {
    self.model = model
    self.timeoutMilliseconds = timeoutMilliseconds
    self.resourceLimit = resourceLimit
    context = try Z3Context(timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
    encoding = Z3Encoding(model: model, system: system, context: context)
    conditions = InvariantConditions(encoding: encoding)
    state = encoding.constants(model.configurationIndices).merging(encoding.constants(model.flowIndices)) { a, _ in a }
  }

  private var growth: Z3Solver?

  /// The incremental solver the "can reach" fixpoints check their growth on, made once per
  /// session with the domains and the constraints asserted; each fixpoint asserts its layers in
  /// a scope of its own (push, pop). Z3's incremental core costs about 10 ms to set up at its
  /// first check, more than the checks of a fixpoint on the shipped models take together.
  func growthSolver() throws(Z3Error) -> Z3Solver {
    if let growth { return growth }
    let solver = try Z3Solver(context, incremental: true)
    assertValidState(on: solver)
    growth = solver
    return solver
  }

  /// Asserts on `solver` that `state` lies in every variable's domain and its configuration
  /// satisfies the constraints: what every fixpoint's solvers start from.
  func assertValidState(on solver: Z3Solver) {
    solver.assert(context.and(model.variables.indices.map { encoding.inDomain($0, state[$0]!) }))
    solver.assert(encoding.validConfiguration(state))
  }

  /// Does some valid configuration's user sign in (`canSignIn`)? True for a model without it.
  func someoneCanSignIn() throws(Z3Error) -> Bool {
    guard let canSignIn = model.canSignIn else { return true }
    let solver = try Z3Solver(context)
    solver.assert(encoding.validConfiguration(state))
    solver.assert(encoding.boolTerm(canSignIn, state))
    return try solver.check() != .unsatisfiable
  }

  /// Does some configuration satisfy the domains and every constraint? Asked once.
  func constraintsSatisfiable() throws(Z3Error) -> Bool {
    if let satisfiable { return satisfiable }
    let solver = try Z3Solver(context)
    solver.assert(encoding.validConfiguration(state))
    let answer = try solver.check() != .unsatisfiable
    satisfiable = answer
    return answer
  }
}
