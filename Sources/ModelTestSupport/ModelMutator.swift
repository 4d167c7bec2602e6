import ModelChecking
import SignInModel

/// Makes broken variants of a model by one random edit each: a guard made `true` or
/// negated, a target changed, a restart turned into a retry, an effect dropped, a flow
/// domain shrunk, an offer forced. The differential tests run both engines on them.
package struct ModelMutator: Sendable {
  package let model: SignInModel

  package init(model: SignInModel) { self.model = model }

  /// Where a rule sits: in a step's response, or in a route.
  private enum Site {
    case step(Int, Int, Int)
    case route(Int, Int)
  }

  private var sites: [Site] {
    var result: [Site] = []
    for (s, step) in model.steps.enumerated() {
      for (r, response) in step.responses.enumerated() {
        for i in response.rules.indices { result.append(.step(s, r, i)) }
      }
    }
    for (r, route) in model.routes.enumerated() { for i in route.rules.indices { result.append(.route(r, i)) } }
    return result
  }

  /// The mutant number `index` of the sequence seeded by `seed`, with what was changed.
  package func mutant(seed: UInt64, index: Int) -> (model: SignInModel, change: String) {
    var rng = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37)
    let sites = self.sites
    let site = sites[Int(rng.next() % UInt64(sites.count))]
    let rule = self.rule(at: site)
    let kind = Int(rng.next() % 7)
    var change = ""
    var newRule = rule
    var variables = model.variables
    var steps = model.steps
    switch kind {
    case 0:
      newRule = Rule(
        guardExpr: .true, guardText: "true", effects: rule.effects, outcome: rule.outcome,
        failsAuthentication: rule.failsAuthentication, line: rule.line)
      change = "guard at line \(rule.line) made true"
    case 1:
      newRule = Rule(
        guardExpr: .not(rule.guardExpr), guardText: "!(\(rule.guardText))", effects: rule.effects,
        outcome: rule.outcome, failsAuthentication: rule.failsAuthentication, line: rule.line)
      change = "guard at line \(rule.line) negated"
    case 2:
      let target = 1 + Int(rng.next() % UInt64(model.steps.count - 1))
      newRule = Rule(
        guardExpr: rule.guardExpr, guardText: rule.guardText, effects: rule.effects, outcome: .step(target),
        failsAuthentication: rule.failsAuthentication, line: rule.line)
      change = "rule at line \(rule.line) now goes to \(model.steps[target].id)"
    case 3:
      newRule = Rule(
        guardExpr: rule.guardExpr, guardText: rule.guardText, effects: rule.effects,
        outcome: .error("MutantError"), failsAuthentication: rule.failsAuthentication, line: rule.line)
      change = "rule at line \(rule.line) now retries on the same step"
    case 4:
      newRule = Rule(
        guardExpr: rule.guardExpr, guardText: rule.guardText, effects: [], outcome: rule.outcome,
        failsAuthentication: false, line: rule.line)
      change = "effects of the rule at line \(rule.line) dropped"
    case 5:
      let flow = Array(model.flowIndices).filter {
        if case .range(let r) = model.variables[$0].domain { return r.count > 1 }
        return false
      }
      if let v = flow.isEmpty ? nil : flow[Int(rng.next() % UInt64(flow.count))],
        case .range(let r) = model.variables[v].domain
      {
        let old = model.variables[v]
        variables[v] = Variable(
          name: old.name, domain: .range(r.lowerBound...(r.upperBound - 1)), scope: old.scope,
          initial: old.initial, doc: old.doc, line: old.line)
        change = "domain of \(old.name) shrunk to \(r.lowerBound)..\(r.upperBound - 1)"
      }
    default:
      if let s = model.steps.indices.first(where: { model.steps[$0].offers != nil && rng.next() % 2 == 0 })
        ?? model.steps.indices.first(where: { model.steps[$0].offers != nil }), let offers = model.steps[s].offers
      {
        let o = Int(rng.next() % UInt64(offers.conditions.count))
        var conditions = offers.conditions
        conditions[o] = (conditions[o].option, .true)
        let step = model.steps[s]
        steps[s] = Step(
          id: step.id, summary: step.summary, kind: step.kind, isSignedIn: step.isSignedIn, names: step.names,
          offers: Offers(optionSet: offers.optionSet, conditions: conditions), responses: step.responses,
          notes: step.notes, line: step.line)
        change =
          "step \(step.id) always offers \(model.optionSets[offers.optionSet].options[conditions[o].option].name)"
      }
    }
    if change.isEmpty { change = "no change" }
    var routes = model.routes
    switch site {
    case .step(let s, let r, let i):
      let step = steps[s]
      var responses = step.responses
      var rules = responses[r].rules
      rules[i] = newRule
      responses[r] = StepResponse(response: responses[r].response, rules: rules, inherited: responses[r].inherited)
      steps[s] = Step(
        id: step.id, summary: step.summary, kind: step.kind, isSignedIn: step.isSignedIn, names: step.names,
        offers: step.offers, responses: responses, notes: step.notes, line: step.line)
    case .route(let r, let i):
      var rules = routes[r].rules
      rules[i] = newRule
      routes[r] = Route(name: routes[r].name, rules: rules, line: routes[r].line)
    }
    let mutated = SignInModel(
      name: model.name + "-mutant\(index)", generation: model.generation, summary: model.summary, file: model.file,
      contentHash: model.contentHash, platforms: model.platforms, sources: model.sources, variables: variables,
      constraints: model.constraints, canSignIn: model.canSignIn, mfaRequired: model.mfaRequired,
      optionSets: model.optionSets, responses: model.responses, steps: steps, routes: routes, builtins: model.builtins,
      configurationCount: model.configurationCount, formatVersion: model.formatVersion, factors: model.factors,
      preferences: model.preferences, failedAttempts: model.failedAttempts,
      lintAcknowledgements: model.lintAcknowledgements, properties: model.properties, policy: model.policy)
    return (mutated, change)
  }

  private func rule(at site: Site) -> Rule {
    switch site {
    case .step(let s, let r, let i): return model.steps[s].responses[r].rules[i]
    case .route(let r, let i): return model.routes[r].rules[i]
    }
  }
}
