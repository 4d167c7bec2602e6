import SignInModel

/// Breadth-first search of one model for one configuration class. When a guard reads a
/// configuration variable the class has not fixed, the search suspends and names it; the caller
/// forks the class on its values and resumes a copy of the search per value, so no class
/// repeats the work its parent did (configuration classes, as the explicit engine).
struct SideExplorer {
  let model: SignInModel
  let vocabulary: Vocabulary
  private let responseIDs: [Int]
  private let stepOutcomes: [Int]
  private let restartOutcome: Int
  /// The outcome of each rule that names more than its step: an error, a restart with its
  /// exception, or what platforms report instead (`platforms:`), indexed by the rule's line
  /// (-1: none), read per transition.
  private let ruleOutcomes: [Int]
  /// Mixed-radix packing of the flow variables into one integer.
  private let radices: [Int]
  private let flowSpan: Int
  private let flowIndices: [Int]
  private let flowMins: [Int]

  /// Step and shared-flow state → vocabulary id, filled as states are met (the same for every class).
  private final class StateIDs { var ids: [Int: Int] = [:] }
  private let stateIDs = StateIDs()
  private let stepNames: [String]
  /// Flow variables the compared models share (by name and domain), for the transition keys.
  private let sharedFlow: [Int]

  init(
    model: SignInModel, vocabulary: Vocabulary, renames: [String: String] = [:], sharedFlow: Set<String> = [],
    platforms: [String]? = nil
  ) {
    let platforms = platforms ?? model.platforms
    self.model = model
    self.vocabulary = vocabulary
    let names = model.steps.map { renames[$0.id] ?? $0.id }
    stepNames = names
    self.sharedFlow = model.flowIndices.filter { sharedFlow.contains(model.variables[$0].name) }
    stepOutcomes = names.map(vocabulary.outcome)
    responseIDs = model.responses.map { vocabulary.response($0.name) }
    restartOutcome = vocabulary.outcome("restart")
    var outcomes: [Int: Int] = [:]
    for rule in model.steps.flatMap({ $0.responses.flatMap(\.rules) }) + model.routes.flatMap(\.rules) {
      switch rule.outcome {
      case .error(let e):
        outcomes[rule.line] = vocabulary.outcome("error \(e)" + Self.platformText(rule, platforms))
      case .restart:
        outcomes[rule.line] = vocabulary.outcome(
          "restart" + (rule.exception.map { " \($0)" } ?? "") + Self.platformText(rule, platforms))
      case .step(let t) where !rule.platformOutcomes.isEmpty:
        outcomes[rule.line] = vocabulary.outcome(names[t] + Self.platformText(rule, platforms))
      default: break
      }
    }
    var byLine = [Int](repeating: -1, count: (outcomes.keys.max() ?? 0) + 1)
    for (line, outcome) in outcomes { byLine[line] = outcome }
    ruleOutcomes = byLine
    var radices: [Int] = []
    var span = 1
    for i in model.flowIndices {
      let d = model.variables[i].domain
      radices.append(span)
      span *= (d.values.max() ?? 0) - (d.values.min() ?? 0) + 1
    }
    self.radices = radices
    self.flowSpan = span
    flowIndices = Array(model.flowIndices)
    flowMins = flowIndices.map { model.variables[$0].domain.values.min() ?? 0 }
  }

  /// A search in progress (suspended on a variable) or finished.
  struct Search {
    var valuation: [Int]
    var behaviour: SideBehaviour
    var states: [Int] = []
    var seen = IntTable(capacity: 64)
    var index = 0
  }

  func start(_ valuation: [Int]) -> Search {
    var search = Search(
      valuation: valuation, behaviour: SideBehaviour(vocabulary: vocabulary, steps: model.steps.count))
    let key = pack(step: 0, valuation)
    search.states = [key]
    _ = search.seen.insert(key, 0)
    return search
  }

  private func pack(step: Int, _ valuation: [Int], at offset: Int = 0) -> Int {
    var code = 0
    for k in flowIndices.indices { code += (valuation[offset + flowIndices[k]] - flowMins[k]) * radices[k] }
    return step * flowSpan + code
  }

  private func unpack(_ key: Int, into valuation: inout [Int]) -> Int {
    var code = key % flowSpan
    for k in flowIndices.indices.reversed() {
      valuation[flowIndices[k]] = code / radices[k] + flowMins[k]
      code %= radices[k]
    }
    return key / flowSpan
  }

  /// Runs `search` on; returns the model variable it needs, or nil when it is finished.
  func run(_ search: inout Search) -> Int? {
    while search.index < search.states.count {
      let here = search.index
      let s = unpack(search.states[here], into: &search.valuation)
      let step = model.steps[s]
      if search.behaviour.stepFirstState[s] < 0 { search.behaviour.stepFirstState[s] = here }
      if step.kind == .signedIn { search.behaviour.doneReachable = true }
      if !step.isTerminal {
        do {
          try expand(s, step, here, &search)
        } catch {
          return error.index
        }
      }
      search.index += 1
    }
    return nil
  }

  private func expand(_ s: Int, _ step: Step, _ here: Int, _ search: inout Search) throws(UnassignedVariable) {
    let valuation = search.valuation
    if let offers = step.offers {
      for c in offers.conditions where try c.when.holds(valuation) {
        search.behaviour.offered[s, default: []].insert(c.option)
      }
    }
    // The step-in-a-state id is the same for every transition out of this state.
    var stateHere = -1
    // The deciding rules of each response and the valuations after them, in buffers reused for
    // every response of this state (no array per rule).
    var matched: [Rule] = []
    var afters: [Int] = []
    let width = valuation.count
    let responses = step.responses
    for r in responses.indices {
      let response = responseIDs[responses[r].response]
      matched.removeAll(keepingCapacity: true)
      afters.removeAll(keepingCapacity: true)
      try resolve(responses[r].rules, valuation, &matched, &afters)
      for m in matched.indices {
        let rule = matched[m]
        let target: Int?
        var outcomeID: Int
        switch rule.outcome {
        case .step(let t):
          target = t
          outcomeID = stepOutcomes[t]
        case .error:
          target = s
          outcomeID = restartOutcome
        case .restart, .route:
          target = nil
          outcomeID = restartOutcome
        }
        if rule.line < ruleOutcomes.count, ruleOutcomes[rule.line] >= 0 { outcomeID = ruleOutcomes[rule.line] }
        if stateHere < 0 { stateHere = stateID(s, search.states[here]) }
        let code = vocabulary.code(step: stateHere, response: response, outcome: outcomeID)
        if search.behaviour.transitionSource.insert(code, here) { search.behaviour.transitions.insert(code) }
        guard let target else { continue }
        let key = pack(step: target, afters, at: m * width)
        if search.seen.insert(key, search.states.count) {
          search.states.append(key)
          search.behaviour.parents.append((here, code))
        }
      }
    }
  }

  private func stateID(_ s: Int, _ key: Int) -> Int {
    if let id = stateIDs.ids[key] { return id }
    var valuation = [Int](repeating: 0, count: model.variables.count)
    _ = unpack(key, into: &valuation)
    let state = sharedFlow.map { "\(model.variables[$0].name)=\(model.variables[$0].domain.render(valuation[$0]))" }
      .joined(separator: ", ")
    let id = vocabulary.stepState(stepNames[s], state)
    stateIDs.ids[key] = id
    return id
  }

  /// Appends every deciding rule in `valuation` to `matched` and the valuation after it to
  /// `afters` (one valuation's width each), in rule order, following routes (no rule: no outcome).
  private func resolve(
    _ rules: [Rule], _ valuation: [Int], _ matched: inout [Rule], _ afters: inout [Int]
  ) throws(UnassignedVariable) {
    for rule in rules where try rule.guardCode.holds(valuation) {
      if case .route(let r) = rule.outcome {
        if rule.effectCodes.isEmpty {
          try resolve(model.routes[r].rules, valuation, &matched, &afters)
        } else {
          var next = valuation
          for (variable, value) in rule.effectCodes { next[variable] = try value.evaluate(valuation) }
          try resolve(model.routes[r].rules, next, &matched, &afters)
        }
        continue
      }
      let start = afters.count
      afters.append(contentsOf: valuation)
      for (variable, value) in rule.effectCodes { afters[start + variable] = try value.evaluate(valuation) }
      matched.append(rule)
    }
  }

  /// What platforms report instead of a rule's outcome, as the outcome's text shows it
  /// (` (swift: AuthError.unknown; js: SignInException)`); empty without `platforms:`.
  static func platformText(_ rule: Rule, _ platforms: [String]) -> String {
    let entries = platforms.compactMap { p -> String? in
      switch rule.platformOutcomes.form(on: p) {
      case .error(let name)?: return "\(p): \(name)"
      case .signedOut?: return "\(p): signed out"
      case nil: return nil
      }
    }
    return entries.isEmpty ? "" : " (" + entries.joined(separator: "; ") + ")"
  }
}
