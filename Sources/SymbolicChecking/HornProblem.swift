import ModelChecking
import SignInModel
import Z3Kit

/// The model as constrained Horn clauses for Spacer: `Reach(config, step, flow)` holds for
/// every reachable state; each question is a nullary relation derived from `Reach`.
final class HornProblem {
  let context: Z3Context
  let encoding: Z3Encoding
  let fixedpoint: Z3Fixedpoint
  let reach: Z3Relation
  let config: [Int: Z3Term]
  let flow: [Int: Z3Term]
  let step: Z3Term
  private var questions = 0

  var model: SignInModel { encoding.model }
  var system: TransitionSystem { encoding.system }

  /// Every constant the clauses quantify over.
  var allVariables: [Z3Term] {
    encoding.model.configurationIndices.map { config[$0]! } + [step] + encoding.model.flowIndices.map { flow[$0]! }
  }

  /// `explains`: the problem's invariant will be read (`Z3Fixedpoint.invariant(of:)`).
  init(model: SignInModel, timeoutMilliseconds: UInt32, resourceLimit: UInt32 = 0, explains: Bool = false)
    throws(Z3Error)
  {
    context = try Z3Context(resourceLimit: resourceLimit)
    encoding = Z3Encoding(model: model, context: context)
    fixedpoint = try Z3Fixedpoint(context, timeoutMilliseconds: timeoutMilliseconds, keepsRelations: explains)
    config = encoding.constants(model.configurationIndices)
    flow = encoding.constants(model.flowIndices)
    step = context.intConstant("step")
    reach = try context.relation("Reach", arity: model.variables.count + 1)
    fixedpoint.register(reach)

    // Init: every valid configuration starts at signIn with the initial flow values.
    var initial = config
    for i in model.flowIndices { initial[i] = context.int(model.variables[i].initial) }
    fixedpoint.addRule(
      context.forAll(
        model.configurationIndices.map { config[$0]! },
        context.implies(encoding.validConfiguration(config), reach(arguments(step: context.int(0), initial)))))

    // One clause per branch that stays in the flow.
    for branch in system.branches {
      guard let target = branch.target else { continue }
      let pre = config.merging(flow) { a, _ in a }
      let post = encoding.postFlow(branch, pre)
      let body = context.and([
        reach(arguments(step: context.int(branch.step), pre)), encoding.boolTerm(branch.guardExpr, pre),
        encoding.postInDomain(branch, post),
      ])
      fixedpoint.addRule(
        context.forAll(allVariables, context.implies(body, reach(arguments(step: context.int(target), post)))))
    }
  }

  /// The arguments of `Reach` for a step and a valuation (configuration and flow terms).
  func arguments(step: Z3Term, _ values: [Int: Z3Term]) -> [Z3Term] {
    model.configurationIndices.map { config[$0]! } + [step] + model.flowIndices.map { values[$0]! }
  }

  /// The pre-state valuation: configuration and flow constants.
  var state: [Int: Z3Term] { config.merging(flow) { a, _ in a } }

  /// A question: is there a reachable state at `step` where `condition` holds?
  /// Several cases make one question (their disjunction).
  func question(_ cases: [(step: Int, condition: Z3Term)]) throws(Z3Error) -> Z3Relation {
    questions += 1
    let relation = try context.relation("Question\(questions)", arity: 0)
    fixedpoint.register(relation)
    for c in cases {
      let body = context.and([reach(arguments(step: context.int(c.step), state)), c.condition])
      fixedpoint.addRule(context.forAll(allVariables, context.implies(body, relation([]))))
    }
    return relation
  }

  /// Liveness to safety: `Track` follows a path from a saved state; a path that comes back
  /// to the saved state is a cycle among non-terminal steps.
  func cycleQuestion() throws(Z3Error) -> Z3Relation {
    let savedStep = context.intConstant("saved.step")
    let saved = encoding.constants(model.flowIndices, prefix: "saved.")
    let track = try context.relation("Track", arity: model.variables.count + 2 + model.flowIndices.count)
    fixedpoint.register(track)
    func trackArgs(_ s: Z3Term, _ values: [Int: Z3Term]) throws(Z3Error) -> [Z3Term] {
      arguments(step: s, values) + [savedStep] + model.flowIndices.map { saved[$0]! }
    }
    let everything = allVariables + [savedStep] + model.flowIndices.map { saved[$0]! }
    for branch in system.branches {
      guard let target = branch.target, !model.steps[target].isTerminal else { continue }
      let pre = state
      let post = encoding.postFlow(branch, pre)
      let move = context.and([encoding.boolTerm(branch.guardExpr, pre), encoding.postInDomain(branch, post)])
      // Save the state before the first move.
      var savedValues = pre
      for i in model.flowIndices { savedValues[i] = flow[i]! }
      fixedpoint.addRule(
        context.forAll(
          allVariables,
          context.implies(
            context.and([reach(arguments(step: context.int(branch.step), pre)), move]),
            track(
              arguments(step: context.int(target), post) + [context.int(branch.step)]
                + model.flowIndices.map { flow[$0]! }))))
      // Keep moving with the saved state unchanged.
      fixedpoint.addRule(
        context.forAll(
          everything,
          context.implies(
            context.and([track(try trackArgs(context.int(branch.step), pre)), move]),
            track(try trackArgs(context.int(target), post)))))
    }
    questions += 1
    let relation = try context.relation("Question\(questions)", arity: 0)
    fixedpoint.register(relation)
    let back = context.and(
      [context.equal(step, savedStep)] + model.flowIndices.map { context.equal(flow[$0]!, saved[$0]!) })
    fixedpoint.addRule(
      context.forAll(everything, context.implies(context.and([track(try trackArgs(step, state)), back]), relation([]))))
    return relation
  }

  func ask(_ relation: Z3Relation) throws(Z3Error) -> Z3Result { try fixedpoint.query(relation) }
}
