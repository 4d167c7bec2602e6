import ModelChecking
import SignInModel
import Z3Kit

/// `stepsReachable` by the fixpoint engine: a path to each step under some configuration, or a
/// proof that none reaches it.
extension SymbolicChecker {
  /// The deepest path, in calls, the bounded search unrolls for witnesses. Its queries grow
  /// steeply with the depth: on a chain of 50 code steps (`scripts/big-model.py chain 50`) an
  /// unrolling of 4 calls takes 0.14 s, of 8 calls 1.0 s, of 12 calls 2.9 s, and one of all 52
  /// calls was stopped after 150 s. The shipped models' steps are all within 2 calls of signIn.
  static let witnessDepth = 4
  /// The most states the simulation of one configuration explores for witnesses.
  static let witnessStates = 100_000

  /// Bounded search finds paths to most steps at once (up to `witnessDepth` calls). The steps
  /// it leaves are asked of one backward fixpoint over all of them: when it proves none
  /// reachable, they are the unreachable steps; else the configuration it gives, simulated,
  /// witnesses every step that configuration reaches, and the fixpoint is asked again of the
  /// rest. When the simulation reaches none of them (past `witnessStates`), each step left gets
  /// a fixpoint of its own. One budget (`--property-budget`, and the run's `--z3-budget`) covers all of it.
  /// - Returns: how the steps were shown reachable, the unreachable steps' ids in model order,
  ///   and the reason when a limit or Z3 left the property undecided.
  func decideStepsReachable(session: SymbolicSession) throws(Z3Error) -> (
    method: String, unreachable: [String], unknown: String?
  ) {
    let clock = FixpointLimits.Clock(limits: session.limits)
    let search = BoundedSearch(session: session, maxDepth: min(maxDepth, Self.witnessDepth))
    let searchedPaths = try search.reachableSteps(clock: clock)
    var witnessed = searchedPaths.steps
    let calls = searchedPaths.calls
    let searched = witnessed.count
    var simulated = 0
    var missing = model.steps.indices.filter { !witnessed.contains($0) }
    var unreachable: [Int] = []
    func name(_ steps: [Int]) -> String {
      let ids = steps.prefix(3).map { model.steps[$0].id }.joined(separator: ", ")
      return steps.count > 3 ? "\(ids) and \(steps.count - 3) more steps" : ids
    }
    while !missing.isEmpty {
      let fixpoint = BackwardFixpoint(session: session, clock: clock)
      switch try fixpoint.canReach(missing.map { ($0, session.context.bool(true)) }) {
      case .proven:
        unreachable = missing
        missing = []
      case .unknown(let reason):
        return ("", [], "\(missing.count == 1 ? "step" : "steps") \(name(missing)): \(describe(reason))")
      case .violated(let configuration):
        let reached =
          session.encoding.system.stepsReached(configurationValues: configuration, maxStates: Self.witnessStates) ?? []
        let found = missing.filter { reached.contains($0) }
        if !found.isEmpty {
          simulated += found.count
          witnessed.formUnion(found)
          missing = missing.filter { !reached.contains($0) }
          continue
        }
        // The simulation did not reach what Z3 says the configuration reaches: each step alone.
        for s in missing {
          switch try BackwardFixpoint(session: session, clock: clock).canReach(
            [(s, session.context.bool(true))], findsConfiguration: false)
          {
          case .proven: unreachable.append(s)
          case .violated: witnessed.insert(s)
          case .unknown(let reason): return ("", [], "step \(model.steps[s].id): \(describe(reason))")
          }
        }
        missing = []
      }
    }
    let method =
      simulated == 0 && searched == witnessed.count
      ? "bounded search found a path to each of the \(witnessed.count) steps (Z3)"
      : "bounded search found paths to \(searched) of the \(witnessed.count) reachable steps within "
        + "\(calls) calls, backward fixpoints (Z3) and their configurations' "
        + "simulation the other \(witnessed.count - searched)"
    return (method, unreachable.sorted().map { model.steps[$0].id }, nil)
  }
}
