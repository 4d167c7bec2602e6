import ModelChecking
import SignInModel

/// Where a step sits in the flow, derived from the model's transitions (never from step ids):
///
/// - `entry`: the `signIn` call.
/// - `terminal`: a step that ends the flow (`ends: signedIn` or `ends: restart`).
/// - `firstFactor`: a step with a transition that verifies the first factor, or one the flow
///   can reach while `flow.firstFactorVerified` is still false.
/// - `mfa`: after the first factor, a step with a transition that verifies MFA, or one from
///   which every way to a signed-in step verifies MFA first (selection and MFA setup steps).
/// - `setup`: the other steps after the first factor (e.g. choosing a new password), from
///   which the flow can sign in without an MFA factor.
public enum StepPhase: String, CaseIterable, Sendable {
  case entry, firstFactor, mfa, setup, terminal

  /// The group's title in a diagram.
  public var title: String {
    switch self {
    case .entry: return "start"
    case .firstFactor: return "first factor"
    case .mfa: return "MFA"
    case .setup: return "setup"
    case .terminal: return "terminal"
    }
  }

  /// The phase of every step of the model, indexed like `model.steps`.
  ///
  /// The abstract states are explored once, and their edges kept: whether a state can sign in
  /// without verifying MFA is one backward search over them, and each step's branches are read
  /// from its own range. Linear in the states and branches (a search per state, and every
  /// branch scanned per state, made a 4,000-step chain take minutes).
  public static func phases(of system: TransitionSystem) -> [StepPhase] {
    let model = system.model
    let ff = model.builtins.firstFactorVerified
    let mfa = model.builtins.mfaVerified
    // Abstract states: (step, first factor verified, MFA verified); guards are evaluated with
    // only these two bits known, so a guard that reads anything else stays possible.
    struct State: Hashable { let step: Int, ff: Int, mfa: Int }
    var values = [Int](repeating: unassigned, count: model.variables.count)
    func successors(_ state: State) -> [(State, verifiesMFA: Bool)] {
      var result: [(State, Bool)] = []
      values[ff] = state.ff
      values[mfa] = state.mfa
      for branch in system.branches(from: state.step) {
        if branch.guardExpr.evaluatePartially(values) == 0 { continue }
        guard let target = branch.target else { continue }
        func next(_ variable: Int, _ current: Int) -> [Int] {
          guard let effect = branch.effects[variable] else { return [current] }
          return effect.evaluatePartially(values).map { [$0] } ?? [0, 1]
        }
        for f in next(ff, state.ff) {
          for m in next(mfa, state.mfa) {
            result.append((State(step: target, ff: f, mfa: m), m != 0 && state.mfa == 0))
          }
        }
      }
      return result
    }
    // Every state reachable from signIn, numbered, with its edges (target, verifies MFA).
    let start = State(step: 0, ff: model.variables[ff].initial, mfa: model.variables[mfa].initial)
    var number: [State: Int] = [start: 0]
    var states = [start]
    var edges: [[(target: Int, verifiesMFA: Bool)]] = []
    while edges.count < states.count {
      var out: [(Int, Bool)] = []
      for (next, verifiesMFA) in successors(states[edges.count]) {
        let n: Int
        if let known = number[next] {
          n = known
        } else {
          n = states.count
          number[next] = n
          states.append(next)
        }
        out.append((n, verifiesMFA))
      }
      edges.append(out)
    }
    // The states from which the flow can get to a signed-in step without verifying MFA on the
    // way: the signed-in ones, then backwards along the edges that do not verify MFA.
    var predecessors = [[Int]](repeating: [], count: states.count)
    for (from, out) in edges.enumerated() {
      for edge in out where !edge.verifiesMFA { predecessors[edge.target].append(from) }
    }
    var signsInWithoutMFA = states.map { model.steps[$0.step].isSignedIn }
    var queue = states.indices.filter { signsInWithoutMFA[$0] }
    while let current = queue.popLast() {
      for from in predecessors[current] where !signsInWithoutMFA[from] {
        signsInWithoutMFA[from] = true
        queue.append(from)
      }
    }
    var statesAt = [[Int]](repeating: [], count: model.steps.count)
    for (n, state) in states.enumerated() { statesAt[state.step].append(n) }
    func verifies(_ step: Int, _ variable: Int) -> Bool {
      system.branches(from: step).contains { branch in branch.effects[variable].map { $0 != .false } == true }
    }
    return model.steps.indices.map { s -> StepPhase in
      let step = model.steps[s]
      if step.kind == .entry { return .entry }
      if step.isTerminal { return .terminal }
      if verifies(s, ff) || statesAt[s].contains(where: { states[$0].ff == 0 }) { return .firstFactor }
      if verifies(s, mfa) { return .mfa }
      let after = statesAt[s].filter { states[$0].mfa == 0 }
      if !after.isEmpty && after.allSatisfy({ !signsInWithoutMFA[$0] }) { return .mfa }
      return .setup
    }
  }
}
