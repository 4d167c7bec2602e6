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
  /// Z3's deterministic resource limit (`rlimit`) for each context, 0 for none: past it a
  /// solver query (the fixpoint engine, bounded search) answers unknown at the same point on
  /// every machine. Spacer's fixedpoint queries ignore it (Z3 has no `rlimit` for them).
  public let resourceLimit: UInt32
  public let maxDepth: Int

  public init(
    model: SignInModel, engine: Engine = .fixpoint, timeoutMilliseconds: UInt32 = 30_000, maxDepth: Int = 40,
    memoryMegabytes: Int = 4096, resourceLimit: UInt32 = 0
  ) {
    self.model = model
    self.engine = engine
    self.timeoutMilliseconds = timeoutMilliseconds
    self.resourceLimit = resourceLimit
    self.maxDepth = maxDepth
    z3SetGlobalParameter("memory_max_size", String(memoryMegabytes))
  }

  /// Proves `invariants` (nil: the built-ins and the model's own properties, `Invariant.all(for:)`).
  public func prove(invariants: [Invariant]? = nil, explain: Bool = false) -> ProofReport {
    let invariants = invariants ?? Invariant.all(for: model)
    let start = DispatchTime.now()
    let checker = self
    let results = onLargeStack { invariants.map { checker.prove($0, explain: explain) } }
    return ProofReport(model: model, results: results, seconds: elapsed(since: start))
  }

  func elapsed(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }

  func prove(_ invariant: Invariant, explain: Bool) -> ProofResult {
    let start = DispatchTime.now()
    let verdict: ProofVerdict, method: String, explanation: String?
    do {
      (verdict, method, explanation) = try decide(invariant, explain: explain)
    } catch {
      (verdict, method, explanation) = (.failed(reason: error.description), "Z3", nil)
    }
    return ProofResult(invariant: invariant, verdict: verdict, seconds: elapsed(since: start), method: method, explanation: explanation)
  }

  private func decide(_ invariant: Invariant, explain: Bool) throws(Z3Error) -> (ProofVerdict, String, String?) {
    if try !constraintsSatisfiable() {
      return (.vacuous(reason: "no configuration satisfies the constraints"), "Z3 (SMT)", nil)
    }
    if !invariant.isBuiltin {
      guard let check = TransitionSystem(model: model).propertyChecks.first(where: { $0.invariant == invariant }) else {
        return (.failed(reason: "the model states no property '\(invariant.rawValue)'"), "Z3", nil)
      }
      return try decideProperty(check)
    }
    if engine == .fixpoint { return try decideByFixpoint(invariant, explain: explain) }
    switch invariant {
    case .doneReachable:
      let fixpoint = try BackwardFixpoint(
        model: model, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
      switch try fixpoint.doneReachable() {
      case .proven(let n, _): return (.proven, "backward fixpoint, \(n) iterations (Z3 SMT)", nil)
      case .unknown(let reason): return (.unknown(reason: describe(reason)), "backward fixpoint (Z3 SMT)", nil)
      case .violated(let configuration):
        return (replay(invariant, configuration), "backward fixpoint (Z3 SMT)", nil)
      }
    case .stepsReachable:
      var unreachable: [String] = []
      for s in model.steps.indices {
        let problem = try HornProblem(
          model: model, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
        switch try problem.ask(try problem.question([(s, problem.context.bool(true))])) {
        case .unsatisfiable: unreachable.append(model.steps[s].id)
        case .satisfiable: break
        case .unknown(let reason): return (.unknown(reason: "step \(model.steps[s].id): \(describe(reason))"), "Spacer (CHC)", nil)
        }
      }
      if unreachable.isEmpty { return (.proven, "Spacer (CHC), one reachability query per step", nil) }
      return (.violated(Counterexample(
        invariant: .stepsReachable, message: "unreachable under every configuration: " + unreachable.joined(separator: ", "),
        configuration: [], steps: [], loopStartsAt: nil)), "Spacer (CHC)", nil)
    default:
      return try safety(invariant, explain: explain)
    }
  }

  private func safety(_ invariant: Invariant, explain: Bool) throws(Z3Error) -> (ProofVerdict, String, String?) {
    let method = invariant == .terminates ? "Spacer (CHC): dead ends, and cycles via a saved-state copy" : "Spacer (CHC)"
    let problem = try HornProblem(model: model, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
    let conditions = InvariantConditions(encoding: problem.encoding)
    var questions = [try problem.question(conditions.bad(invariant, problem.state))]
    if invariant == .terminates { questions.append(try problem.cycleQuestion()) }
    for (i, question) in questions.enumerated() {
      switch try problem.ask(question) {
      case .satisfiable:
        let cycle = i == 1
        let search = BoundedSearch(
          model: model, maxDepth: maxDepth, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
        guard let configuration = try search.findConfiguration(cases: { cycle ? [] : $0.bad(invariant, $1) }, cycle: cycle) else {
          return (.unknown(reason: "Spacer found a violation but bounded search found no path within \(maxDepth) calls"), method, nil)
        }
        return (replay(invariant, configuration), method, nil)
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
      let cases = InvariantConditions(encoding: witness.encoding).witnesses(invariant, witness.state)
        .first { $0.reason == reason }?.cases ?? []
      switch try witness.ask(try witness.question(cases)) {
      case .unsatisfiable: return (.vacuous(reason: reason), method, explanation)
      case .unknown(let why): return (.unknown(reason: "witness for non-vacuity: \(describe(why))"), method, explanation)
      case .satisfiable: continue
      }
    }
    return (.proven, method, explanation)
  }

  private func decideByFixpoint(_ invariant: Invariant, explain: Bool) throws(Z3Error) -> (ProofVerdict, String, String?) {
    func fresh() throws(Z3Error) -> BackwardFixpoint {
      try BackwardFixpoint(model: model, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
    }
    let method = "backward fixpoint (Z3)"
    func conclude(_ answer: BackwardFixpoint.Answer, _ fixpoint: BackwardFixpoint, negate: Bool) throws(Z3Error) -> (ProofVerdict, String, String?)? {
      switch answer {
      case .violated(let configuration): return (replay(invariant, configuration), method, nil)
      case .unknown(let reason): return (.unknown(reason: describe(reason)), method, nil)
      case .proven(let n, let sets):
        let explanation = explain ? InvariantPrinter(model: model).render(sets, in: fixpoint, negate: negate) : nil
        return invariant == .terminates || invariant == .doneReachable
          ? (.proven, "\(method), \(n) iterations", explanation) : nil
      }
    }
    switch invariant {
    case .terminates:
      let f = try fresh()
      return try conclude(try f.allPathsEnd(), f, negate: false)!
    case .doneReachable:
      let f = try fresh()
      return try conclude(try f.doneReachable(), f, negate: false)!
    case .stepsReachable:
      // Bounded search finds paths to most steps at once; only the others need a proof.
      let search = BoundedSearch(
        model: model, maxDepth: maxDepth, timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
      let witnessed = try search.reachableSteps()
      var unreachable: [String] = []
      for s in model.steps.indices where !witnessed.contains(s) {
        let f = try fresh()
        switch try f.canReach([(s, f.context.bool(true))]) {
        case .proven: unreachable.append(model.steps[s].id)
        case .violated: break
        case .unknown(let reason): return (.unknown(reason: "step \(model.steps[s].id): \(describe(reason))"), method, nil)
        }
      }
      if unreachable.isEmpty {
        return (.proven, "bounded search found a path to each of the \(witnessed.count) steps (Z3)", nil)
      }
      return (.violated(Counterexample(
        invariant: .stepsReachable, message: "unreachable under every configuration: " + unreachable.joined(separator: ", "),
        configuration: [], steps: [], loopStartsAt: nil)), method, nil)
    default:
      let f = try fresh()
      let answer = try f.canReach(f.conditions.bad(invariant, f.state))
      var explanation: String? = nil
      var iterations = 0
      if case .proven(let n, let sets) = answer {
        iterations = n
        explanation = explain ? InvariantPrinter(model: model).render(sets, in: f, negate: true) : nil
      } else if let decided = try conclude(answer, f, negate: true) {
        return decided
      }
      for reason in f.conditions.witnesses(invariant, f.state).map(\.reason) {
        let w = try fresh()
        let cases = w.conditions.witnesses(invariant, w.state).first { $0.reason == reason }?.cases ?? []
        switch try w.canReach(cases) {
        case .proven: return (.vacuous(reason: reason), method, explanation)
        case .unknown(let why): return (.unknown(reason: "witness for non-vacuity: \(describe(why))"), method, explanation)
        case .violated: continue
        }
      }
      return (.proven, "\(method), \(iterations) iterations", explanation)
    }
  }

  /// Z3's reason for an unknown answer, worded for the report.
  func describe(_ reason: String) -> String {
    switch reason {
    case "", "ok", "unknown", "canceled", "timeout":
      let resource = resourceLimit > 0 ? ", the resource limit (rlimit \(resourceLimit) per context)" : ""
      return "Z3 gave no answer within the time limit (\(timeoutMilliseconds / 1000) s per query)\(resource) "
        + "or the memory cap"
    default:
      return "Z3 gave no answer: \(reason)"
    }
  }

  private func constraintsSatisfiable() throws(Z3Error) -> Bool {
    let context = try Z3Context(timeoutMilliseconds: timeoutMilliseconds, resourceLimit: resourceLimit)
    let encoding = Z3Encoding(model: model, context: context)
    let solver = try Z3Solver(context)
    solver.assert(encoding.validConfiguration(encoding.constants(model.configurationIndices)))
    return try solver.check() != .unsatisfiable
  }

  /// Runs the explicit engine on the configuration Z3 found; only a violation it confirms
  /// is reported, with its shortest trace. Anything else means the engines disagree.
  func replay(_ invariant: Invariant, _ configuration: [Int]) -> ProofVerdict {
    let report = ExplicitChecker(model: model, jobs: 1).check(invariants: [invariant], configuration: configuration)
    if case .violated(let counterexample)? = report.results.first?.verdict { return .violated(counterexample) }
    let values = model.configurationIndices.map { "\(model.variables[$0].name) = \(model.variables[$0].domain.render(configuration[$0]))" }
    return .failed(reason: "Z3 reports a violation the explicit engine does not confirm for "
      + values.joined(separator: ", "))
  }
}
