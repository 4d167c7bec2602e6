import ModelChecking
import SignInModel
import Z3Kit

/// For each invariant: the states or transitions that break it ("bad cases") and the ones
/// whose reachability shows it is not vacuous ("witness cases"), each as a step and a
/// condition over the configuration and the flow before the step is left. Both the Horn
/// encoding and bounded search read these, so the two cannot drift apart.
struct InvariantConditions {
  typealias Case = (step: Int, condition: Z3Term)

  let encoding: Z3Encoding
  var context: Z3Context { encoding.context }
  var model: SignInModel { encoding.model }

  /// The branch can be taken: its guard holds and its effects stay in their domains.
  func enabled(_ branch: TransitionSystem.Branch, _ state: [Int: Z3Term]) -> Z3Term {
    context.and([
      encoding.boolTerm(branch.guardExpr, state), encoding.postInDomain(branch, encoding.postFlow(branch, state)),
    ])
  }

  func bad(_ invariant: Invariant, _ state: [Int: Z3Term]) -> [Case] {
    let system = encoding.system
    switch invariant {
    case .terminates:
      // Dead ends; cycles are asked separately (`HornProblem.cycleQuestion`).
      return model.steps.indices.filter { !model.steps[$0].isTerminal }.map { s in
        (s, context.not(context.or(system.branches.filter { $0.step == s }.map { enabled($0, state) })))
      }
    case .failAuthenticationRestarts:
      return system.branches.compactMap { b in
        guard case .step = b.outcome else { return nil }
        let failed = context.or([
          context.not(context.equal(state[model.builtins.authFailed]!, context.int(0))),
          context.bool(b.failsAuthentication),
        ])
        return (b.step, context.and([enabled(b, state), failed]))
      }
    case .noFactorSkipped:
      return branchesToDone.map { b in
        let post = encoding.postFlow(b, state)
        var skipped = [context.equal(post[model.builtins.firstFactorVerified]!, context.int(0))]
        if let required = model.mfaRequirement {
          skipped.append(
            context.and([
              encoding.boolTerm(required, post), context.equal(post[model.builtins.mfaVerified]!, context.int(0)),
            ]))
        }
        return (b.step, context.and([enabled(b, state), context.or(skipped)]))
      }
    case .offersAreUsable:
      return model.steps.indices.compactMap { s in
        guard let offers = model.steps[s].offers else { return nil }
        let set = model.optionSets[offers.optionSet]
        let facts = FactProperties(model: model)
        let unusable = offers.conditions.map { c in
          var usable = [encoding.boolTerm(set.options[c.option].usable, state)]
          if let factor = facts.offeredFactor(step: s, option: set.options[c.option].name) {
            usable.append(encoding.boolTerm(factor.condition, state))
          }
          return context.and([encoding.boolTerm(c.when, state), context.not(context.and(usable))])
        }
        let empty = context.and(offers.conditions.map { context.not(encoding.boolTerm($0.when, state)) })
        return (s, context.or(unusable + [empty]))
      }
    case .deterministic:
      return system.ambiguities.map { ($0.step, encoding.boolTerm($0.condition, state)) }
    case .isSignedInIffDone:
      return model.steps.indices.filter { model.steps[$0].isSignedIn != (model.steps[$0].kind == .signedIn) }
        .map { ($0, context.bool(true)) }
    case .staysInDomain:
      return system.branches.map { b in
        let post = encoding.postFlow(b, state)
        return (
          b.step, context.and([encoding.boolTerm(b.guardExpr, state), context.not(encoding.postInDomain(b, post))])
        )
      }
    case .stepsReachable, .doneReachable:
      return []
    case .preferredMFAHonoured:
      return system.stateChecks.enumerated().flatMap { s, checks in
        checks.filter { $0.invariant == invariant }.map { (s, encoding.boolTerm($0.condition, state)) }
      }
    case .boundedFailures, .failedResponseNeverVerifies, .challengesUsableFactor:
      return zip(system.branches, system.branchChecks).flatMap { b, checks in
        checks.filter { $0.invariant == invariant }.map { check in
          (b.step, context.and([enabled(b, state), encoding.boolTerm(check.condition, state)]))
        }
      }
    default:
      return []  // a model property: `PropertyProofs.swift`
    }
  }

  /// Cases whose reachability shows the invariant is not vacuous, with the reason to give
  /// when none is reachable (mirroring the explicit engine's wording).
  func witnesses(_ invariant: Invariant, _ state: [Int: Z3Term]) -> [(cases: [Case], reason: String)] {
    switch invariant {
    case .failAuthenticationRestarts:
      let cases = encoding.system.branches.filter(\.failsAuthentication).map { ($0.step, enabled($0, state)) }
      return [(cases, "no reachable transition fails authentication")]
    case .offersAreUsable:
      let cases = model.steps.indices.filter { model.steps[$0].offers != nil }.map { ($0, context.bool(true)) }
      return [(cases, "no selection step is reachable")]
    case .noFactorSkipped:
      let done = model.steps.indices.filter { model.steps[$0].kind == .signedIn }.map { ($0, context.bool(true)) }
      var result: [([Case], String)] = [(done, "done is never reached")]
      if let required = model.mfaRequirement {
        let cases = branchesToDone.map { b -> Case in
          let post = encoding.postFlow(b, state)
          return (
            b.step,
            context.and([
              enabled(b, state), context.not(context.equal(post[model.builtins.firstFactorVerified]!, context.int(0))),
              encoding.boolTerm(required, post),
            ])
          )
        }
        result.append((cases, "no path to done ever requires MFA"))
      }
      return result
    default:
      return []
    }
  }

  var branchesToDone: [TransitionSystem.Branch] {
    encoding.system.branches.filter { b in
      if case .step(let t) = b.outcome { return model.steps[t].kind == .signedIn }
      return false
    }
  }
}
