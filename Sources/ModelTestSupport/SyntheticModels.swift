import ModelChecking
import SignInModel

/// Synthetic models for scaling benchmarks: `factor` copies of a model side by side,
/// chosen by a new configuration variable `pool.lane`. Steps, routes, configuration
/// variables and constraints grow by `factor`; flow variables are shared.
package enum SyntheticModels {
  package static func scaled(_ model: SignInModel, factor: Int) -> SignInModel {
    precondition(factor >= 1)
    if factor == 1 { return model }
    let configCount = model.configurationCount
    let flowCount = model.variables.count - configCount
    // New layout: factor copies of the configuration variables, then pool.lane, then flow.
    var variables: [Variable] = []
    for copy in 0..<factor {
      for v in model.variables.prefix(configCount) {
        variables.append(
          Variable(
            name: v.name + (copy == 0 ? "" : "#\(copy + 1)"), domain: v.domain, scope: v.scope,
            initial: v.initial, doc: v.doc, line: v.line))
      }
    }
    let lane = variables.count
    variables.append(Variable(name: "pool.lane", domain: .range(0...(factor - 1)), scope: .configuration))
    variables += model.variables.suffix(flowCount)
    func variableMap(_ copy: Int) -> [Int: Expr] {
      var map: [Int: Expr] = [:]
      for i in 0..<configCount { map[i] = .variable(copy * configCount + i) }
      for j in 0..<flowCount { map[configCount + j] = .variable(lane + 1 + j) }
      return map
    }
    func flowIndex(_ i: Int) -> Int { lane + 1 + (i - configCount) }
    let stepCount = model.steps.count - 1  // without the entry
    func stepIndex(_ s: Int, _ copy: Int) -> Int { 1 + copy * stepCount + (s - 1) }
    func rename(_ id: String, _ copy: Int) -> String { copy == 0 ? id : "\(id)#\(copy + 1)" }
    func outcome(_ o: Outcome, _ copy: Int) -> Outcome {
      switch o {
      case .step(let s): return .step(stepIndex(s, copy))
      case .route(let r): return .route(copy * model.routes.count + r)
      case .error, .restart: return o
      }
    }
    func rule(_ r: Rule, _ copy: Int, extraGuard: Expr? = nil) -> Rule {
      let map = variableMap(copy)
      var g = r.guardExpr.substituting(map)
      if let extraGuard { g = .and([extraGuard, g]) }
      return Rule(
        guardExpr: g, guardText: r.guardText,
        effects: r.effects.map { (flowIndex($0.variable), $0.value.substituting(map)) },
        outcome: outcome(r.outcome, copy), failsAuthentication: r.failsAuthentication, line: r.line)
    }
    var optionSets: [OptionSet] = []
    for copy in 0..<factor {
      for set in model.optionSets {
        optionSets.append(
          OptionSet(
            name: rename(set.name, copy),
            options: set.options.map {
              OptionSet.Option(name: $0.name, usable: $0.usable.substituting(variableMap(copy)), text: $0.text)
            }))
      }
    }
    // The entry: each response's rules from every copy, guarded by the lane.
    let entry = model.steps[0]
    let entryResponses = entry.responses.map { response in
      StepResponse(
        response: response.response,
        rules: (0..<factor).flatMap { copy in
          response.rules.map { rule($0, copy, extraGuard: .equal(.variable(lane), .constant(copy))) }
        }, inherited: response.inherited)
    }
    var steps = [
      Step(
        id: entry.id, summary: entry.summary, kind: entry.kind, isSignedIn: entry.isSignedIn, names: entry.names,
        offers: nil, responses: entryResponses, notes: entry.notes, line: entry.line)
    ]
    for copy in 0..<factor {
      for step in model.steps.dropFirst() {
        let offers = step.offers.map { o in
          Offers(
            optionSet: copy * model.optionSets.count + o.optionSet,
            conditions: o.conditions.map { ($0.option, $0.when.substituting(variableMap(copy))) })
        }
        steps.append(
          Step(
            id: rename(step.id, copy), summary: step.summary, kind: step.kind, isSignedIn: step.isSignedIn,
            names: step.names, offers: offers,
            responses: step.responses.map {
              StepResponse(response: $0.response, rules: $0.rules.map { rule($0, copy) }, inherited: $0.inherited)
            },
            notes: step.notes, line: step.line))
      }
    }
    var routes: [Route] = []
    for copy in 0..<factor {
      for route in model.routes {
        routes.append(
          Route(name: rename(route.name, copy), rules: route.rules.map { rule($0, copy) }, line: route.line))
      }
    }
    let constraints = (0..<factor).flatMap { copy in
      model.constraints.map { Constraint(expr: $0.expr.substituting(variableMap(copy)), text: $0.text, line: $0.line) }
    }
    func perLane(_ e: Expr?) -> Expr? {
      guard let e else { return nil }
      return .or((0..<factor).map { .and([.equal(.variable(lane), .constant($0)), e.substituting(variableMap($0))]) })
    }
    let builtins = Builtins(
      firstFactorVerified: flowIndex(model.builtins.firstFactorVerified),
      mfaVerified: flowIndex(model.builtins.mfaVerified), authFailed: flowIndex(model.builtins.authFailed))
    return SignInModel(
      name: "\(model.name)-x\(factor)", generation: model.generation, summary: model.summary, file: model.file,
      contentHash: model.contentHash, platforms: model.platforms, sources: model.sources, variables: variables,
      constraints: constraints, canSignIn: perLane(model.canSignIn), mfaRequired: perLane(model.mfaRequirement),
      optionSets: optionSets, responses: model.responses, steps: steps, routes: routes, builtins: builtins,
      configurationCount: lane + 1)
  }
}
