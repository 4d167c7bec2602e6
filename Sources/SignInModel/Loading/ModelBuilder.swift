import Yams

/// Walks a composed YAML tree and builds a `SignInModel`, collecting diagnostics
/// instead of stopping at the first one.
final class ModelBuilder {
  let file: String
  let hash: String
  private(set) var diagnostics: [ModelDiagnostic] = []

  private static let topLevelKeys = [
    "model", "generation", "summary", "sources", "platforms", "configuration", "flow", "constraints",
    "definitions", "options", "responses", "defaults", "signIn", "steps", "routes",
  ]
  private static let ruleKeys = ["when", "goto", "error", "restart", "set", "verifies", "failAuthentication", "note"]
  private static let stepKeys = ["summary", "names", "ends", "isSignedIn", "offers", "responses", "inherit", "without", "notes"]
  static let entryStepID = "signIn"

  private var variables: [Variable] = []
  private var variableIndex: [String: Int] = [:]
  /// Names declared with a broken domain: later uses are not reported again.
  private var poisoned: Set<String> = []
  private var definitions: [String: (Expr, ExprType)] = [:]
  private var platforms: [String] = []
  private var responseIndex: [String: Int] = [:]
  private var stepIDs: [String: Int] = [:]
  private var routeIDs: [String: Int] = [:]
  private var optionSets: [OptionSet] = []
  private var routeReferences: [Int: [(Int, Int)]] = [:]  // route -> [(route, line)]

  init(file: String, hash: String) {
    self.file = file
    self.hash = hash
  }

  // MARK: - Diagnostics helpers

  private func report(_ node: Node?, _ message: String, offset: Int = 0) {
    let mark = node?.mark
    var column = mark?.column ?? 0
    if column > 0 {
      // Quoted scalars start one column before their text.
      let quoted = node?.scalar.map { $0.style == .doubleQuoted || $0.style == .singleQuoted } ?? false
      column += offset + (quoted ? 1 : 0)
    }
    diagnostics.append(ModelDiagnostic(file: file, line: mark?.line ?? 0, column: column, message: message))
  }

  private func line(_ node: Node?) -> Int { node?.mark?.line ?? 0 }

  private func suggestion(_ name: String, _ candidates: [String]) -> String {
    Suggestions.closest(to: name, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
  }

  /// The pairs of a mapping node, with duplicate keys reported.
  private func pairs(_ node: Node?, _ what: String) -> [(key: String, keyNode: Node, value: Node)] {
    guard let node else { return [] }
    guard case .mapping(let mapping) = node else {
      report(node, "\(what) must be a mapping (name: value, …)")
      return []
    }
    var seen: [String: Int] = [:]
    var result: [(String, Node, Node)] = []
    for (key, value) in mapping {
      guard let name = key.string else {
        report(key, "\(what): keys must be plain names")
        continue
      }
      if let first = seen[name] {
        report(key, "duplicate name '\(name)' in \(what) (first at line \(first))")
        continue
      }
      seen[name] = line(key)
      result.append((name, key, value))
    }
    return result
  }

  private func scalar(_ node: Node?, _ what: String) -> String? {
    guard let node else { return nil }
    guard case .scalar(let s) = node else {
      report(node, "\(what) must be a single value")
      return nil
    }
    return s.string
  }

  private func sequence(_ node: Node?, _ what: String) -> [Node] {
    guard let node else { return [] }
    guard case .sequence(let s) = node else {
      report(node, "\(what) must be a list")
      return []
    }
    return Array(s)
  }

  private func checkKeys(_ items: [(key: String, keyNode: Node, value: Node)], allowed: [String], _ what: String) {
    for item in items where !allowed.contains(item.key) {
      report(item.keyNode, "unknown key '\(item.key)' in \(what)\(suggestion(item.key, allowed))")
    }
  }

  private func value(_ items: [(key: String, keyNode: Node, value: Node)], _ key: String) -> Node? {
    items.first { $0.key == key }?.value
  }

  private func bool(_ node: Node?, _ what: String, default fallback: Bool) -> Bool {
    guard let node, let text = scalar(node, what) else { return fallback }
    switch text {
    case "true", "yes": return true
    case "false", "no": return false
    default:
      report(node, "\(what) must be true or false, not '\(text)'")
      return fallback
    }
  }

  // MARK: - Expressions

  private var scope: ExprScope {
    ExprScope(variables: variables, variableIndex: variableIndex, definitions: definitions)
  }

  private func expression(_ node: Node?, _ text: String, in scope: ExprScope, expecting type: ExprType) -> Expr? {
    do {
      return try ExprTypeChecker(scope: scope).check(text, expecting: type)
    } catch {
      if !isCascade(error) { report(node, "in '\(text)': \(error.message)", offset: error.offset) }
      return nil
    }
  }

  /// An unknown-name error about a variable whose declaration was already reported.
  private func isCascade(_ error: ExpressionError) -> Bool {
    poisoned.contains { error.message.hasPrefix("unknown name '\($0)'") }
  }

  // MARK: - Build

  func build(_ root: Node) -> SignInModel? {
    let top = pairs(root, "the model file")
    guard !top.isEmpty else {
      report(root, "the model file must be a mapping with keys such as model, configuration, steps")
      return nil
    }
    checkKeys(top, allowed: Self.topLevelKeys, "the model file")
    let name = value(top, "model").flatMap { scalar($0, "model") } ?? ""
    if name.isEmpty { report(root, "missing 'model: NAME'") }
    let generation = value(top, "generation").flatMap { scalar($0, "generation") } ?? ""
    let summary = value(top, "summary").flatMap { scalar($0, "summary") } ?? ""
    let sources = sequence(value(top, "sources"), "sources").compactMap { scalar($0, "a source") }
    platforms = sequence(value(top, "platforms"), "platforms").compactMap { scalar($0, "a platform") }

    // Variables.
    let configNode = value(top, "configuration")
    if configNode == nil { report(root, "missing 'configuration:' (the pool and user variables)") }
    for item in pairs(configNode, "configuration") { declareVariable(item, scope: .configuration) }
    if variables.isEmpty { report(configNode ?? root, "the configuration declares no variables") }
    for item in pairs(value(top, "flow"), "flow") { declareVariable(item, scope: .flow) }
    let builtinNames = [Builtins.names.firstFactor, Builtins.names.mfa, Builtins.names.authFailed]
    let builtinDocs = [
      "set by `verifies: firstFactor`", "set by `verifies: mfa`", "set by `failAuthentication: true`",
    ]
    for (name, doc) in zip(builtinNames, builtinDocs) {
      if variableIndex[name] != nil {
        report(configNode, "'\(name)' is built in and must not be declared")
        continue
      }
      variableIndex[name] = variables.count
      variables.append(Variable(name: name, domain: .bool, scope: .flow, initial: 0, doc: "built in: \(doc)"))
    }
    let builtins = Builtins(
      firstFactorVerified: variableIndex[builtinNames[0]]!, mfaVerified: variableIndex[builtinNames[1]]!,
      authFailed: variableIndex[builtinNames[2]]!)

    // Definitions, in order: each may use the ones before it.
    for item in pairs(value(top, "definitions"), "definitions") {
      guard let text = scalar(item.value, "definition '\(item.key)'") else { continue }
      if variableIndex[item.key] != nil {
        report(item.keyNode, "definition '\(item.key)' has the name of a variable")
        continue
      }
      do {
        definitions[item.key] = try ExprTypeChecker(scope: scope).checkAny(text)
      } catch {
        if !isCascade(error) { report(item.value, "in definition '\(item.key)': \(error.message)", offset: error.offset) }
      }
    }
    func booleanDefinition(_ name: String) -> Expr? {
      guard let (expr, type) = definitions[name] else { return nil }
      if type != .bool {
        report(value(top, "definitions"), "definition '\(name)' must be a bool expression, not \(type)")
        return nil
      }
      return expr
    }
    let canSignIn = booleanDefinition("canSignIn")
    let mfaRequired = booleanDefinition("mfaRequired")
    if let canSignIn { checkConfigurationOnly(canSignIn, value(top, "definitions"), "definition 'canSignIn'") }

    // Constraints.
    var constraints: [Constraint] = []
    for node in sequence(value(top, "constraints"), "constraints") {
      guard let text = scalar(node, "a constraint"),
        let expr = expression(node, text, in: scope, expecting: .bool)
      else { continue }
      checkConfigurationOnly(expr, node, "a constraint")
      constraints.append(Constraint(expr: expr, text: text, line: line(node)))
    }

    // Option sets.
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

    // Response classes.
    var responses: [ResponseClass] = []
    for item in pairs(value(top, "responses"), "responses") {
      responseIndex[item.key] = responses.count
      responses.append(ResponseClass(name: item.key, summary: scalar(item.value, "response '\(item.key)'") ?? ""))
    }
    if responses.isEmpty { report(root, "missing 'responses:' (the response classes users and the server produce)") }

    // Step and route names first, so rules can refer to any of them.
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

    // Defaults.
    let defaultItems = pairs(value(top, "defaults"), "defaults")
    checkKeys(defaultItems, allowed: ["responses"], "defaults")
    var defaultResponses: [(Int, [Rule])] = []
    for item in pairs(value(defaultItems, "responses"), "default responses") {
      guard let r = responseNumber(item.key, item.keyNode) else { continue }
      defaultResponses.append((r, rules(item.value, scope: scope, routeContext: nil)))
    }

    // The entry.
    var steps: [Step] = []
    let entryNode = value(top, "signIn")
    if entryNode == nil { report(root, "missing 'signIn:' (the responses to the signIn call)") }
    let entryItems = pairs(entryNode, "signIn")
    checkKeys(entryItems, allowed: ["summary", "responses", "notes"], "signIn")
    let entryResponses = stepResponses(value(entryItems, "responses"), scope: scope, defaults: [], without: [])
    if entryNode != nil && entryResponses.isEmpty { report(entryNode, "signIn has no responses") }
    steps.append(Step(
      id: Self.entryStepID, summary: value(entryItems, "summary").flatMap { scalar($0, "summary") } ?? "the signIn call",
      kind: .entry, isSignedIn: false, names: [], offers: nil, responses: entryResponses,
      notes: notes(value(entryItems, "notes")), line: line(entryNode)))

    // Steps.
    for item in stepItems where item.key != Self.entryStepID {
      steps.append(step(item, defaults: defaultResponses))
    }
    if !steps.contains(where: { $0.kind == .signedIn }) && value(top, "steps") != nil {
      report(value(top, "steps"), "no step has 'ends: signedIn'; the model needs a done step")
    }

    // Routes.
    var routes: [Route] = []
    for (i, item) in routeItems.enumerated() where routeIDs[item.key] == i {
      let routeRules = rules(item.value, scope: scope, routeContext: i)
      if routeRules.isEmpty { report(item.keyNode, "route '\(item.key)' has no rules") }
      routes.append(Route(name: item.key, rules: routeRules, line: line(item.keyNode)))
    }
    checkRouteCycles(routeItems)

    guard diagnostics.isEmpty else { return nil }
    return SignInModel(
      name: name, generation: generation, summary: summary, file: file, contentHash: hash, platforms: platforms,
      sources: sources, variables: variables, constraints: constraints, canSignIn: canSignIn, mfaRequired: mfaRequired,
      optionSets: optionSets, responses: responses, steps: steps, routes: routes, builtins: builtins,
      configurationCount: variables.filter { $0.scope == .configuration }.count)
  }

  private func checkConfigurationOnly(_ expr: Expr, _ node: Node?, _ what: String) {
    for v in expr.variables where variables[v].scope == .flow {
      report(node, "\(what) reads the flow variable '\(variables[v].name)'; only configuration variables are allowed")
      return
    }
  }

  // MARK: - Variables

  private func declareVariable(_ item: (key: String, keyNode: Node, value: Node), scope: VariableScope) {
    if variableIndex[item.key] != nil {
      report(item.keyNode, "duplicate variable '\(item.key)'")
      return
    }
    if item.key.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) || item.key.first?.isNumber == true {
      report(item.keyNode, "'\(item.key)' is not a valid variable name (letters, digits, '_' and '.')")
      return
    }
    var domainNode: Node? = item.value
    var doc = ""
    var initialNode: Node?
    if case .mapping = item.value {
      let fields = pairs(item.value, "variable '\(item.key)'")
      checkKeys(fields, allowed: ["domain", "initial", "doc"], "variable '\(item.key)'")
      domainNode = value(fields, "domain")
      doc = value(fields, "doc").flatMap { scalar($0, "doc") } ?? ""
      initialNode = value(fields, "initial")
      if domainNode == nil {
        report(item.keyNode, "variable '\(item.key)' has no domain")
        return
      }
    }
    guard let domain = domain(domainNode!, variable: item.key) else {
      poisoned.insert(item.key)
      return
    }
    var initial = domain.values.first ?? 0
    if scope == .configuration, let initialNode {
      report(initialNode, "configuration variable '\(item.key)' cannot have an initial value; every value is checked")
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
    variables.append(Variable(name: item.key, domain: domain, scope: scope, initial: initial, doc: doc, line: line(item.keyNode)))
  }

  private func domain(_ node: Node, variable: String) -> Domain? {
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
    if text.contains(".."), parts.count == 2, let lo = Int(parts[0].trimmingCharacters(in: .whitespaces)),
      let hi = Int(parts[1].trimmingCharacters(in: .whitespaces))
    {
      if hi < lo {
        report(node, "variable '\(variable)' has an empty domain \(lo)..\(hi)")
        return nil
      }
      return .range(lo...hi)
    }
    report(node, "the domain of '\(variable)' must be bool, LOW..HIGH or a list of names, not '\(text)'")
    return nil
  }

  private func parseValue(_ text: String, in domain: Domain) -> Int? {
    switch domain {
    case .bool: return text == "true" ? 1 : text == "false" ? 0 : nil
    case .range(let r): return Int(text).flatMap { r.contains($0) ? $0 : nil }
    case .enumeration(let names): return names.firstIndex(of: text)
    }
  }

  // MARK: - Steps

  private func responseNumber(_ name: String, _ node: Node) -> Int? {
    if let r = responseIndex[name] { return r }
    report(node, "unknown response '\(name)'\(suggestion(name, Array(responseIndex.keys)))")
    return nil
  }

  private func notes(_ node: Node?) -> [SourceNote] {
    sequence(node, "notes").compactMap { n in
      let fields = pairs(n, "a note")
      checkKeys(fields, allowed: ["source", "platform", "text"], "a note")
      guard let text = value(fields, "text").flatMap({ scalar($0, "text") }) else {
        report(n, "a note needs 'text:'")
        return nil
      }
      let platform = value(fields, "platform").flatMap { scalar($0, "platform") }
      if let platform, !platforms.contains(platform) {
        report(n, "unknown platform '\(platform)'\(suggestion(platform, platforms))")
      }
      return SourceNote(
        source: value(fields, "source").flatMap { scalar($0, "source") } ?? "", platform: platform, text: text)
    }
  }

  private func stepResponses(_ node: Node?, scope: ExprScope, defaults: [(Int, [Rule])], without: [String]) -> [StepResponse] {
    var result: [StepResponse] = []
    for item in pairs(node, "responses") {
      guard let r = responseNumber(item.key, item.keyNode) else { continue }
      result.append(StepResponse(response: r, rules: rules(item.value, scope: scope, routeContext: nil), inherited: false))
    }
    for (r, defaultRules) in defaults where !result.contains(where: { $0.response == r }) {
      let name = responseIndex.first { $0.value == r }!.key
      if without.contains(name) { continue }
      result.append(StepResponse(response: r, rules: defaultRules, inherited: true))
    }
    return result
  }

  private func step(_ item: (key: String, keyNode: Node, value: Node), defaults: [(Int, [Rule])]) -> Step {
    let fields = pairs(item.value, "step '\(item.key)'")
    checkKeys(fields, allowed: Self.stepKeys, "step '\(item.key)'")
    var kind = StepKind.challenge
    if let endsNode = value(fields, "ends"), let ends = scalar(endsNode, "ends") {
      switch ends {
      case "signedIn": kind = .signedIn
      case "restart": kind = .restart
      default: report(endsNode, "'ends:' must be signedIn or restart, not '\(ends)'\(suggestion(ends, ["signedIn", "restart"]))")
      }
    }
    let isSignedIn = bool(value(fields, "isSignedIn"), "isSignedIn", default: kind == .signedIn)

    var names: [PlatformName] = []
    for entry in pairs(value(fields, "names"), "names of '\(item.key)'") {
      if !platforms.contains(entry.key) {
        report(entry.keyNode, "unknown platform '\(entry.key)'\(suggestion(entry.key, platforms)); declare it under 'platforms:'")
        continue
      }
      if case .mapping = entry.value {
        let form = pairs(entry.value, "the \(entry.key) name of '\(item.key)'")
        checkKeys(form, allowed: ["error", "absent"], "the \(entry.key) name of '\(item.key)'")
        if let e = value(form, "error").flatMap({ scalar($0, "error") }) {
          names.append(PlatformName(platform: entry.key, form: .error(e)))
        } else if let a = value(form, "absent").flatMap({ scalar($0, "absent") }) {
          names.append(PlatformName(platform: entry.key, form: .absent(a)))
        } else {
          report(entry.value, "a platform name is a name, {error: EXCEPTION} or {absent: REASON}")
        }
      } else if let n = scalar(entry.value, "the \(entry.key) name") {
        names.append(PlatformName(platform: entry.key, form: .name(n)))
      }
    }

    // Offers.
    var offers: Offers?
    var stepScope = scope
    if let offersNode = value(fields, "offers") {
      let offerFields = pairs(offersNode, "offers of '\(item.key)'")
      checkKeys(offerFields, allowed: ["from", "when"], "offers")
      if let fromNode = value(offerFields, "from"), let setName = scalar(fromNode, "from") {
        if let setIndex = optionSets.firstIndex(where: { $0.name == setName }) {
          var conditions: [(Int, Expr)] = []
          var offered: [String: Expr] = [:]
          for option in pairs(value(offerFields, "when"), "offers.when") {
            guard let o = optionSets[setIndex].options.firstIndex(where: { $0.name == option.key }) else {
              report(option.keyNode, "option set '\(setName)' has no option '\(option.key)'"
                + suggestion(option.key, optionSets[setIndex].options.map(\.name)))
              continue
            }
            guard let text = scalar(option.value, "offer condition"),
              let expr = expression(option.value, text, in: scope, expecting: .bool)
            else { continue }
            conditions.append((o, expr))
            offered[option.key] = expr
          }
          for option in optionSets[setIndex].options where offered[option.name] == nil {
            offered[option.name] = .false
          }
          offers = Offers(optionSet: setIndex, conditions: conditions)
          stepScope.offered = offered
        } else {
          report(fromNode, "unknown option set '\(setName)'\(suggestion(setName, optionSets.map(\.name)))")
        }
      } else {
        report(offersNode, "offers needs 'from: OPTION_SET'")
      }
    }

    var responses: [StepResponse] = []
    if kind == .challenge {
      let inherit = bool(value(fields, "inherit"), "inherit", default: true)
      let without = sequence(value(fields, "without"), "without").compactMap { n -> String? in
        guard let name = scalar(n, "a response") else { return nil }
        _ = responseNumber(name, n)
        return name
      }
      responses = stepResponses(
        value(fields, "responses"), scope: stepScope, defaults: inherit ? defaults : [], without: without)
      if responses.isEmpty { report(item.keyNode, "step '\(item.key)' accepts no response; a step that ends the flow needs 'ends:'") }
    } else if let r = value(fields, "responses") {
      report(r, "step '\(item.key)' ends the flow and cannot have responses")
    }
    return Step(
      id: item.key, summary: value(fields, "summary").flatMap { scalar($0, "summary") } ?? "", kind: kind,
      isSignedIn: isSignedIn, names: names, offers: offers, responses: responses,
      notes: notes(value(fields, "notes")), line: line(item.keyNode))
  }

  // MARK: - Rules

  private func rules(_ node: Node, scope: ExprScope, routeContext: Int?) -> [Rule] {
    sequence(node, "a response's rules").compactMap { rule($0, scope: scope, routeContext: routeContext) }
  }

  private func rule(_ node: Node, scope: ExprScope, routeContext: Int?) -> Rule? {
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
    let outcomeKeys = fields.filter { ["goto", "error", "restart"].contains($0.key) }
    guard outcomeKeys.count == 1, let outcomeItem = outcomeKeys.first,
      let outcomeText = scalar(outcomeItem.value, outcomeItem.key)
    else {
      if outcomeKeys.count != 1 { report(node, "a rule needs exactly one of goto, error or restart") }
      return nil
    }
    var outcome: Outcome
    switch outcomeItem.key {
    case "goto":
      if let s = stepIDs[outcomeText] {
        if s == 0 {
          report(outcomeItem.value, "a rule cannot go to signIn; use 'restart: REASON' to end the flow")
          return nil
        }
        outcome = .step(s)
      } else if let r = routeIDs[outcomeText] {
        outcome = .route(r)
        if let routeContext { routeReferences[routeContext, default: []].append((r, line(outcomeItem.value))) }
      } else {
        report(outcomeItem.value, "unknown step '\(outcomeText)'"
          + suggestion(outcomeText, Array(stepIDs.keys) + Array(routeIDs.keys)))
        return nil
      }
    case "error": outcome = .error(outcomeText)
    default: outcome = .restart(outcomeText)
    }

    var effects: [(Int, Expr)] = []
    for assignment in pairs(value(fields, "set"), "set") {
      guard let v = variableIndex[assignment.key] else {
        report(assignment.keyNode, "unknown variable '\(assignment.key)'"
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
    let builtinIndex = { (name: String) in self.variableIndex[name]! }
    if let verifiesNode = value(fields, "verifies") {
      let factors: [Node] = {
        if case .sequence = verifiesNode { return sequence(verifiesNode, "verifies") }
        return [verifiesNode]
      }()
      for f in factors {
        switch scalar(f, "a factor") {
        case "firstFactor": effects.append((builtinIndex(Builtins.names.firstFactor), .true))
        case "mfa": effects.append((builtinIndex(Builtins.names.mfa), .true))
        case let other?: report(f, "verifies takes firstFactor or mfa, not '\(other)'\(suggestion(other, ["firstFactor", "mfa"]))")
        case nil: break
        }
      }
    }
    let fails = bool(value(fields, "failAuthentication"), "failAuthentication", default: false)
    if fails { effects.append((builtinIndex(Builtins.names.authFailed), .true)) }
    var seen = Set<Int>()
    for (v, _) in effects where !seen.insert(v).inserted {
      report(node, "a rule sets '\(variables[v].name)' twice")
    }
    return Rule(
      guardExpr: guardExpr, guardText: guardText, effects: effects, outcome: outcome, failsAuthentication: fails,
      line: line(node))
  }

  private func checkRouteCycles(_ routeItems: [(key: String, keyNode: Node, value: Node)]) {
    var state = [Int: Int]()  // 1 = visiting, 2 = done
    func visit(_ r: Int, _ path: [Int]) {
      if state[r] == 2 { return }
      if state[r] == 1 {
        let cycle = (path.drop { $0 != r } + [r]).map { routeItems[$0].key }.joined(separator: " -> ")
        report(routeItems[r].keyNode, "routes form a cycle: \(cycle)")
        return
      }
      state[r] = 1
      for (next, _) in routeReferences[r] ?? [] { visit(next, path + [r]) }
      state[r] = 2
    }
    for r in routeReferences.keys.sorted() { visit(r, []) }
  }
}
