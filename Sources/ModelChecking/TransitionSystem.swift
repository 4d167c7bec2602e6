import SignInModel

/// Per-step facts and compiled constraints `ModelSimulator` reads at every start and call.
public final class SimulationTables: Sendable {
  /// Per step: whether it is terminal, and whether it is the entry step (`signIn`).
  public let terminal: [Bool]
  public let entry: [Bool]
  /// The model's constraints, compiled.
  public let constraintCodes: [CompiledExpr]
  /// Per step, each offer's option name and compiled condition, in the model's order (empty for
  /// a step that offers nothing).
  let offers: [[(option: String, when: CompiledExpr)]]

  /// Per variable, its lowest and highest value (every domain is a range of integers: `false`
  /// and `true` are 0 and 1, an enumeration's values its indices), and the flow variables'
  /// initial values in order.
  public let valueBounds: [(low: Int, high: Int)]
  public let initialFlow: [Int]
  /// How many of the variables are configuration variables (they come first).
  public let configurationCount: Int

  init(_ model: SignInModel) {
    valueBounds = model.variables.map { variable in
      switch variable.domain {
      case .bool: return (0, 1)
      case .range(let r): return (r.lowerBound, r.upperBound)
      case .enumeration(let names): return (0, names.count - 1)
      }
    }
    initialFlow = model.flowIndices.map { model.variables[$0].initial }
    configurationCount = model.configurationIndices.count
    offers = model.steps.map { step in
      guard let offers = step.offers else { return [] }
      let set = model.optionSets[offers.optionSet]
      return offers.conditions.map { (set.options[$0.option].name, CompiledExpr($0.when)) }
    }
    terminal = model.steps.map(\.isTerminal)
    entry = model.steps.map { $0.kind == .entry }
    constraintCodes = model.constraints.map { CompiledExpr($0.expr) }
  }
}

/// The model's rules flattened into guarded branches over the pre-state: each branch is a
/// step rule followed by the route rules it leads to, with guards and effects composed by
/// substitution. This is the one definition of what a response does in a state; every
/// engine reads it — Z3 the `branches` and `ambiguities`, the explicit search and
/// `ModelSimulator` the `decisions` (the same branches as a tree of rule lists, see
/// `matchingBranches`).
public struct TransitionSystem: Sendable {
  /// One way to leave a step on one response. A class, so the searches pass a branch with one
  /// reference count instead of one per field.
  public final class Branch: Sendable {
    public let step: Int
    public let response: Int
    /// Conjunction of every rule guard on the way, over the pre-state.
    public let guardExpr: Expr
    /// The new value of each flow variable the branch changes, over the pre-state.
    public let effects: [Int: Expr]
    /// `effects` ordered by variable index, so evaluation reads variables in a fixed order.
    public let orderedEffects: [(variable: Int, value: Expr)]
    /// `orderedEffects` compiled, for `apply(to:)`.
    let compiledEffects: [(variable: Int, value: CompiledExpr)]
    /// `.step`, `.error` or `.restart` (never `.route`).
    public let outcome: Outcome
    public let failsAuthentication: Bool
    public let ruleLines: [Int]
    /// For a restart: the exception the client reports (the rule's `exception`).
    public let exception: String?
    /// What platforms report instead of `outcome` (the deciding rule's `platforms:`).
    public let platformOutcomes: [PlatformOutcome]

    init(
      step: Int, response: Int, guardExpr: Expr, effects: [Int: Expr], orderedEffects: [(variable: Int, value: Expr)],
      compiledEffects: [(variable: Int, value: CompiledExpr)], outcome: Outcome, failsAuthentication: Bool,
      ruleLines: [Int], exception: String?, platformOutcomes: [PlatformOutcome]
    ) {
      self.step = step
      self.response = response
      self.guardExpr = guardExpr
      self.effects = effects
      self.orderedEffects = orderedEffects
      self.compiledEffects = compiledEffects
      self.outcome = outcome
      self.failsAuthentication = failsAuthentication
      self.ruleLines = ruleLines
      self.exception = exception
      self.platformOutcomes = platformOutcomes
    }

    /// The step the flow is on afterwards, or nil after a restart.
    public var target: Int? {
      switch outcome {
      case .step(let s): return s
      case .error: return step
      case .restart, .route: return nil
      }
    }

    /// The valuation after the branch: every effect evaluated over `valuation` (the pre-state).
    public func apply(to valuation: [Int]) throws(UnassignedVariable) -> [Int] {
      var next = valuation
      try apply(inPlace: &next)
      return next
    }

    /// `apply(to:)` in place: every effect is evaluated over the valuation before any is
    /// written, so the result is the same and nothing changes when an evaluation throws.
    func apply(inPlace valuation: inout [Int]) throws(UnassignedVariable) {
      switch compiledEffects.count {
      case 0: return
      case 1: valuation[compiledEffects[0].variable] = try compiledEffects[0].value.evaluate(valuation)
      default:
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: compiledEffects.count) {
          (values: UnsafeMutableBufferPointer<Int>) throws(UnassignedVariable) in
          for k in compiledEffects.indices { values[k] = try compiledEffects[k].value.evaluate(valuation) }
          for k in compiledEffects.indices { valuation[compiledEffects[k].variable] = values[k] }
        }
      }
    }
  }

  /// A place where, under `condition`, zero or several rules match.
  public struct Ambiguity: Sendable {
    public let step: Int
    public let response: Int
    public let place: String
    public let condition: Expr
  }

  /// One rule list — a step's rules for one response, or a route's rules reached through a
  /// rule — as the explicit engine evaluates it: each alternative's guard over the pre-state,
  /// and either the branch it ends in or the rule list it leads to.
  public struct Decision: Sendable {
    /// "response 'wrongCode' at step 'X'" or "route 'afterFirstFactor'".
    public let place: String
    public let alternatives: [Alternative]
  }

  /// One rule of a `Decision` (a class: the walks pass it with one reference count).
  public final class Alternative: Sendable {
    public let line: Int
    /// The rule's guard composed with the effects before it, over the pre-state.
    public let guardExpr: Expr
    /// `guardExpr` compiled, for the walks.
    public let guardCode: CompiledExpr
    public let next: Next

    init(line: Int, guardExpr: Expr, next: Next) {
      self.line = line
      self.guardExpr = guardExpr
      guardCode = CompiledExpr(guardExpr)
      self.next = next
    }
  }

  /// Where an alternative leads: a branch (index into `branches`) or a route's rule list.
  public indirect enum Next: Sendable {
    case branch(Int)
    case decision(Decision)
  }

  /// Where a rule list did not have exactly one matching rule, in a concrete state.
  public struct Mismatch: Sendable, Equatable {
    public let place: String
    public let matchingLines: [Int]
    /// The lines of every rule of that rule list (the candidates when none matches).
    public let ruleLines: [Int]
  }

  public let model: SignInModel
  public private(set) var branches: [Branch] = []
  public private(set) var ambiguities: [Ambiguity] = []
  /// Per step, the indices in `branches` of its branches (contiguous: a step's are made together).
  public private(set) var branchRanges: [Range<Int>] = []
  /// `decisions[step][k]` is the rule list of `model.steps[step].responses[k]` (empty for
  /// terminal steps); its leaves are exactly the branches of that step and response.
  public private(set) var decisions: [[Decision]] = []
  /// Per step, the fact properties (`FactProperties`) being there breaks, with their conditions.
  public private(set) var stateChecks: [[(invariant: Invariant, condition: Expr)]] = []
  /// Per branch (same index as `branches`), the fact properties taking it breaks, over its pre-state.
  public private(set) var branchChecks: [[(invariant: Invariant, condition: Expr)]] = []
  /// `stateChecks` and `branchChecks` conditions compiled, for the explicit search.
  public private(set) var stateCheckCodes: [[CompiledExpr]] = []
  public private(set) var branchCheckCodes: [[CompiledExpr]] = []
  /// The model's own properties (`properties:`), compiled (`PropertyChecks.swift`).
  public private(set) var propertyChecks: [PropertyCheck] = []
  /// Tables only the explicit search reads, in one object: the simulators copy this struct
  /// per session, and each stored array is one more reference count per copy.
  public private(set) var search = SearchTables.none
  /// `decisions` flattened for `uniqueBranch`.
  private var decisionTable = DecisionTable([])
  /// What `ModelSimulator` reads of the model at every start and call, built once.
  public let simulation: SimulationTables
  /// Name lookups for the simulators' hot paths, built once per model: each response's index
  /// by name; `responseSlots[step][response]`, the slot of that response in the step's list
  /// (-1: not accepted); each configuration variable's index by name, and per variable the
  /// value each rendered text stands for.
  public let responseIndex: [String: Int]
  public let responseSlots: [[Int]]
  public let configurationIndex: [String: Int]
  public let valueOfText: [[String: Int]]

  public init(model: SignInModel) {
    self.model = model
    simulation = SimulationTables(model)
    var responseIndex: [String: Int] = [:]
    for (r, response) in model.responses.enumerated() where responseIndex[response.name] == nil {
      responseIndex[response.name] = r
    }
    self.responseIndex = responseIndex
    responseSlots = model.steps.map { step in
      var slots = [Int](repeating: -1, count: model.responses.count)
      for (k, stepResponse) in step.responses.enumerated().reversed() { slots[stepResponse.response] = k }
      return slots
    }
    var configurationIndex: [String: Int] = [:]
    for i in model.configurationIndices.reversed() { configurationIndex[model.variables[i].name] = i }
    self.configurationIndex = configurationIndex
    valueOfText = model.variables.map { variable in
      var values: [String: Int] = [:]
      for v in variable.domain.values.reversed() { values[variable.domain.render(v)] = v }
      return values
    }
    for (s, step) in model.steps.enumerated() {
      let first = branches.count
      defer { branchRanges.append(first..<branches.count) }
      var perResponse: [Decision] = []
      if !step.isTerminal {
        for stepResponse in step.responses {
          let name = model.responses[stepResponse.response].name
          var path = Path()
          perResponse.append(
            flatten(
              stepResponse.rules, step: s, response: stepResponse.response,
              place: "response '\(name)' at step '\(step.id)'", path: &path, effects: [:],
              failsAuthentication: false))
        }
      }
      decisions.append(perResponse)
    }
    let facts = FactProperties(model: model)
    let ordered = Invariant.allCases.filter(FactProperties.all.contains)
    stateChecks = model.steps.indices.map { s in
      ordered.compactMap { i in facts.stateCondition(i, step: s).map { (invariant: i, condition: $0) } }
    }
    branchChecks = branches.map { b in
      ordered.compactMap { i in facts.branchCondition(i, branch: b).map { (invariant: i, condition: $0) } }
    }
    stateCheckCodes = stateChecks.map { $0.map { CompiledExpr($0.condition) } }
    branchCheckCodes = branchChecks.map { $0.map { CompiledExpr($0.condition) } }
    propertyChecks = compileProperties()
    search = SearchTables(
      model: model, branches: branches, stateChecks: stateChecks, branchChecks: branchChecks,
      branchCheckCodes: branchCheckCodes, propertyChecks: propertyChecks)
    decisionTable = DecisionTable(decisions)
  }

  /// The branches of `step`, in `branches` order.
  public func branches(from step: Int) -> ArraySlice<Branch> { branches[branchRanges[step]] }

  /// The conditions and rule lines of the rules passed on the way to a rule list: one buffer
  /// each, appended to before a route is flattened and cut back after, so that a chain of n
  /// routes holds n entries at a time rather than a copy per level (10,000 routes: 5 * 10^7).
  private struct Path {
    var conditions: [Expr] = []
    var lines: [Int] = []
  }

  private mutating func flatten(
    _ rules: [Rule], step: Int, response: Int, place: String, path: inout Path, effects: [Int: Expr],
    failsAuthentication: Bool
  ) -> Decision {
    let guards = rules.map { $0.guardExpr.substituting(effects) }
    var none: [Expr] = guards.map { .not($0) }
    if none.isEmpty { none = [.true] }
    var several: [Expr] = []
    for i in guards.indices {
      for j in guards.indices where j > i { several.append(.and([guards[i], guards[j]])) }
    }
    ambiguities.append(
      Ambiguity(
        step: step, response: response, place: place,
        condition: .and(path.conditions + [.or([.and(none)] + several)])))
    var alternatives: [Alternative] = []
    for (rule, guardExpr) in zip(rules, guards) {
      var next = effects
      for (variable, value) in rule.effects { next[variable] = value.substituting(effects) }
      // A rule without `when` (guard true) adds nothing to the path's conditions, so on a chain
      // of unconditional routes they (and the ambiguity checks made of them) stay the size of one
      // rule list instead of growing with the chain.
      let conditional = guardExpr != .true
      if conditional { path.conditions.append(guardExpr) }
      path.lines.append(rule.line)
      let fails = failsAuthentication || rule.failsAuthentication
      if case .route(let r) = rule.outcome {
        let sub = flatten(
          model.routes[r].rules, step: step, response: response, place: "route '\(model.routes[r].name)'",
          path: &path, effects: next, failsAuthentication: fails)
        alternatives.append(Alternative(line: rule.line, guardExpr: guardExpr, next: .decision(sub)))
      } else {
        alternatives.append(Alternative(line: rule.line, guardExpr: guardExpr, next: .branch(branches.count)))
        let ordered = next.sorted { $0.key < $1.key }.map { (variable: $0.key, value: $0.value) }
        branches.append(
          Branch(
            step: step, response: response, guardExpr: .and(path.conditions.isEmpty ? [.true] : path.conditions),
            effects: next, orderedEffects: ordered,
            compiledEffects: ordered.map { ($0.variable, CompiledExpr($0.value)) }, outcome: rule.outcome,
            failsAuthentication: fails, ruleLines: path.lines, exception: rule.exception,
            platformOutcomes: rule.platformOutcomes))
      }
      path.lines.removeLast()
      if conditional { path.conditions.removeLast() }
    }
    return Decision(place: place, alternatives: alternatives)
  }

  /// The branches `model.steps[step].responses[k]` takes in `valuation` (a pre-state), found
  /// by walking its decision: every alternative whose guard holds, depth first in rule
  /// order. Rule lists where zero or several rules match are appended to `mismatches`.
  /// Reading only the guards on the way is what lets the explicit engine fork lazily on
  /// configuration variables.
  /// - Throws: `UnassignedVariable` when a guard on the way reads an unassigned variable.
  public func matchingBranches(
    step: Int, responseSlot k: Int, valuation: [Int], mismatches: inout [Mismatch]
  ) throws(UnassignedVariable) -> [Int] {
    var result: [Int] = []
    var stops: [StoppedCode] = []
    try walk(decisions[step][k], valuation, &result, &mismatches, threeValued: false, &stops)
    return result
  }

  /// `matchingBranches` into `result` (emptied first), so a caller can reuse one array.
  func matchingBranches(
    step: Int, responseSlot k: Int, valuation: [Int], into result: inout [Int], mismatches: inout [Mismatch]
  ) throws(UnassignedVariable) {
    result.removeAll(keepingCapacity: true)
    // Most responses take one branch: found in the flat table, reading the same guards in the
    // same order as `walk`; a rule list with zero or several matches is walked again from the
    // root, which records where.
    if let only = try decisionTable.uniqueBranch(step: step, slot: k, valuation: valuation, readingEveryGuard: true) {
      result.append(only)
      return
    }
    var stops: [StoppedCode] = []
    try walk(decisions[step][k], valuation, &result, &mismatches, threeValued: false, &stops)
  }

  /// `matchingBranches` three-valued: a guard whose strict evaluation stops at an unassigned
  /// variable is appended to `stops` and counts with its Kleene value when that is decided.
  /// - Throws: `UnassignedVariable` where a guard's value depends on an unassigned variable.
  func matchingBranches(
    step: Int, responseSlot k: Int, valuation: [Int], into result: inout [Int], mismatches: inout [Mismatch],
    stops: inout [StoppedCode]
  ) throws(UnassignedVariable) {
    result.removeAll(keepingCapacity: true)
    if let only = try decisionTable.uniqueBranch(step: step, slot: k, valuation: valuation, stops: &stops) {
      result.append(only)
      return
    }
    try walk(decisions[step][k], valuation, &result, &mismatches, threeValued: true, &stops)
  }

  /// The one branch `model.steps[step].responses[k]` takes in `valuation`, or nil when some
  /// rule list on the way has zero or several matching rules (`matchingBranches` then tells
  /// where). The same walk without its bookkeeping, for the simulators' hot path.
  /// - Throws: `UnassignedVariable` when a guard on the way reads an unassigned variable.
  public func uniqueBranch(step: Int, responseSlot k: Int, valuation: [Int]) throws(UnassignedVariable) -> Int? {
    try decisionTable.uniqueBranch(step: step, slot: k, valuation: valuation)
  }

  /// The walk of every `matchingBranches`: the matching alternatives of `decision`, depth first
  /// in rule order. A guard whose strict evaluation stops ends the walk, or with `threeValued` is
  /// appended to `stops` and counts with its Kleene value when that is decided.
  private func walk(
    _ decision: Decision, _ valuation: [Int], _ result: inout [Int], _ mismatches: inout [Mismatch],
    threeValued: Bool, _ stops: inout [StoppedCode]
  ) throws(UnassignedVariable) {
    // Most rule lists have exactly one match: found without collecting the matches.
    let alternatives = decision.alternatives
    var only = -1
    var matching: [Int] = []
    for k in alternatives.indices {
      let code = alternatives[k].guardCode
      let holds: Bool
      do {
        holds = try code.holds(valuation)
      } catch {
        guard threeValued else { throw error }
        stops.append(StoppedCode(code: code.instructions[...], stackDepth: code.stackDepth))
        guard let decided = code.threeValued.evaluate(valuation) else { throw error }
        holds = decided != 0
      }
      guard holds else { continue }
      if only < 0 && matching.isEmpty {
        only = k
      } else {
        if only >= 0 { matching.append(only) }
        only = -1
        matching.append(k)
      }
    }
    if only >= 0 {
      try follow(alternatives[only], valuation, &result, &mismatches, threeValued: threeValued, &stops)
      return
    }
    mismatches.append(
      Mismatch(
        place: decision.place, matchingLines: matching.map { alternatives[$0].line },
        ruleLines: alternatives.map(\.line)))
    for k in matching {
      try follow(alternatives[k], valuation, &result, &mismatches, threeValued: threeValued, &stops)
    }
  }

  /// `walk`'s step into a matching alternative: its branch, or the walk of its rule list.
  private func follow(
    _ alternative: Alternative, _ valuation: [Int], _ result: inout [Int], _ mismatches: inout [Mismatch],
    threeValued: Bool, _ stops: inout [StoppedCode]
  ) throws(UnassignedVariable) {
    switch alternative.next {
    case .branch(let b): result.append(b)
    case .decision(let sub): try walk(sub, valuation, &result, &mismatches, threeValued: threeValued, &stops)
    }
  }
}
