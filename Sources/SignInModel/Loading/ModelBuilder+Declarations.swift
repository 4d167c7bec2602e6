import Yams

/// The declaration passes: header, variables, definitions, constraints, option sets,
/// responses, the names of steps and routes, and the default rules.
extension ModelBuilder {
  /// The format version (`format:`), read before anything else.
  func readFormat(_ top: [Field]) {
    if let formatNode = value(top, "format"), let text = scalar(formatNode, "format") {
      if let version = Int(text), version >= 1 {
        header.formatVersion = version
        if version > ModelFormat.current {
          header.formatIsKnown = false
          report(
            formatNode,
            "this model is in format \(version); this signin-spec reads formats "
              + "\(ModelFormat.oldest)...\(ModelFormat.current): use a newer signin-spec "
              + "(see docs/guide/models.md, \"Model format versions\")")
        }
      } else {
        header.formatIsKnown = false
        let range = "\(ModelFormat.oldest) to \(ModelFormat.current)"
        report(formatNode, "'format:' must be a whole number from \(range), not '\(text)'")
      }
    }
  }

  /// The model's name, generation, summary, sources and platforms.
  func readHeader(_ top: [Field], root: Node) {
    header.name = value(top, "model").flatMap { scalar($0, "model") } ?? ""
    if header.name.isEmpty { report(root, "missing 'model: NAME'") }
    header.generation = value(top, "generation").flatMap { scalar($0, "generation") } ?? ""
    header.summary = value(top, "summary").flatMap { scalar($0, "summary") } ?? ""
    header.sources = sequence(value(top, "sources"), "sources").compactMap { scalar($0, "a source") }
    platforms = sequence(value(top, "platforms"), "platforms").compactMap { scalar($0, "a platform") }
  }

  /// Configuration variables, flow variables, then the built-in flow variables.
  func declareVariables(_ top: [Field], root: Node) {
    let configNode = value(top, "configuration")
    if configNode == nil { report(root, "missing 'configuration:' (the pool and user variables)") }
    for item in pairs(configNode, "configuration") { declareVariable(item, scope: .configuration) }
    if variables.isEmpty { report(configNode ?? root, "the configuration declares no variables") }
    for item in pairs(value(top, "flow"), "flow") { declareVariable(item, scope: .flow) }
    let builtinNames = [Builtins.names.firstFactor, Builtins.names.mfa, Builtins.names.authFailed]
    let builtinDocs = [
      "set by `verifies: firstFactor`", "set by `verifies: mfa`", "set by `failAuthentication: true`",
    ]
    var indices: [Int] = []
    for (name, doc) in zip(builtinNames, builtinDocs) {
      if let existing = variableIndex[name] {
        report(configNode, "'\(name)' is built in and must not be declared")
        indices.append(existing)
        continue
      }
      variableIndex[name] = variables.count
      indices.append(variables.count)
      variables.append(Variable(name: name, domain: .bool, scope: .flow, initial: 0, doc: "built in: \(doc)"))
    }
    builtins = Builtins(firstFactorVerified: indices[0], mfaVerified: indices[1], authFailed: indices[2])
  }

  /// Named expressions, in order (each may use the ones before it), and the two the
  /// invariants read: `canSignIn` and `mfaRequired`.
  func declareDefinitions(_ top: [Field]) {
    for item in pairs(value(top, "definitions"), "definitions") {
      guard let text = scalar(item.value, "definition '\(item.key)'") else { continue }
      if variableIndex[item.key] != nil {
        report(item.keyNode, "definition '\(item.key)' has the name of a variable")
        continue
      }
      do {
        definitions[item.key] = try ExprTypeChecker(scope: scope).checkAny(text)
      } catch {
        if !isCascade(error) {
          report(item.value, "in definition '\(item.key)': \(error.message)", offset: error.offset)
        }
        poisoned.insert(item.key)  // its uses are not reported again
      }
    }
    func booleanDefinition(_ name: String) -> Expr? {
      guard let definition = definitions[name] else { return nil }
      if definition.type != .bool {
        report(value(top, "definitions"), "definition '\(name)' must be a bool expression, not \(definition.type)")
        return nil
      }
      return definition.expr
    }
    canSignIn = booleanDefinition("canSignIn")
    mfaRequired = booleanDefinition("mfaRequired")
    if let canSignIn { checkConfigurationOnly(canSignIn, value(top, "definitions"), "definition 'canSignIn'") }
  }

  /// Assumptions on configurations, over configuration variables only.
  func declareConstraints(_ top: [Field]) {
    for node in sequence(value(top, "constraints"), "constraints") {
      guard let text = scalar(node, "a constraint"),
        let expr = expression(node, text, in: scope, expecting: .bool)
      else { continue }
      checkConfigurationOnly(expr, node, "a constraint")
      constraints.append(Constraint(expr: expr, text: text, line: line(node)))
    }
  }

  /// Option sets: each option with the condition under which the user can use it.
  func declareOptionSets(_ top: [Field]) {
    for item in pairs(value(top, "options"), "options") {
      var options: [OptionSet.Option] = []
      for option in pairs(item.value, "option set '\(item.key)'") {
        guard let text = scalar(option.value, "option '\(option.key)'"),
          let expr = expression(option.value, text, in: scope, expecting: .bool)
        else { continue }
        checkConfigurationOnly(expr, option.value, "the usability of '\(option.key)'")
        options.append(.init(name: option.key, usable: expr, text: text))
      }
      if options.isEmpty { report(item.keyNode, "option set '\(item.key)' is empty") }
      optionSets.append(OptionSet(name: item.key, options: options))
    }
  }

  /// The response classes users and the server produce.
  func declareResponses(_ top: [Field], root: Node) {
    for item in pairs(value(top, "responses"), "responses") {
      responseIndex[item.key] = responses.count
      guard case .mapping = item.value else {
        responses.append(ResponseClass(name: item.key, summary: scalar(item.value, "response '\(item.key)'") ?? ""))
        continue
      }
      // `NAME: {summary: TEXT, errors: {EXCEPTION: {PLATFORM: {error: NAME}} | {}}}` (format 3)
      let what = "response '\(item.key)'"
      if header.formatVersion < 3 {
        report(
          item.keyNode, "\(what) as a mapping (summary:, errors:) needs format 3 (write 'format: 3' as the first key)")
      }
      let fields = pairs(item.value, what)
      checkKeys(fields, allowed: ["summary", "errors"], what)
      let summary = value(fields, "summary").flatMap { scalar($0, "summary") } ?? ""
      if value(fields, "summary") == nil { report(item.keyNode, "\(what) needs 'summary:'") }
      var errors: [ResponseClass.CarriedError] = []
      for error in pairs(value(fields, "errors"), "the errors of \(what)") {
        let isName =
          error.key.first?.isLetter == true && error.key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." }
        guard isName else {
          report(error.keyNode, "'\(error.key)' in the errors of \(what) is not an exception name")
          continue
        }
        let platformNode: Node? =
          if case .scalar(let text) = error.value, text.string.isEmpty || text.string == "~" {
            nil
          } else {
            error.value
          }
        errors.append(.init(exception: error.key, platforms: platformOutcomes(platformNode)))
      }
      responses.append(ResponseClass(name: item.key, summary: summary, errors: errors))
    }
    if responses.isEmpty { report(root, "missing 'responses:' (the response classes users and the server produce)") }
  }

  /// Step and route names, numbered before any rule is read so rules can refer to any of them.
  func declareStepAndRouteNames(
    _ top: [Field], root: Node
  ) -> (steps: [Field], routes: [Field]) {
    let stepItems = pairs(value(top, "steps"), "steps")
    if value(top, "steps") == nil { report(root, "missing 'steps:'") }
    let routeItems = pairs(value(top, "routes"), "routes")
    stepIDs[Self.entryStepID] = 0
    for item in stepItems {
      if item.key == Self.entryStepID {
        report(item.keyNode, "'signIn' is the entry; declare its responses under the top-level 'signIn:' key")
        continue
      }
      stepIDs[item.key] = stepIDs.count
    }
    for (i, item) in routeItems.enumerated() {
      if stepIDs[item.key] != nil {
        report(item.keyNode, "route '\(item.key)' has the name of a step")
        continue
      }
      routeIDs[item.key] = i
    }
    return (stepItems, routeItems)
  }

  /// The rules every challenge step gets unless it says otherwise.
  func readDefaults(_ top: [Field]) {
    let defaultItems = pairs(value(top, "defaults"), "defaults")
    checkKeys(defaultItems, allowed: ["responses"], "defaults")
    for item in pairs(value(defaultItems, "responses"), "default responses") {
      guard let r = responseNumber(item.key, item.keyNode) else { continue }
      defaultResponses.append((r, rules(item.value, scope: scope, routeContext: nil)))
    }
  }

  func checkConfigurationOnly(_ expr: Expr, _ node: Node?, _ what: String) {
    for v in expr.variables where variables[v].scope == .flow {
      report(node, "\(what) reads the flow variable '\(variables[v].name)'; only configuration variables are allowed")
      return
    }
  }

  func declareVariable(_ item: Field, scope: VariableScope) {
    if variableIndex[item.key] != nil {
      report(item.keyNode, "duplicate variable '\(item.key)'")
      return
    }
    let badCharacter = item.key.contains { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
    if badCharacter || item.key.first?.isNumber == true {
      report(item.keyNode, "'\(item.key)' is not a valid variable name (letters, digits, '_' and '.')")
      return
    }
    var domainNode: Node? = item.value
    var doc = ""
    var initialNode: Node?
    var defaultNode: Node?
    if case .mapping = item.value {
      let fields = pairs(item.value, "variable '\(item.key)'")
      checkKeys(fields, allowed: ["domain", "initial", "default", "doc"], "variable '\(item.key)'")
      domainNode = value(fields, "domain")
      doc = value(fields, "doc").flatMap { scalar($0, "doc") } ?? ""
      initialNode = value(fields, "initial")
      defaultNode = value(fields, "default")
    }
    guard let domainNode else {
      report(item.keyNode, "variable '\(item.key)' has no domain")
      return
    }
    guard let domain = domain(domainNode, variable: item.key) else {
      poisoned.insert(item.key)
      return
    }
    var initial = domain.values.first ?? 0
    if scope == .configuration, let initialNode {
      report(initialNode, "configuration variable '\(item.key)' cannot have an initial value; every value is checked")
    }
    var defaultValue: Int?
    if let defaultNode {
      if scope == .flow {
        report(
          defaultNode,
          "flow variable '\(item.key)' starts at its 'initial:' value; 'default:' is for configuration variables")
      } else if let text = scalar(defaultNode, "default") {
        if let v = parseValue(text, in: domain) {
          defaultValue = v
        } else {
          report(defaultNode, "default value '\(text)' is not in the domain \(domain.spelling) of '\(item.key)'")
        }
      }
    }
    if scope == .flow {
      if let initialNode, let text = scalar(initialNode, "initial") {
        if let v = parseValue(text, in: domain) {
          initial = v
        } else {
          report(initialNode, "initial value '\(text)' is not in the domain \(domain.spelling) of '\(item.key)'")
        }
      }
    }
    variableIndex[item.key] = variables.count
    variables.append(
      Variable(
        name: item.key, domain: domain, scope: scope, initial: initial, doc: doc, line: line(item.keyNode),
        defaultValue: defaultValue))
  }

  func domain(_ node: Node, variable: String) -> Domain? {
    if case .sequence(let s) = node {
      let names = s.compactMap { scalar($0, "a value of '\(variable)'") }
      if names.isEmpty {
        report(node, "variable '\(variable)' has an empty domain")
        return nil
      }
      if Set(names).count != names.count {
        report(node, "variable '\(variable)' lists a value twice")
        return nil
      }
      for n in names where ["true", "false"].contains(n) || n.first?.isNumber == true {
        report(node, "'\(n)' cannot be an enumeration value of '\(variable)'; use 'bool' or a range")
        return nil
      }
      return .enumeration(names)
    }
    guard let text = scalar(node, "the domain of '\(variable)'") else { return nil }
    if text == "bool" { return .bool }
    let parts = text.split(separator: ".", omittingEmptySubsequences: true)
    if text.contains(".."), parts.count == 2 {
      let bounds = parts.map { $0.trimmingCharacters(in: .whitespaces) }
      guard let lo = Int(bounds[0]), let hi = Int(bounds[1]),
        ModelLimits.integers.contains(lo), ModelLimits.integers.contains(hi)
      else {
        let limits = "\(ModelLimits.integers.lowerBound)...\(ModelLimits.integers.upperBound)"
        report(node, "the bounds of '\(variable)' must be integers in \(limits), not '\(text)'")
        return nil
      }
      if hi < lo {
        report(node, "variable '\(variable)' has an empty domain \(lo)..\(hi)")
        return nil
      }
      if hi - lo + 1 > ModelLimits.maxRangeValues {
        report(
          node,
          "the domain \(lo)..\(hi) of '\(variable)' has \(hi - lo + 1) values; a range may have at most "
            + "\(ModelLimits.maxRangeValues) (every value is checked)")
        return nil
      }
      return .range(lo...hi)
    }
    report(node, "the domain of '\(variable)' must be bool, LOW..HIGH or a list of names, not '\(text)'")
    return nil
  }

  func parseValue(_ text: String, in domain: Domain) -> Int? {
    switch domain {
    case .bool: return text == "true" ? 1 : text == "false" ? 0 : nil
    case .range(let r): return Int(text).flatMap { r.contains($0) ? $0 : nil }
    case .enumeration(let names): return names.firstIndex(of: text)
    }
  }
}
