import Yams

/// The rule passes: guarded rules of steps and routes, and the routes themselves.
extension ModelBuilder {
  /// Every route with its rules; routes must not form a cycle.
  func buildRoutes(_ routeItems: [Field]) {
    for (i, item) in routeItems.enumerated() where routeIDs[item.key] == i {
      let routeRules = rules(item.value, scope: scope, routeContext: i)
      // Rules that failed to load were reported already; "no rules" would only follow from them.
      let written = if case .sequence(let list) = item.value { list.count } else { 0 }
      if routeRules.isEmpty && written == 0 { report(item.keyNode, "route '\(item.key)' has no rules") }
      routes.append(Route(name: item.key, rules: routeRules, line: line(item.keyNode)))
    }
    checkRouteCycles(routeItems)
  }

  func rules(_ node: Node, scope: ExprScope, routeContext: Int?) -> [Rule] {
    sequence(node, "a response's rules").compactMap { rule($0, scope: scope, routeContext: routeContext) }
  }

  func rule(_ node: Node, scope: ExprScope, routeContext: Int?) -> Rule? {
    let fields = pairs(node, "a rule")
    guard !fields.isEmpty else { return nil }
    checkKeys(fields, allowed: Self.ruleKeys, "a rule")
    var guardText = "true"
    var guardExpr = Expr.true
    if let whenNode = value(fields, "when"), let text = scalar(whenNode, "when") {
      guardText = text
      guard let e = expression(whenNode, text, in: scope, expecting: .bool) else { return nil }
      guardExpr = e
    }
    guard let outcome = ruleOutcome(fields, node, routeContext: routeContext) else { return nil }
    let fails = bool(value(fields, "failAuthentication"), "failAuthentication", default: false)
    let effects = ruleEffects(fields, node, scope: scope, failsAuthentication: fails)
    var seen = Set<Int>()
    for (v, _) in effects where !seen.insert(v).inserted {
      report(node, "a rule sets '\(variables[v].name)' twice")
    }
    return Rule(
      guardExpr: guardExpr, guardText: guardText, effects: effects, outcome: outcome, failsAuthentication: fails,
      line: line(node), exception: ruleException(fields, outcome: outcome),
      platformOutcomes: platformOutcomes(value(fields, "platforms")))
  }

  /// A restart's `exception:`: one name (letters, digits, `.`, `_`), only beside `restart:`.
  func ruleException(_ fields: [Field], outcome: Outcome) -> String? {
    guard let node = value(fields, "exception"), let text = scalar(node, "exception") else { return nil }
    guard case .restart = outcome else {
      report(node, "'exception:' names a restart's exception; an 'error:' rule's name is its exception already")
      return nil
    }
    let valid =
      !text.isEmpty && text.first?.isLetter == true
      && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
    if !valid { report(node, "'exception:' must be one name such as NotAuthorizedException, not '\(text)'") }
    return valid ? text : nil
  }

  /// The one outcome of a rule: `goto:` a step or route, `error:` or `restart:`.
  func ruleOutcome(_ fields: [Field], _ node: Node, routeContext: Int?) -> Outcome? {
    let outcomeKeys = fields.filter { ["goto", "error", "restart"].contains($0.key) }
    guard outcomeKeys.count == 1, let outcomeItem = outcomeKeys.first,
      let outcomeText = scalar(outcomeItem.value, outcomeItem.key)
    else {
      if outcomeKeys.count != 1 { report(node, "a rule needs exactly one of goto, error or restart") }
      return nil
    }
    switch outcomeItem.key {
    case "goto":
      if let s = stepIDs[outcomeText] {
        if s == 0 {
          report(outcomeItem.value, "a rule cannot go to signIn; use 'restart: REASON' to end the flow")
          return nil
        }
        return .step(s)
      } else if let r = routeIDs[outcomeText] {
        if let routeContext { routeReferences[routeContext, default: []].append((r, line(outcomeItem.value))) }
        return .route(r)
      } else {
        report(
          outcomeItem.value,
          "unknown step '\(outcomeText)'"
            + suggestion(outcomeText, Array(stepIDs.keys) + Array(routeIDs.keys)))
        return nil
      }
    case "error": return .error(outcomeText)
    default: return .restart(outcomeText)
    }

  }

  /// A rule's effects: its `set:` assignments and the built-in flags set by `verifies:` and
  /// `failAuthentication:`, all evaluated in the state before the rule.
  func ruleEffects(
    _ fields: [Field], _ node: Node, scope: ExprScope, failsAuthentication: Bool
  ) -> [(Int, Expr)] {
    var effects: [(Int, Expr)] = []
    for assignment in pairs(value(fields, "set"), "set") {
      guard let v = variableIndex[assignment.key] else {
        report(
          assignment.keyNode,
          "unknown variable '\(assignment.key)'"
            + suggestion(assignment.key, variables.filter { $0.scope == .flow }.map(\.name)))
        continue
      }
      let variable = variables[v]
      if variable.scope != .flow {
        report(assignment.keyNode, "'\(assignment.key)' is a configuration variable; rules may only set flow variables")
        continue
      }
      if variable.doc.hasPrefix("built in") {
        report(assignment.keyNode, "'\(assignment.key)' is built in; use 'verifies:' or 'failAuthentication:' instead")
        continue
      }
      guard let text = scalar(assignment.value, "the value of '\(assignment.key)'") else { continue }
      if case .enumeration(let names) = variable.domain, let i = names.firstIndex(of: text) {
        effects.append((v, .constant(i)))
        continue
      }
      if let e = expression(assignment.value, text, in: scope, expecting: scope.type(of: variable)) {
        effects.append((v, e))
      }
    }
    if let verifiesNode = value(fields, "verifies") {
      let factors: [Node] = {
        if case .sequence = verifiesNode { return sequence(verifiesNode, "verifies") }
        return [verifiesNode]
      }()
      for f in factors {
        switch scalar(f, "a factor") {
        case "firstFactor": if let b = builtins { effects.append((b.firstFactorVerified, .true)) }
        case "mfa": if let b = builtins { effects.append((b.mfaVerified, .true)) }
        case let other?:
          report(f, "verifies takes firstFactor or mfa, not '\(other)'\(suggestion(other, ["firstFactor", "mfa"]))")
        case nil: break
        }
      }
    }
    if failsAuthentication, let b = builtins {
      effects.append((b.authFailed, .true))
    }
    return effects
  }

  func checkRouteCycles(_ routeItems: [Field]) {
    var state = [Int: Int]()  // 1 = visiting, 2 = done
    // The routes being visited, outermost first: one buffer, not a copy per level (a chain of
    // 10,000 routes held 5 * 10^7 entries).
    var path: [Int] = []
    func visit(_ r: Int) {
      if state[r] == 2 { return }
      if state[r] == 1 {
        let cycle = (path.drop { $0 != r } + [r]).map { routeItems[$0].key }.joined(separator: " -> ")
        report(routeItems[r].keyNode, "routes form a cycle: \(cycle)")
        return
      }
      state[r] = 1
      path.append(r)
      for (next, _) in routeReferences[r] ?? [] { visit(next) }
      path.removeLast()
      state[r] = 2
    }
    for r in routeReferences.keys.sorted() { visit(r) }
  }
}
