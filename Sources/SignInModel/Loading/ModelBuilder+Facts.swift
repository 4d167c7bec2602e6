import Yams

/// The factor-facts pass: `factor:`, `action:`, `delivery:`, `carries:` and `choices:` on steps,
/// and the top-level `factors:`, `preferences:` and `failedAttempts:` sections.
extension ModelBuilder {
  static let factKeys = ["factor", "action", "delivery", "carries", "choices"]

  /// A step's facts, read from its own fields; `offers` is the step's selection, if any.
  func stepFacts(_ fields: [Field], step id: String, offers: Offers?) -> StepFacts {
    let present = fields.filter { Self.factKeys.contains($0.key) }
    guard let first = present.first else { return StepFacts() }
    let factor = vocabularyValue(value(fields, "factor"), Factor.self, Factor.spellings, "factor")
    var action = vocabularyValue(value(fields, "action"), StepAction.self, StepAction.spellings, "action")
    if action == nil, factor != nil, value(fields, "action") == nil { action = .challenge }
    let delivery = vocabularyValue(value(fields, "delivery"), Delivery.self, Delivery.spellings, "delivery")
    let carries = sequence(value(fields, "carries"), "carries").compactMap {
      vocabularyValue($0, StepDetail.self, StepDetail.spellings, "a detail")
    }
    let choices = stepChoices(value(fields, "choices"), step: id, offers: offers)
    if action?.isSelection == true {
      if offers == nil { report(first.keyNode, "step '\(id)' selects a factor but has no 'offers:'") }
      if factor != nil { report(value(fields, "factor"), "a selection step names its factors under 'choices:'") }
    } else if !choices.isEmpty {
      report(value(fields, "choices"), "'choices:' belongs to a step with 'action: select' or 'selectSetup'")
    }
    if factor == nil && (action == .challenge || action == .setup) {
      report(first.keyNode, "step '\(id)' says 'action: \(action!.rawValue)' but names no 'factor:'")
    }
    if let factor, let delivery, !factor.deliveries.contains(delivery) {
      let allowed = factor.deliveries.map(\.rawValue).joined(separator: " or ")
      report(
        value(fields, "delivery"),
        "'\(factor.rawValue)' is not delivered by \(delivery.rawValue)"
          + (allowed.isEmpty ? " (it sends no code)" : " (only by \(allowed))"))
    }
    return StepFacts(
      factor: factor, action: action, delivery: delivery, carries: carries, choices: choices,
      line: line(first.keyNode))
  }

  /// `choices: {OPTION: FACTOR}`: what each option of a selection step stands for.
  func stepChoices(_ node: Node?, step id: String, offers: Offers?) -> [(option: String, factor: FactorRef)] {
    var result: [(option: String, factor: FactorRef)] = []
    let optionNames = offers.map { optionSets[$0.optionSet].options.map(\.name) } ?? []
    for item in pairs(node, "choices of '\(id)'") {
      if offers != nil, !optionNames.contains(item.key) {
        report(item.keyNode, "step '\(id)' offers no option '\(item.key)'\(suggestion(item.key, optionNames))")
        continue
      }
      guard let ref = factorRef(item.value) else { continue }
      result.append((item.key, ref))
    }
    return result
  }

  /// A value of a closed vocabulary, reported with a suggestion when unknown.
  func vocabularyValue<T: RawRepresentable>(
    _ node: Node?, _ type: T.Type, _ spellings: [String], _ what: String
  ) -> T? where T.RawValue == String {
    guard let node, let text = scalar(node, what) else { return nil }
    if let v = T(rawValue: text) { return v }
    let known = spellings.joined(separator: ", ")
    report(node, "unknown \(what) '\(text)'\(suggestion(text, spellings)) (one of \(known))")
    return nil
  }

  /// `FACTOR` or `FACTOR.DELIVERY`, reported with a suggestion when unknown.
  func factorRef(_ node: Node?) -> FactorRef? {
    guard let node, let text = scalar(node, "a factor") else { return nil }
    if let ref = FactorRef(parsing: text) { return ref }
    report(
      node,
      "unknown factor '\(text)'\(suggestion(text, FactorRef.spellings)) (one of "
        + Factor.spellings.joined(separator: ", ") + ", optionally with .sms or .email)")
    return nil
  }

  /// The top-level fact sections, read after the steps; then every step's factor is checked
  /// against `factors:`.
  func readFacts(_ top: [Field]) {
    readFactorAvailability(value(top, "factors"))
    readPreferences(value(top, "preferences"))
    readFailedAttempts(value(top, "failedAttempts"))
    checkStepFactorsDeclared(value(top, "factors"))
  }

  /// `factors: {FACTOR: {usable: EXPR, setUp: EXPR}}` (or `FACTOR: EXPR` for `usable:` alone).
  func readFactorAvailability(_ node: Node?) {
    for item in pairs(node, "factors") {
      guard let ref = factorRef(item.keyNode) else { continue }
      var usableNode: Node? = item.value
      var setUpNode: Node?
      if case .mapping = item.value {
        let fields = pairs(item.value, "factor '\(item.key)'")
        checkKeys(fields, allowed: ["usable", "setUp", "doc"], "factor '\(item.key)'")
        usableNode = value(fields, "usable")
        setUpNode = value(fields, "setUp")
        if usableNode == nil { report(item.keyNode, "factor '\(item.key)' needs 'usable: EXPR'") }
      }
      guard let usable = configurationExpression(usableNode, "the usability of '\(item.key)'") else { continue }
      let setUp = configurationExpression(setUpNode, "when '\(item.key)' can be set up")
      factorAvailability.append(
        FactorAvailability(
          factor: ref, usable: usable.expr, usableText: usable.text, setUp: setUp?.expr, setUpText: setUp?.text,
          line: line(item.keyNode)))
    }
  }

  func configurationExpression(_ node: Node?, _ what: String) -> (expr: Expr, text: String)? {
    guard let node, let text = scalar(node, what),
      let expr = expression(node, text, in: scope, expecting: .bool)
    else { return nil }
    checkConfigurationOnly(expr, node, what)
    return (expr, text)
  }

  /// `preferences: {VARIABLE: {role: mfa|firstFactor, values: {VALUE: FACTOR}}}`.
  func readPreferences(_ node: Node?) {
    for item in pairs(node, "preferences") {
      let fields = pairs(item.value, "preference '\(item.key)'")
      checkKeys(fields, allowed: ["role", "values", "doc"], "preference '\(item.key)'")
      guard let v = variableIndex[item.key], variables[v].scope == .configuration else {
        if poisoned.contains(item.key) { continue }  // a broken declaration was reported already
        let names = variables.filter { $0.scope == .configuration }.map(\.name)
        report(item.keyNode, "unknown configuration variable '\(item.key)'\(suggestion(item.key, names))")
        continue
      }
      let roleNode = value(fields, "role")
      if roleNode == nil { report(item.keyNode, "preference '\(item.key)' needs 'role: mfa' or 'role: firstFactor'") }
      let role = vocabularyValue(roleNode, Preference.Role.self, Preference.Role.allCases.map(\.rawValue), "role")
      var values: [(value: Int, factor: FactorRef)] = []
      let domain = variables[v].domain
      for entry in pairs(value(fields, "values"), "values of '\(item.key)'") {
        guard let stored = parseValue(entry.key, in: domain) else {
          report(entry.keyNode, "'\(entry.key)' is not in the domain \(domain.spelling) of '\(item.key)'")
          continue
        }
        if let ref = factorRef(entry.value) { values.append((stored, ref)) }
      }
      if values.isEmpty { report(item.keyNode, "preference '\(item.key)' maps no value to a factor") }
      if let role { preferences.append(Preference(variable: v, role: role, values: values, line: line(item.keyNode))) }
    }
  }

  /// `failedAttempts: {counter: FLOW_VARIABLE, limit: N, responses: [RESPONSE, …]}`.
  func readFailedAttempts(_ node: Node?) {
    guard let node else { return }
    let fields = pairs(node, "failedAttempts")
    checkKeys(fields, allowed: ["counter", "limit", "responses", "doc"], "failedAttempts")
    var counter: Int?
    if let counterNode = value(fields, "counter"), let name = scalar(counterNode, "counter") {
      if let v = variableIndex[name], variables[v].scope == .flow, case .range = variables[v].domain {
        counter = v
      } else if !poisoned.contains(name) {  // a broken declaration was reported already
        let names = variables.filter { $0.scope == .flow }.map(\.name)
        report(
          counterNode,
          "the counter must be a flow variable with a range domain, not '\(name)'"
            + suggestion(name, names))
      }
    } else {
      report(node, "failedAttempts needs 'counter: FLOW_VARIABLE'")
    }
    var limit: Int?
    if let limitNode = value(fields, "limit"), let text = scalar(limitNode, "limit") {
      if let n = Int(text), n >= 1 { limit = n } else { report(limitNode, "'limit:' must be a positive number") }
    } else {
      report(node, "failedAttempts needs 'limit: N' (the pool's limit on failed attempts in one flow)")
    }
    let responses = sequence(value(fields, "responses"), "responses").compactMap { n -> Int? in
      scalar(n, "a response").flatMap { responseNumber($0, n) }
    }
    if value(fields, "responses") == nil { report(node, "failedAttempts needs 'responses: [RESPONSE, …]'") }
    if let counter, let limit {
      failedAttempts = FailedAttempts(counter: counter, limit: limit, responses: responses, line: line(node))
    }
  }

  /// Every factor a step challenges, sets up or offers must be declared under `factors:`.
  func checkStepFactorsDeclared(_ factorsNode: Node?) {
    func declared(_ ref: FactorRef) -> FactorAvailability? {
      factorAvailability.first { $0.factor == ref } ?? factorAvailability.first { $0.factor == FactorRef(ref.factor) }
    }
    for step in steps {
      let facts = step.facts
      if let ref = facts.factorRef {
        if let availability = declared(ref) {
          if facts.action == .setup && availability.setUp == nil {
            diagnostics.append(
              ModelDiagnostic(
                file: file, line: facts.line, column: 0,
                message: "step '\(step.id)' sets up '\(ref)', but 'factors:' gives no 'setUp:' for it"))
          }
        } else {
          diagnostics.append(
            ModelDiagnostic(
              file: file, line: facts.line, column: 0,
              message: "step '\(step.id)' \(facts.action == .setup ? "sets up" : "challenges") '\(ref)',"
                + " which 'factors:' does not declare"))
        }
      }
      for choice in facts.choices where declared(choice.factor) == nil {
        diagnostics.append(
          ModelDiagnostic(
            file: file, line: facts.line, column: 0,
            message: "option '\(choice.option)' of step '\(step.id)' stands for '\(choice.factor)',"
              + " which 'factors:' does not declare"))
      }
    }
  }
}
