import Dispatch
import ModelChecking
import SignInModel
import Z3Kit

/// The verdict of a proof attempt on one invariant.
public enum ProofVerdict: Sendable, Equatable {
  /// Holds for every configuration and every path length.
  case proven
  case vacuous(reason: String)
  /// Violated; the counterexample was replayed through the explicit semantics.
  case violated(Counterexample)
  /// Z3 gave no answer (time-out, memory cap).
  case unknown(reason: String)
  /// Something went wrong in signin-spec or Z3: Z3 reported an error, or it found a
  /// violation the explicit engine does not confirm (the engines disagree).
  case failed(reason: String)
  /// The model lacks the facts the property reads (`Invariant.missingFacts(in:)`); `acknowledged`
  /// is the reason the model's `lint:` gives, if any.
  case notChecked(reason: String, acknowledged: String?)
}

/// One invariant's proof attempt.
public struct ProofResult: Sendable {
  public let invariant: Invariant
  public let verdict: ProofVerdict
  public let seconds: Double
  /// How it was decided, for the report ("Spacer (CHC)", …).
  public let method: String
  /// For proven safety invariants: Spacer's inductive invariant, in the model's terms.
  public let explanation: String?
}

/// Everything the symbolic checker found on one model.
public struct ProofReport: Sendable {
  public let model: SignInModel
  public let results: [ProofResult]
  public let seconds: Double
}

/// Proves invariants for all configurations and all path lengths with Z3: safety
/// invariants and reachability as constrained Horn clauses solved by Spacer, `terminates`
/// as dead-end freedom plus cycle freedom (liveness reduced to safety by a saved-state
/// copy), and `doneReachable` by a backward fixpoint. A violation found by Z3 is made
/// concrete by bounded search and replayed through the explicit engine before it is shown.
public struct SymbolicChecker: Sendable {
  /// How the proofs are found; both are unbounded and read the same encoding.
  public enum Engine: String, Sendable, CaseIterable {
    /// Backward least fixpoints over per-step formulas (the default: fastest here).
    case fixpoint
    /// Spacer on constrained Horn clauses, with bounded search for counterexamples.
    case spacer
  }

  public let model: SignInModel
  public let engine: Engine
  public let timeoutMilliseconds: UInt32
  /// Z3's deterministic resource limit (`rlimit`) for each solver query, 0 for none (Z3 applies
  /// a context's `rlimit` afresh to each check): past it a query of the fixpoint engine or
  /// bounded search answers unknown at the same point on every machine. Spacer's fixedpoint
  /// queries ignore it.
  public let resourceLimit: UInt32
  public let maxDepth: Int
  /// Z3's memory cap, in MiB (a global Z3 parameter, set when a checker is made).
  public let memoryMegabytes: Int
  /// Bounds on each fixpoint: iterations (deterministic) and a per-property time budget.
  public var limits = FixpointLimits()
  /// Told which property (or group) is being proven, before each; for a progress line.
  public var progress: (@Sendable (String) -> Void)?

  public init(
    model: SignInModel, engine: Engine = .fixpoint, timeoutMilliseconds: UInt32 = 30_000, maxDepth: Int = 40,
    memoryMegabytes: Int = 4096, resourceLimit: UInt32 = 0
  ) {
    self.model = model
    self.engine = engine
    self.timeoutMilliseconds = timeoutMilliseconds
    self.resourceLimit = resourceLimit
    self.maxDepth = maxDepth
    self.memoryMegabytes = memoryMegabytes
    z3SetGlobalParameter("memory_max_size", String(memoryMegabytes))
  }

  /// The same settings for another model (a self-composition), without setting Z3's global
  /// memory cap again: the checker may run beside others on other threads.
  init(_ other: SymbolicChecker, model: SignInModel) {
    self.model = model
    engine = other.engine
    timeoutMilliseconds = other.timeoutMilliseconds
    resourceLimit = other.resourceLimit
    maxDepth = other.maxDepth
    memoryMegabytes = other.memoryMegabytes
    limits = other.limits
  }

  /// Proves `invariants` (nil: the built-ins and the model's own properties, `Invariant.all(for:)`).
  public func prove(invariants: [Invariant]? = nil, explain: Bool = false) -> ProofReport {
    let invariants = invariants ?? Invariant.all(for: model)
    let start = DispatchTime.now()
    let checker = self
    let results = onLargeStack { checker.proveAll(invariants, explain: explain) }
    return ProofReport(model: model, results: results, seconds: elapsed(since: start))
  }

  func elapsed(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }

  /// The safety properties the fixpoint engine decides as "no bad case is reachable".
  static func isSafety(_ invariant: Invariant) -> Bool {
    invariant.isBuiltin && ![.terminates, .doneReachable, .stepsReachable].contains(invariant)
  }

  /// The time the one fixpoint shared by the safety properties may take (at most the property
  /// budget): it only saves time, so past it each property gets its own fixpoint. On a 200-state
  /// chain the shared one did not finish in an hour while each property alone takes seconds.
  public static let sharedFixpointSeconds = 10.0
  /// The most iterations the shared fixpoint may take (deterministic, unlike its time): the
  /// shipped models' takes 3, and with this cap `prove`'s text of them, 156 mutants and the
  /// examples is unchanged; on a chain of 50 code steps it took 40 iterations in its 10 s (the
  /// union's formulas grow with the chain) while each property alone took its 50 in 0.3 s.
  /// Past it each property gets its own fixpoint.
  static let sharedFixpointIterations = 16

  /// One session (context, encoding) for the whole model; with the fixpoint engine and no
  /// `explain`, one fixpoint over the union of the safety properties' bad cases first: when
  /// no valid start reaches any of them, each is proven (its witnesses are still asked one by
  /// one); otherwise each property gets its own fixpoint, and its own shortest counterexample.
  func proveAll(_ invariants: [Invariant], explain: Bool) -> [ProofResult] {
    let system = TransitionSystem(model: model)
    if limits.maxBranches > 0, system.branches.count > limits.maxBranches {
      let reason =
        "the model has \(system.branches.count) transition branches, more than the \(limits.maxBranches) Z3 is given "
        + "(--z3-max-branches \(limits.maxBranches); raise it to try, with --z3-budget bounding the time)"
      return invariants.map {
        ProofResult(invariant: $0, verdict: .unknown(reason: reason), seconds: 0, method: "Z3", explanation: nil)
      }
    }
    let session: SymbolicSession
    do throws(Z3Error) {
      session = try SymbolicSession(
        model: model, system: system, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
      session.limits = limits
      if limits.runBudgetSeconds > 0 {
        session.limits.deadline = DispatchTime.now().uptimeNanoseconds + UInt64(limits.runBudgetSeconds * 1e9)
      }
    } catch {
      return invariants.map {
        ProofResult(
          invariant: $0, verdict: .failed(reason: error.description), seconds: 0, method: "Z3", explanation: nil)
      }
    }
    var shared: (iterations: Int, seconds: Double, count: Int)?
    let safety = invariants.filter(Self.isSafety)
    if engine == .fixpoint, !explain, safety.count > 1, (try? session.constraintsSatisfiable()) == true {
      let budget = limits.budgetSeconds > 0 ? limits.budgetSeconds : .infinity
      let runLimits = session.limits
      session.limits.budgetSeconds = min(budget, Self.sharedFixpointSeconds)
      session.limits.maxIterations = min(session.limits.maxIterations, Self.sharedFixpointIterations)
      defer { session.limits = runLimits }
      let start = DispatchTime.now()
      progress?("\(safety.count) safety properties in one fixpoint")
      let fixpoint = BackwardFixpoint(session: session)
      let bad = safety.flatMap { session.conditions.bad($0, session.state) }
      if case .proven(let n, _)? = try? fixpoint.canReach(bad, findsConfiguration: false) {
        shared = (n, elapsed(since: start), safety.count)
      }
    }
    return invariants.map { invariant in
      let start = DispatchTime.now()
      progress?(invariant.rawValue)
      var verdict: ProofVerdict
      let method: String
      let explanation: String?
      do throws(Z3Error) {
        let sharedProof = Self.isSafety(invariant) ? shared : nil
        if let spent = session.limits.runSpent() {
          (verdict, method, explanation) = (.unknown(reason: spent), "Z3", nil)
        } else {
          (verdict, method, explanation) = try decide(
            invariant, session: session, explain: explain, shared: sharedProof)
        }
      } catch {
        (verdict, method, explanation) = (.failed(reason: error.description), "Z3", nil)
      }
      if let reason = invariant.missingFacts(in: model) {
        switch verdict {
        case .proven, .vacuous:
          verdict = .notChecked(reason: reason, acknowledged: invariant.acknowledgement(in: model))
        default: break
        }
      }
      // The shared fixpoint's time is split evenly between the properties it proved.
      let seconds =
        elapsed(since: start) + (Self.isSafety(invariant) ? (shared.map { $0.seconds / Double($0.count) } ?? 0) : 0)
      return ProofResult(
        invariant: invariant, verdict: verdict, seconds: seconds, method: method, explanation: explanation)
    }
  }

  private func decide(
    _ invariant: Invariant, session: SymbolicSession, explain: Bool,
    shared: (iterations: Int, seconds: Double, count: Int)?
  ) throws(Z3Error) -> (ProofVerdict, String, String?) {
    if try !session.constraintsSatisfiable() {
      return (.vacuous(reason: "no configuration satisfies the constraints"), "Z3 (SMT)", nil)
    }
    if let property = invariant.property(in: model), property.kind == .indistinguishable {
      return decideIndistinguishable(property, system: session.encoding.system)
    }
    if invariant == .doneReachable, try !session.someoneCanSignIn() {
      return (.vacuous(reason: Invariant.nobodyCanSignIn), "Z3 (SMT)", nil)
    }
    if !invariant.isBuiltin {
      guard let check = session.encoding.system.propertyChecks.first(where: { $0.invariant == invariant }) else {
        return (.failed(reason: "the model states no property '\(invariant.rawValue)'"), "Z3", nil)
      }
      return try decideProperty(check, session: session)
    }
    if engine == .fixpoint {
      return try decideByFixpoint(invariant, session: session, explain: explain, shared: shared)
    }
    switch invariant {
    case .doneReachable:
      let fixpoint = BackwardFixpoint(session: session)
      switch try fixpoint.doneReachable() {
      case .proven(let n, _): return (.proven, "backward fixpoint, \(n) iterations (Z3 SMT)", nil)
      case .unknown(let reason): return (.unknown(reason: describe(reason)), "backward fixpoint (Z3 SMT)", nil)
      case .violated(let configuration):
        return (replay(invariant, configuration, session.encoding.system), "backward fixpoint (Z3 SMT)", nil)
      }
    case .stepsReachable:
      var unreachable: [String] = []
      for s in model.steps.indices {
        let problem = try HornProblem(
          model: model, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
        switch try problem.ask(try problem.question([(s, problem.context.bool(true))])) {
        case .unsatisfiable: unreachable.append(model.steps[s].id)
        case .satisfiable: break
        case .unknown(let reason):
          return (.unknown(reason: "step \(model.steps[s].id): \(describe(reason))"), "Spacer (CHC)", nil)
        }
      }
      if unreachable.isEmpty { return (.proven, "Spacer (CHC), one reachability query per step", nil) }
      return (
        .violated(
          Counterexample(
            invariant: .stepsReachable,
            message: "unreachable under every configuration: " + unreachable.joined(separator: ", "),
            configuration: [], steps: [], loopStartsAt: nil)), "Spacer (CHC)", nil
      )
    default:
      return try safety(invariant, session: session, explain: explain)
    }
  }

  private func safety(_ invariant: Invariant, session: SymbolicSession, explain: Bool) throws(Z3Error) -> (
    ProofVerdict, String, String?
  ) {
    let method =
      invariant == .terminates ? "Spacer (CHC): dead ends, and cycles via a saved-state copy" : "Spacer (CHC)"
    let problem = try HornProblem(
      model: model, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit, explains: explain)
    let conditions = InvariantConditions(encoding: problem.encoding)
    var questions = [try problem.question(conditions.bad(invariant, problem.state))]
    if invariant == .terminates { questions.append(try problem.cycleQuestion()) }
    for (i, question) in questions.enumerated() {
      switch try problem.ask(question) {
      case .satisfiable:
        let cycle = i == 1
        var search = BoundedSearch(
          model: model, maxDepth: maxDepth, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
        search.workLimit = limits.searchWorkLimit
        switch try search.findConfiguration(
          cases: { cycle ? [] : $0.bad(invariant, $1) }, cycle: cycle,
          clock: FixpointLimits.Clock(limits: session.limits))
        {
        case .found(let configuration): return (replay(invariant, configuration, session.encoding.system), method, nil)
        case .stopped(let why):
          return (.unknown(reason: "Spacer found a violation but bounded search found no path: \(why)"), method, nil)
        }
      case .unknown(let reason):
        return (.unknown(reason: describe(reason)), method, nil)
      case .unsatisfiable:
        continue
      }
    }
    let explanation = explain ? InvariantPrinter(model: model).render(problem) : nil
    // Non-vacuity: each witness must be reachable (a fresh problem per question).
    for reason in conditions.witnesses(invariant, problem.state).map(\.reason) {
      let witness = try HornProblem(
        model: model, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
      let cases =
        InvariantConditions(encoding: witness.encoding).witnesses(invariant, witness.state)
        .first { $0.reason == reason }?.cases ?? []
      switch try witness.ask(try witness.question(cases)) {
      case .unsatisfiable: return (.vacuous(reason: reason), method, explanation)
      case .unknown(let why):
        return (.unknown(reason: "witness for non-vacuity: \(describe(why))"), method, explanation)
      case .satisfiable: continue
      }
    }
    return (.proven, method, explanation)
  }

  private func decideByFixpoint(
    _ invariant: Invariant, session: SymbolicSession, explain: Bool,
    shared: (iterations: Int, seconds: Double, count: Int)?
  ) throws(Z3Error) -> (ProofVerdict, String, String?) {
    let method = "backward fixpoint (Z3)"
    let system = session.encoding.system
    switch invariant {
    case .terminates:
      let f = BackwardFixpoint(session: session)
      switch try f.allPathsEnd() {
      case .unknown(let reason): return (.unknown(reason: describe(reason)), method, nil)
      case .proven(let n, let sets):
        session.allPathsEnd = (sets, n)
        let explanation = explain ? InvariantPrinter(model: model).render(sets, in: f, negate: false) : nil
        return (.proven, "\(method), \(n) iterations", explanation)
      case .violated(let configuration):
        // The fixpoint's configuration is any one; bounded search finds one with a shortest
        // dead end or cycle over all configurations (within --max-depth calls and its work limit).
        let search = BoundedSearch(session: session, maxDepth: maxDepth)
        switch try search.findConfiguration(cases: { $0.bad(.terminates, $1) }, cycle: true, clock: f.clock) {
        case .found(let shortest): return (replay(invariant, shortest, system), method, nil)
        case .stopped: return (replay(invariant, configuration, system), method, nil)
        }
      }
    case .doneReachable:
      let f = BackwardFixpoint(session: session)
      switch try f.doneReachable() {
      case .violated(let configuration): return (replay(invariant, configuration, system), method, nil)
      case .unknown(let reason): return (.unknown(reason: describe(reason)), method, nil)
      case .proven(let n, let sets):
        let explanation = explain ? InvariantPrinter(model: model).render(sets, in: f, negate: false) : nil
        return (.proven, "\(method), \(n) iterations", explanation)
      }
    case .stepsReachable:
      let (proof, unreachable, unknown) = try decideStepsReachable(session: session)
      if let unknown { return (.unknown(reason: unknown), method, nil) }
      if unreachable.isEmpty { return (.proven, proof, nil) }
      return (
        .violated(
          Counterexample(
            invariant: .stepsReachable,
            message: "unreachable under every configuration: " + unreachable.joined(separator: ", "),
            configuration: [], steps: [], loopStartsAt: nil)), method, nil
      )
    default:
      var explanation: String? = nil
      var proof: String
      if let shared {
        proof = "\(method), \(shared.iterations) iterations, one fixpoint for \(shared.count) properties"
      } else {
        let f = BackwardFixpoint(session: session)
        switch try f.canReach(session.conditions.bad(invariant, session.state)) {
        case .violated(let configuration): return (replay(invariant, configuration, system), method, nil)
        case .unknown(let reason): return (.unknown(reason: describe(reason)), method, nil)
        case .proven(let n, let sets):
          proof = "\(method), \(n) iterations"
          explanation = explain ? InvariantPrinter(model: model).render(sets, in: f, negate: true) : nil
        }
      }
      for (cases, reason) in session.conditions.witnesses(invariant, session.state) {
        switch try BackwardFixpoint(session: session).canReach(cases, findsConfiguration: false) {
        case .proven: return (.vacuous(reason: reason), method, explanation)
        case .unknown(let why):
          return (.unknown(reason: "witness for non-vacuity: \(describe(why))"), method, explanation)
        case .violated: continue
        }
      }
      return (.proven, proof, explanation)
    }
  }

  /// Z3's reason for an unknown answer, worded for the report.
  func describe(_ reason: String) -> String {
    if FixpointLimits.isLimit(reason) { return reason }
    switch reason {
    case "", "ok", "unknown", "canceled", "timeout":
      let resource = resourceLimit > 0 ? ", the resource limit (--rlimit \(resourceLimit) per query)" : ""
      return "Z3 gave no answer within the time limit (\(timeoutMilliseconds / 1000) s per query)\(resource) "
        + "or the memory cap"
    case _ where resourceLimit > 0 && reason.contains("resource limit"):
      return "Z3 gave no answer within the resource limit (--rlimit \(resourceLimit) per query)"
    default:
      return "Z3 gave no answer: \(reason)"
    }
  }

  /// Runs the explicit engine on the configuration Z3 found; only a violation it confirms
  /// is reported, with its shortest trace. Anything else means the engines disagree.
  /// Configuration variables whose value does not change the trace are shown as "any":
  /// each is flipped to every other value its domain and the constraints allow, and the
  /// explicit engine must find the very same trace under each.
  func replay(_ invariant: Invariant, _ configuration: [Int], _ system: TransitionSystem) -> ProofVerdict {
    let checker = ExplicitChecker(system: system, jobs: 1)
    func trace(_ values: [Int]) -> Counterexample? {
      let report = checker.check(invariants: [invariant], configuration: values)
      if case .violated(let counterexample)? = report.results.first?.verdict { return counterexample }
      return nil
    }
    guard let found = trace(configuration) else {
      let values = model.configurationIndices.map {
        "\(model.variables[$0].name) = \(model.variables[$0].domain.render(configuration[$0]))"
      }
      return .failed(
        reason: "Z3 reports a violation the explicit engine does not confirm for "
          + values.joined(separator: ", "))
    }
    var shown = found.configuration
    for i in model.configurationIndices where i < shown.count {
      let matters = model.variables[i].domain.values.contains { value in
        guard value != configuration[i] else { return false }
        var flipped = configuration
        flipped[i] = value
        guard model.constraints.allSatisfy({ $0.expr.evaluatePartially(flipped) != 0 }) else { return false }
        return trace(flipped)?.steps != found.steps
      }
      if !matters { shown[i] = Assignment(variable: model.variables[i].name, value: nil) }
    }
    // One flip at a time misses a variable whose other values the constraints allow only
    // together with another freed variable's (pool.mfa = off needs no device suppression):
    // the freed variables are checked together by the explicit engine over every
    // configuration they span. Its trace's own configuration then names the variables that
    // trace reads; where the trace differs, every variable keeps Z3's value.
    let freed = model.configurationIndices.filter { $0 < shown.count && shown[$0].value == nil }
    if !freed.isEmpty {
      var partial = configuration
      for i in freed { partial[i] = unassigned }
      if let joint = trace(partial), joint.steps == found.steps {
        // By name, in the order `found` lists them (the search may list them in another order).
        var jointValues: [String: String?] = [:]
        for a in joint.configuration { jointValues[a.variable] = a.value }
        shown = found.configuration.map { a in
          Assignment(variable: a.variable, value: jointValues[a.variable] ?? a.value)
        }
      } else {
        shown = found.configuration
      }
    }
    return .violated(
      Counterexample(
        invariant: found.invariant, message: found.message, configuration: shown, steps: found.steps,
        loopStartsAt: found.loopStartsAt))
  }
}
