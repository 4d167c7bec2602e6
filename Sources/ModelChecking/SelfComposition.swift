import SignInModel

/// The product of two copies of a model's transition system, built for one `indistinguishable`
/// property (self-composition, 2-safety): the *left* and the *right* run share every
/// configuration variable the relation does not set apart, take related responses at each call
/// (`Indistinguishability.inputs`), and move together while their observations agree. A call
/// whose observations differ (outcome, step, error or exception type, message) leads to the
/// product's extra step `diverged`, so the hyperproperty is the safety property
/// `never: step == diverged` of an ordinary model, which both engines check as any other.
public struct SelfComposition: Sendable {
  /// The model the property is stated in.
  public let model: SignInModel
  public let property: ModelProperty
  /// The product model; its one property has the hyperproperty's name.
  public let product: SignInModel
  /// The index of `diverged` among the product's steps.
  public let diverged: Int
  /// True when no input pair applies at signIn: the runs are never compared (the property is vacuous).
  public let comparesNothing: Bool
  /// Why a property that compares nothing holds only vacuously.
  public static let comparesNothingReason =
    "no input pair applies at signIn (both responses accepted there), so no call is ever compared"
  /// Per product rule (its `line` is the index): the left branch and the right branch it pairs.
  let combinations: [(left: Int, right: Int)]
  /// The product response of each input pair.
  let inputs: [Indistinguishability.ResponsePair]
  let system: TransitionSystem

  public static let divergedStep = "diverged"
  /// Product rule lines: a left rule is `leftLineBase` + its branch; a right rule is its
  /// combination's index; the rules for a run that no rule decides are negative.
  static let leftLineBase = 1 << 40
  static let leftUndecided = -3
  static let rightUndecided = -2
  static let leftPrefix = "left."
  static let rightPrefix = "right."

  /// The product of `system`'s model for `property` (an `indistinguishable` property of it).
  public init(system: TransitionSystem, property: ModelProperty) {
    let model = system.model
    guard let relation = property.relation else { preconditionFailure("not an indistinguishable property") }
    self.model = model
    self.property = property
    self.system = system
    inputs = relation.inputs

    // Variables: shared configuration, then each run's own configuration, then each run's flow.
    var variables: [Variable] = []
    var left = [Int](repeating: -1, count: model.variables.count)
    var right = left
    let differing = Set(relation.differing)
    func add(_ v: Variable, _ name: String) -> Int {
      variables.append(
        Variable(
          name: name, domain: v.domain, scope: v.scope, initial: v.initial, doc: v.doc, line: v.line,
          defaultValue: v.defaultValue))
      return variables.count - 1
    }
    for i in model.configurationIndices where !differing.contains(i) {
      left[i] = add(model.variables[i], model.variables[i].name)
      right[i] = left[i]
    }
    for i in model.configurationIndices where differing.contains(i) {
      left[i] = add(model.variables[i], Self.leftPrefix + model.variables[i].name)
      right[i] = add(model.variables[i], Self.rightPrefix + model.variables[i].name)
    }
    let configurationCount = variables.count
    for i in model.flowIndices { left[i] = add(model.variables[i], Self.leftPrefix + model.variables[i].name) }
    for i in model.flowIndices { right[i] = add(model.variables[i], Self.rightPrefix + model.variables[i].name) }
    let toLeft = Dictionary(uniqueKeysWithValues: left.enumerated().map { ($0.offset, Expr.variable($0.element)) })
    let toRight = Dictionary(uniqueKeysWithValues: right.enumerated().map { ($0.offset, Expr.variable($0.element)) })

    // Constraints: the model's on each run (once where a run shares all its variables), and the relation.
    var constraints: [Constraint] = []
    var seen = Set<Expr>()
    func constrain(_ expr: Expr, _ text: String, _ line: Int) {
      guard seen.insert(expr).inserted else { return }
      constraints.append(Constraint(expr: expr, text: text, line: line))
    }
    for c in model.constraints {
      constrain(c.expr.substituting(toLeft), "left: " + c.text, c.line)
      constrain(c.expr.substituting(toRight), "right: " + c.text, c.line)
    }
    constrain(relation.shared.substituting(toLeft), "when (left): " + relation.sharedText, property.line)
    constrain(relation.shared.substituting(toRight), "when (right): " + relation.sharedText, property.line)
    constrain(relation.left.substituting(toLeft), "left: " + relation.leftText, property.line)
    constrain(relation.right.substituting(toRight), "right: " + relation.rightText, property.line)

    // Responses: one per input pair.
    let responses = relation.inputs.map { pair -> ResponseClass in
      let (l, r) = (model.responses[pair.left], model.responses[pair.right])
      return pair.left == pair.right
        ? ResponseClass(name: l.name, summary: l.summary)
        : ResponseClass(name: "\(l.name) ~ \(r.name)", summary: "left: \(l.summary); right: \(r.summary)")
    }

    // Steps: the model's, whose rules pair a left branch with a right branch, and `diverged`.
    let diverged = model.steps.count
    self.diverged = diverged
    // Each run keeps only the branches its relation lets fire (a guard that is false for every
    // value `when:` and `left:`/`right:` allow): the product pairs far fewer branches, and the
    // pruned ones could never be taken, so neither engine's verdict changes.
    let allowedLeft = Self.allowedValues(.and([relation.shared, relation.left]), model: model)
    let allowedRight = Self.allowedValues(.and([relation.shared, relation.right]), model: model)
    func place(_ b: Int) -> Int { system.branches[b].step * 100_000 + system.branches[b].response }
    let leftBranches = system.branches.indices.filter {
      Self.mayFire(system.branches[$0].guardExpr, allowedLeft, model)
    }
    let rightBranches = system.branches.indices.filter {
      Self.mayFire(system.branches[$0].guardExpr, allowedRight, model)
    }
    let leftByPlace = Dictionary(grouping: leftBranches, by: place)
    let rightByPlace = Dictionary(grouping: rightBranches, by: place)
    var combinations: [(left: Int, right: Int)] = []
    var steps: [Step] = []
    var routes: [Route] = []
    for (s, step) in model.steps.enumerated() {
      var stepResponses: [StepResponse] = []
      if !step.isTerminal {
        for (k, pair) in relation.inputs.enumerated()
        where system.responseSlots[s][pair.left] >= 0 && system.responseSlots[s][pair.right] >= 0 {
          // A left branch's rule leads to a route of the right branches (two short rule lists,
          // not their product: the transition system checks each list for overlaps pairwise).
          var rules: [Rule] = []
          for bl in leftByPlace[s * 100_000 + pair.left] ?? [] {
            let l = system.branches[bl]
            var paired: [Rule] = []
            for br in rightByPlace[s * 100_000 + pair.right] ?? [] {
              let r = system.branches[br]
              let same = Self.observation(l, in: model) == Self.observation(r, in: model)
              paired.append(
                Rule(
                  guardExpr: r.guardExpr.substituting(toRight), guardText: "",
                  effects: r.orderedEffects.map { (right[$0.variable], $0.value.substituting(toRight)) },
                  outcome: same ? l.outcome : .step(diverged), failsAuthentication: r.failsAuthentication,
                  line: combinations.count, exception: l.exception))
              combinations.append((bl, br))
            }
            // A right run whose rules decide nothing here is observed apart from the left's outcome.
            if !paired.isEmpty {
              paired.append(
                Rule(
                  guardExpr: .not(.or(paired.map(\.guardExpr))), guardText: "", effects: [], outcome: .step(diverged),
                  failsAuthentication: false, line: Self.rightUndecided))
            }
            routes.append(Route(name: "\(step.id)/\(responses[k].name)/\(bl)", rules: paired, line: property.line))
            rules.append(
              Rule(
                guardExpr: l.guardExpr.substituting(toLeft), guardText: "",
                effects: l.orderedEffects.map { (left[$0.variable], $0.value.substituting(toLeft)) },
                outcome: .route(routes.count - 1), failsAuthentication: l.failsAuthentication,
                line: Self.leftLineBase + bl))
          }
          // Likewise a left run whose rules decide nothing.
          if !rules.isEmpty {
            rules.append(
              Rule(
                guardExpr: .not(.or(rules.map(\.guardExpr))), guardText: "", effects: [], outcome: .step(diverged),
                failsAuthentication: false, line: Self.leftUndecided))
          }
          stepResponses.append(StepResponse(response: k, rules: rules, inherited: false))
        }
      }
      steps.append(
        Step(
          id: step.id, summary: step.summary, kind: step.kind, isSignedIn: step.isSignedIn, names: step.names,
          offers: nil, responses: stepResponses, notes: [], line: step.line))
    }
    steps.append(
      Step(
        id: Self.divergedStep, summary: "the two runs were observed differently", kind: .restart, isSignedIn: false,
        names: [], offers: nil, responses: [], notes: [], line: property.line))
    self.combinations = combinations
    comparesNothing = steps[0].responses.isEmpty

    let stepFact = variables.count  // PathFacts.stepIndex of the product
    let never = ModelProperty(
      name: property.name, kind: .never, description: property.description, line: property.line,
      predicate: .equal(.variable(stepFact), .constant(diverged)), predicateText: "step == diverged")
    let builtins = Builtins(
      firstFactorVerified: left[model.builtins.firstFactorVerified], mfaVerified: left[model.builtins.mfaVerified],
      authFailed: left[model.builtins.authFailed])
    product = SignInModel(
      name: "\(model.name) × \(model.name) (\(property.name))", generation: model.generation,
      summary: "self-composition for \(property.name)", file: model.file, contentHash: model.contentHash,
      platforms: model.platforms, sources: model.sources, variables: variables, constraints: constraints,
      canSignIn: .false, mfaRequired: nil, optionSets: [], responses: responses, steps: steps, routes: routes,
      builtins: builtins, configurationCount: configurationCount, formatVersion: model.formatVersion,
      properties: [never])
  }

  /// Per variable, the values a run can give it under `condition` alone (each configuration
  /// variable tried on its own, the others unknown); every value for flow variables.
  static func allowedValues(_ condition: Expr, model: SignInModel) -> [[Int]] {
    let read = Set(condition.variables)
    return model.variables.indices.map { i in
      let values = model.variables[i].domain.values
      guard model.configurationIndices.contains(i), read.contains(i) else { return values }
      return values.filter { value in
        var valuation = [Int](repeating: unassigned, count: model.variables.count)
        valuation[i] = value
        return condition.evaluatePartially(valuation) != 0
      }
    }
  }

  /// False only when `guardExpr` is false for every combination of the allowed values of the
  /// restricted configuration variables it reads (at most 4,096 combinations are tried).
  static func mayFire(_ guardExpr: Expr, _ allowed: [[Int]], _ model: SignInModel) -> Bool {
    let restricted = guardExpr.variables.filter { allowed[$0].count < model.variables[$0].domain.count }
    if restricted.contains(where: { allowed[$0].isEmpty }) { return false }
    let combinations = restricted.reduce(1) { $0 * allowed[$1].count }
    guard combinations <= 4096 else { return true }
    var valuation = [Int](repeating: unassigned, count: model.variables.count)
    func search(_ k: Int) -> Bool {
      if k == restricted.count { return guardExpr.evaluatePartially(valuation) != 0 }
      for value in allowed[restricted[k]] {
        valuation[restricted[k]] = value
        if search(k + 1) { return true }
      }
      return false
    }
    return search(0)
  }

  /// The product property's invariant (the hyperproperty's name).
  public var invariant: Invariant { Invariant(rawValue: property.name) }

  /// A counterexample of the product as the two runs it pairs: `steps` is the left run,
  /// `pairedSteps` the right one, call by call; the message names the first call whose
  /// observations differ and what each run saw.
  public func runs(_ counterexample: Counterexample) -> Counterexample {
    var leftSteps: [TraceStep] = []
    var rightSteps: [TraceStep] = []
    var message = counterexample.message
    for (i, step) in counterexample.steps.enumerated() {
      let lines = step.ruleLines
      let l: TraceStep
      let r: TraceStep
      var seen: (String, String)? = nil
      if let last = lines.last, last >= 0, last < combinations.count {
        let (bl, br) = combinations[last]
        l = run(system.branches[bl], step, prefix: Self.leftPrefix)
        r = run(system.branches[br], step, prefix: Self.rightPrefix)
        seen = (Self.observation(system.branches[bl], in: model), Self.observation(system.branches[br], in: model))
      } else if lines.last == Self.rightUndecided, let first = lines.first, first >= Self.leftLineBase {
        l = run(system.branches[first - Self.leftLineBase], step, prefix: Self.leftPrefix)
        r = undecided(step, side: 1, "no rule of the right run decides this call")
      } else if lines.last == Self.leftUndecided {
        l = undecided(step, side: 0, "no rule of the left run decides this call")
        r = undecided(step, side: 1, "the left run has no outcome to compare")
      } else {
        leftSteps.append(step)
        rightSteps.append(step)
        continue
      }
      leftSteps.append(l)
      rightSteps.append(r)
      if case .step(let id) = step.outcome, id == Self.divergedStep {
        message =
          "call \(i + 1) (\(step.call) at '\(step.stepBefore)') is observed differently: the left run "
          + "(\(property.relation?.leftText ?? "")) gets \(seen?.0 ?? describe(l.outcome)), the right run "
          + "(\(property.relation?.rightText ?? "")) gets \(seen?.1 ?? describe(r.outcome))"
      }
    }
    return Counterexample(
      invariant: invariant, message: message, configuration: counterexample.configuration, steps: leftSteps,
      loopStartsAt: nil, pairedSteps: rightSteps)
  }

  private func run(_ branch: TransitionSystem.Branch, _ step: TraceStep, prefix: String) -> TraceStep {
    let outcome: TraceOutcome
    switch branch.outcome {
    case .step(let s): outcome = .step(model.steps[s].id)
    case .error(let name): outcome = .error(name, stays: step.stepBefore)
    case .restart(let reason): outcome = .restart(reason)
    case .route: outcome = .undetermined("route")
    }
    var changes: [String: String] = [:]
    for (name, change) in step.changes where name.hasPrefix(prefix) {
      changes[String(name.dropFirst(prefix.count))] = change
    }
    return TraceStep(
      call: step.call, response: model.responses[branch.response].name, stepBefore: step.stepBefore, outcome: outcome,
      changes: changes, ruleLines: branch.ruleLines)
  }

  /// What a client shows after a branch: the outcome (step, error, or restart with its
  /// exception and message), and what each platform reports instead (`platforms:`).
  static func observation(_ b: TransitionSystem.Branch, in model: SignInModel) -> String {
    var text: String
    switch b.outcome {
    case .step(let s): text = "step '\(model.steps[s].id)'"
    case .error(let name): text = "error \(name)"
    case .restart(let reason):
      text = "restart (\(reason))"
      if let exception = b.exception, !reason.hasPrefix(exception) { text += " reported as \(exception)" }
    case .route: text = "a route"
    }
    for p in b.platformOutcomes.sorted(by: { $0.platform < $1.platform }) {
      switch p.form {
      case .error(let name): text += ", on \(p.platform) error \(name)"
      case .signedOut: text += ", on \(p.platform) signed out"
      }
    }
    return text
  }

  /// One run's side of a call no rule of that run decides.
  private func undecided(_ step: TraceStep, side: Int, _ why: String) -> TraceStep {
    let pair = zip(inputs, product.responses).first { $0.1.name == step.response }?.0
    let response = pair.map { model.responses[side == 0 ? $0.left : $0.right].name } ?? step.response
    return TraceStep(
      call: step.call, response: response, stepBefore: step.stepBefore, outcome: .undetermined(why), changes: [:],
      ruleLines: [])
  }

  private func describe(_ outcome: TraceOutcome) -> String {
    switch outcome {
    case .step(let id): return "step '\(id)'"
    case .error(let name, _): return "error \(name)"
    case .restart(let reason): return "restart (\(reason))"
    case .undetermined(let place): return "no single outcome (\(place))"
    }
  }
}
