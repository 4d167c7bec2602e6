import ModelChecking
import SignInModel
import Z3Kit

/// Proves `doneReachable` — for every configuration where `canSignIn` holds, some path
/// reaches done — which is "for all configurations, there is a path" and so not a Horn
/// query. It computes, per step, the set of (configuration, flow) states that can reach
/// done, as a backward least fixpoint by substitution (no quantifiers), checks convergence
/// with Z3, then asks whether a valid configuration that can sign in starts outside it.
struct DoneReachability {
  enum Answer {
    case proven(iterations: Int)
    case violated(configuration: [Int])
    case unknown(String)
  }

  let model: SignInModel
  let timeoutMilliseconds: UInt32
  let maxIterations: Int

  func check() -> Answer {
    let context = Z3Context(timeoutMilliseconds: timeoutMilliseconds)
    let encoding = Z3Encoding(model: model, context: context)
    let conditions = InvariantConditions(encoding: encoding)
    let state = encoding.constants(model.configurationIndices).merging(encoding.constants(model.flowIndices)) { a, _ in a }
    let flowConstants = model.flowIndices.map { state[$0]! }
    let domains = context.and(model.variables.indices.map { encoding.inDomain($0, state[$0]!) } + [encoding.validConfiguration(state)])

    // canReach[s]: from step s with this configuration and flow, done is reachable.
    var canReach: [Z3Term] = model.steps.map { context.bool($0.kind == .signedIn) }
    let solver = Z3Solver(context)
    solver.assert(domains)
    for iteration in 1...maxIterations {
      var next = canReach
      for (s, step) in model.steps.enumerated() where !step.isTerminal {
        var ways = [canReach[s]]
        for branch in encoding.system.branches where branch.step == s {
          guard let target = branch.target else { continue }
          let post = encoding.postFlow(branch, state)
          let after = context.substitute(canReach[target], flowConstants, model.flowIndices.map { post[$0]! })
          ways.append(context.and([conditions.enabled(branch, state), after]))
        }
        next[s] = context.simplify(context.or(ways))
      }
      // Converged when no step gained a state.
      solver.push()
      solver.assert(context.or(model.steps.indices.map { context.and([next[$0], context.not(canReach[$0])]) }))
      let grew = solver.check()
      solver.pop()
      canReach = next
      switch grew {
      case .unsatisfiable:
        var initial = state
        for i in model.flowIndices { initial[i] = context.int(model.variables[i].initial) }
        let start = context.substitute(canReach[0], flowConstants, model.flowIndices.map { initial[$0]! })
        solver.push()
        solver.assert(encoding.boolTerm(model.canSignIn ?? .true, state))
        solver.assert(context.not(start))
        let stuck = solver.check()
        defer { solver.pop() }
        switch stuck {
        case .unsatisfiable: return .proven(iterations: iteration)
        case .satisfiable:
          return .violated(configuration: model.configurationIndices.map {
            solver.integerValue(of: state[$0]!) ?? model.variables[$0].domain.values[0]
          })
        case .unknown(let reason): return .unknown(reason)
        }
      case .unknown(let reason): return .unknown(reason)
      case .satisfiable: continue
      }
    }
    return .unknown("no fixpoint after \(maxIterations) iterations")
  }
}
