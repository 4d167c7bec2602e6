import ModelChecking
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
  /// Mixed-radix packing of the flow variables into one integer.
  private let radices: [Int]
  private let flowSpan: Int
  private let flowIndices: [Int]
  private let flowMins: [Int]
  private let flowMaxs: [Int]

  /// Step and shared-flow state → vocabulary id, filled as states are met (the same for every class).
  private final class StateIDs { var ids: [Int: Int] = [:] }
  private let stateIDs = StateIDs()
  private let stepNames: [String]
  /// Flow variables the compared models share (by name and domain), for the transition keys.
  private let sharedFlow: [Int]
  /// The model's rules by number, with their code in one array.
  private let table: RuleTable
  /// Per rule number: the step it leads to (-2: it stays on its step; -1: none, a restart), and
  /// the outcome's vocabulary id.
  private let ruleTarget: [Int]
  private let ruleOutcome: [Int]
  /// Whether a class's behaviour keeps its transitions, search tree and offers (`diff`), or only
  /// the steps reached, whether `done` is, and the responses given (`SideBehaviour.responsesGiven`,
  /// what `lint` reads). Without them the guards and effects are evaluated three-valued
  /// (`RuleTable.Evaluator.threeValued`) and offers not at all, so the search suspends only where
  /// the class's configurations behave differently: the classes are coarser (fewer), and every
  /// configuration of one reaches the same steps, `done` or not, with the same responses.
  let recordsTransitions: Bool

  init(
    model: SignInModel, vocabulary: Vocabulary, renames: [String: String] = [:], sharedFlow: Set<String> = [],
    platforms: [String]? = nil, recordsTransitions: Bool = true
  ) {
    let platforms = platforms ?? model.platforms
    self.recordsTransitions = recordsTransitions
    self.model = model
    self.vocabulary = vocabulary
    let names = model.steps.map { renames[$0.id] ?? $0.id }
    stepNames = names
    self.sharedFlow = model.flowIndices.filter { sharedFlow.contains(model.variables[$0].name) }
    stepOutcomes = names.map(vocabulary.outcome)
    responseIDs = model.responses.map { vocabulary.response($0.name) }
    restartOutcome = vocabulary.outcome("restart")
    // The outcome of each rule that names more than its step (an error, a restart with its
    // exception, or what platforms report instead, `platforms:`), by the rule's line.
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
    flowMaxs = flowIndices.map { model.variables[$0].domain.values.max() ?? 0 }
    table = RuleTable(model)
    var ruleTarget: [Int] = []
    var ruleOutcome: [Int] = []
    for rule in table.rules {
      var outcome: Int
      switch rule.outcome {
      case .step(let t):
        ruleTarget.append(t)
        outcome = stepOutcomes[t]
      case .error:
        ruleTarget.append(-2)
        outcome = restartOutcome
      case .restart, .route:
        ruleTarget.append(-1)
        outcome = restartOutcome
      }
      if rule.line < byLine.count, byLine[rule.line] >= 0 { outcome = byLine[rule.line] }
      ruleOutcome.append(outcome)
    }
    self.ruleTarget = ruleTarget
    self.ruleOutcome = ruleOutcome
  }

  /// A search in progress (suspended on a variable) or finished.
  struct Search {
    var valuation: [Int]
    var behaviour: SideBehaviour
    var states: [Int] = []
    var seen = IntTable(capacity: 64)
    var index = 0

    /// About how many bytes it holds besides its valuation (`PendingMemory`).
    var heldBytes: Int { behaviour.heldBytes + 8 * (states.count + 2 * seen.count) }
  }

  func start(_ valuation: [Int]) -> Search {
    var search = Search(
      valuation: valuation, behaviour: SideBehaviour(vocabulary: vocabulary, steps: model.steps.count))
    if !recordsTransitions { search.behaviour.responsesGiven = [Bool](repeating: false, count: model.responses.count) }
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
    // The transitions are the keys of `transitionSource`: sorted once, when the search is done,
    // not grown (and copied at every fork) on the way.
    if recordsTransitions { search.behaviour.transitions = search.behaviour.transitionSource.keysInTable.sorted() }
    return nil
  }

  private func expand(_ s: Int, _ step: Step, _ here: Int, _ search: inout Search) throws(UnassignedVariable) {
    let valuation = search.valuation
    if recordsTransitions, let offers = step.offers {
      for c in offers.conditions where try c.when.holds(valuation) {
        search.behaviour.offered[s, default: []].insert(c.option)
      }
    }
    var failure: UnassignedVariable?
    table.code.withUnsafeBufferPointer { code in
      valuation.withUnsafeBufferPointer { values in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: table.stackDepth) { stack in
          let evaluator = RuleTable.Evaluator(
            table: table, code: code, stack: stack.baseAddress!, threeValued: !recordsTransitions)
          do throws(UnassignedVariable) { try expand(s, step.responses.count, here, values, evaluator, &search) } catch
          { failure = error }
        }
      }
    }
    if let failure { throw failure }
  }

  /// `expand`'s transitions, with the rules' code, the valuation and a stack in place.
  private func expand(
    _ s: Int, _ responseCount: Int, _ here: Int, _ valuation: UnsafeBufferPointer<Int>,
    _ evaluator: RuleTable.Evaluator, _ search: inout Search
  ) throws(UnassignedVariable) {
    // The step-in-a-state id is the same for every transition out of this state.
    var stateHere = -1
    // The deciding rules of each response and the valuations after them, in buffers reused for
    // every response of this state (no array per rule).
    var matched: [Int] = []
    var afters: [Int] = []
    let width = valuation.count
    for r in 0..<responseCount {
      let modelResponse = model.steps[s].responses[r].response
      let response = responseIDs[modelResponse]
      matched.removeAll(keepingCapacity: true)
      afters.removeAll(keepingCapacity: true)
      try resolve(table.rules(step: s, slot: r), valuation, evaluator, &matched, &afters)
      for m in matched.indices {
        let rule = matched[m]
        let target = ruleTarget[rule] == -2 ? s : ruleTarget[rule]
        var code = -1
        if recordsTransitions {
          if stateHere < 0 { stateHere = stateID(s, search.states[here]) }
          code = vocabulary.code(step: stateHere, response: response, outcome: ruleOutcome[rule])
          _ = search.behaviour.transitionSource.insert(code, here)
        } else {
          search.behaviour.responsesGiven[modelResponse] = true
        }
        guard target >= 0, inDomain(afters, at: m * width) else { continue }
        let key = pack(step: target, afters, at: m * width)
        if search.seen.insert(key, search.states.count) {
          search.states.append(key)
          if recordsTransitions { search.behaviour.parents.append((here, code)) }
        }
      }
    }
  }

  /// Whether every flow variable of the valuation at `offset` of `values` is inside its domain.
  /// A state outside is not explored, as the explicit search explores none (it reports the update
  /// under `staysInDomain`), and the packing holds only values inside: an update that counts past
  /// its domain (`flow.retries + 1` with no bound in its guard) gave new states without end.
  private func inDomain(_ values: [Int], at offset: Int) -> Bool {
    for k in flowIndices.indices {
      let v = values[offset + flowIndices[k]]
      if v < flowMins[k] || v > flowMaxs[k] { return false }
    }
    return true
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

  /// Appends every deciding rule (by number) in `valuation` to `matched` and the valuation after
  /// it to `afters` (one valuation's width each), in rule order, following routes (no rule: no outcome).
  private func resolve(
    _ rules: Range<Int>, _ valuation: UnsafeBufferPointer<Int>, _ evaluator: RuleTable.Evaluator,
    _ matched: inout [Int], _ afters: inout [Int]
  ) throws(UnassignedVariable) {
    for rule in rules where try evaluator.guardHolds(rule, valuation) {
      let route = table.route[rule]
      if route >= 0 {
        if !evaluator.hasEffects(rule) {
          try resolve(table.routeRules[route], valuation, evaluator, &matched, &afters)
        } else {
          var next = Array(valuation)
          try evaluator.applyEffects(rule, valuation, into: &next, at: 0)
          var failure: UnassignedVariable?
          next.withUnsafeBufferPointer { next in
            do throws(UnassignedVariable) {
              try resolve(table.routeRules[route], next, evaluator, &matched, &afters)
            } catch { failure = error }
          }
          if let failure { throw failure }
        }
        continue
      }
      let start = afters.count
      afters.append(contentsOf: valuation)
      try evaluator.applyEffects(rule, valuation, into: &afters, at: start)
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
