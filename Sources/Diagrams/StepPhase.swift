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
  public static func phases(of system: TransitionSystem) -> [StepPhase] {
    let model = system.model
    let ff = model.builtins.firstFactorVerified
    let mfa = model.builtins.mfaVerified
    // Abstract states: (step, first factor verified, MFA verified); guards are evaluated with
    // only these two bits known, so a guard that reads anything else stays possible.
    struct State: Hashable { let step: Int, ff: Int, mfa: Int }
    func valuation(_ state: State) -> [Int] {
      var v = [Int](repeating: unassigned, count: model.variables.count)
      v[ff] = state.ff
      v[mfa] = state.mfa
      return v
    }
    func successors(_ state: State) -> [(State, verifiesMFA: Bool)] {
      var result: [(State, Bool)] = []
      let values = valuation(state)
      for branch in system.branches where branch.step == state.step {
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
    let start = State(step: 0, ff: model.variables[ff].initial, mfa: model.variables[mfa].initial)
    var reached: Set<State> = [start]
    var queue = [start]
    while let state = queue.popLast() {
      for (next, _) in successors(state) where reached.insert(next).inserted { queue.append(next) }
    }
    func verifies(_ step: Int, _ variable: Int) -> Bool {
      system.branches.contains { branch in
        branch.step == step && branch.effects[variable].map { $0 != .false } == true
      }
    }
    /// Can the flow get from `state` to a signed-in step without verifying MFA on the way?
    func signsInWithoutMFA(from state: State) -> Bool {
      var seen: Set<State> = [state]
      var queue = [state]
      while let current = queue.popLast() {
        if model.steps[current.step].isSignedIn { return true }
        for (next, verifiesMFA) in successors(current) where !verifiesMFA && seen.insert(next).inserted {
          queue.append(next)
        }
      }
      return false
    }
    return model.steps.indices.map { s -> StepPhase in
      let step = model.steps[s]
      if step.kind == .entry { return .entry }
      if step.isTerminal { return .terminal }
      if verifies(s, ff) || reached.contains(where: { $0.step == s && $0.ff == 0 }) { return .firstFactor }
      if verifies(s, mfa) { return .mfa }
      let after = reached.filter { $0.step == s && $0.mfa == 0 }
      if !after.isEmpty && after.allSatisfy({ !signsInWithoutMFA(from: $0) }) { return .mfa }
      return .setup
    }
  }
}
