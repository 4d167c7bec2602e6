import SignInModel

/// What the explicit search reads per state and edge beyond the rules, built once per
/// transition system: flow packing, offers and the MFA requirement compiled, which property
/// conditions are constant after each branch, and a slot per checked invariant.
public final class SearchTables: Sendable {
  /// What the search checks at a selection step, per entry of its `offers.conditions`: the
  /// condition, the option's `usable`, and the factor the option stands for
  /// (`FactProperties.offeredFactor`), each compiled once instead of once per state.
  struct OfferCheck: Sendable {
    let option: Int
    let when: CompiledExpr
    let usable: CompiledExpr
    let factor: (condition: CompiledExpr, description: String)?
  }

  /// A state's step and flow packed into one key, when they fit.
  let flowPacking: FlowPacking?
  /// Per step, its `OfferCheck`s (empty without offers).
  let offerChecks: [[OfferCheck]]
  /// `model.mfaRequirement`, compiled.
  let mfaRequirementCode: CompiledExpr?
  /// The properties' kinds, read per edge without copying each check's property.
  let propertyKinds: [ModelProperty.Kind]
  /// Per branch and mark slot (`2k`: property k's predicate after the branch, `2k + 1`: its
  /// `leadsTo` target), `branches × 2 × properties` entries: 0 or 1 where the condition is
  /// constant after the branch, -1 where the search evaluates it.
  let markConstants: [Int]
  /// The code of every mark entry the search evaluates (`markConstants` -1), one after another:
  /// entry i's is `markCode[markCodeStart[i]..<markCodeStart[i + 1]]` (empty for a constant), run
  /// in place with a stack of `markStackDepth`, so an edge retains no condition or code array.
  let markCode: [Int]
  let markCodeStart: [Int]
  let markStackDepth: Int
  /// The fact and property invariants the search checks per state or edge, each with a slot
  /// (`invariantSlots`); `stateCheckSlots`, `branchFactSlot` and `propertySlots` give the slot
  /// of each entry of the system's `stateChecks`, `branchChecks` and `propertyChecks`.
  let checkedInvariants: [Invariant]
  let invariantSlots: [Invariant: Int]
  let stateCheckSlots: [[Int]]
  let propertySlots: [Int]
  /// Per model variable: the lowest and highest value of its domain (`Domain.bounds`).
  let domainLow: [Int]
  let domainHigh: [Int]
  /// Per step, what the search reads of it at every state, so a state copies no `Step`: its
  /// kind is `signedIn`, it `isSignedIn`, it is terminal, it offers options, and the response of
  /// each of its `responses` slots.
  let stepIsDone: [Bool]
  let stepReportsSignedIn: [Bool]
  let stepIsTerminal: [Bool]
  let stepOffers: [Bool]
  let stepResponses: [[Int]]
  /// Per branch, the number of its restart reason in `restartReasons` (-1: not a restart), so
  /// the search finds a restart's node without hashing its reason.
  let restartReason: [Int]
  let restartReasons: [String]
  /// Per branch, where it leads (its step; `stays` on an error, `restarts`, `routes`) and
  /// whether it fails authentication, so an edge reads no `Branch`.
  let branchTarget: [Int]
  let branchFailsAuthentication: [Bool]
  static let stays = -1
  static let restarts = -2
  static let routes = -3
  /// Every branch's effects (`compiledEffects`) in one table: branch b's are entries
  /// `effectStart[b]..<effectStart[b + 1]`, entry i sets `effectVariable[i]` to its code,
  /// `effectCode[effectCodeStart[i]..<effectCodeStart[i + 1]]`.
  let effectStart: [Int]
  let effectVariable: [Int]
  let effectCodeStart: [Int]
  let effectCode: [Int]
  /// Every branch's fact checks (`branchCheckCodes`) in one table: branch b's are entries
  /// `branchFactStart[b]..<branchFactStart[b + 1]`, entry i's code is
  /// `branchFactCode[branchFactCodeStart[i]..<branchFactCodeStart[i + 1]]`, its slot `branchFactSlot[i]`.
  let branchFactStart: [Int]
  let branchFactCodeStart: [Int]
  let branchFactCode: [Int]
  let branchFactSlot: [Int]
  /// The deepest stack an effect or a branch fact needs.
  let branchStackDepth: Int

  /// No tables: a transition system's until its rules are flattened.
  static let none = SearchTables()

  private init() {
    flowPacking = nil
    offerChecks = []
    mfaRequirementCode = nil
    propertyKinds = []
    markConstants = []
    markCode = []
    markCodeStart = [0]
    markStackDepth = 1
    checkedInvariants = []
    invariantSlots = [:]
    stateCheckSlots = []
    propertySlots = []
    domainLow = []
    domainHigh = []
    stepIsDone = []
    stepReportsSignedIn = []
    stepIsTerminal = []
    stepOffers = []
    stepResponses = []
    restartReason = []
    restartReasons = []
    branchTarget = []
    branchFailsAuthentication = []
    effectStart = [0]
    effectVariable = []
    effectCodeStart = [0]
    effectCode = []
    branchFactStart = [0]
    branchFactCodeStart = [0]
    branchFactCode = []
    branchFactSlot = []
    branchStackDepth = 1
  }

  init(
    model: SignInModel, branches: [TransitionSystem.Branch],
    stateChecks: [[(invariant: Invariant, condition: Expr)]],
    branchChecks: [[(invariant: Invariant, condition: Expr)]], branchCheckCodes: [[CompiledExpr]],
    propertyChecks: [PropertyCheck]
  ) {
    flowPacking = FlowPacking(model: model)
    let facts = FactProperties(model: model)
    propertyKinds = propertyChecks.map(\.kind)
    mfaRequirementCode = model.mfaRequirement.map { CompiledExpr($0) }
    offerChecks = model.steps.indices.map { s in
      guard let offers = model.steps[s].offers else { return [] }
      let set = model.optionSets[offers.optionSet]
      return offers.conditions.map { option, when in
        let factor = facts.offeredFactor(step: s, option: set.options[option].name)
        return OfferCheck(
          option: option, when: CompiledExpr(when), usable: CompiledExpr(set.options[option].usable),
          factor: factor.map { (CompiledExpr($0.condition), $0.description) })
      }
    }
    var constants: [Int] = []
    var code: [Int] = []
    var codeStart: [Int] = [0]
    var depth = 1
    let nothing = [Int](repeating: unassigned, count: model.variables.count)
    for b in branches.indices {
      for check in propertyChecks {
        for condition in [check.predicate, check.target] {
          defer { codeStart.append(code.count) }
          guard let condition else {
            constants.append(0)
            continue
          }
          // Only a condition that reads no variable: the search would fork on one it reads first.
          let e = condition.afterBranch[b]
          let constant = e.variables.isEmpty ? (e.evaluatePartially(nothing).map { $0 != 0 ? 1 : 0 } ?? -1) : -1
          constants.append(constant)
          if constant < 0 {
            code += condition.afterBranchCode[b].instructions
            depth = max(depth, condition.afterBranchCode[b].stackDepth)
          }
        }
      }
    }
    markConstants = constants
    markCode = code
    markCodeStart = codeStart
    markStackDepth = depth
    var invariants: [Invariant] = []
    var slots: [Invariant: Int] = [:]
    func slot(_ invariant: Invariant) -> Int {
      if let known = slots[invariant] { return known }
      invariants.append(invariant)
      slots[invariant] = invariants.count - 1
      return invariants.count - 1
    }
    stateCheckSlots = stateChecks.map { $0.map { slot($0.invariant) } }
    let branchSlots = branchChecks.map { $0.map { slot($0.invariant) } }
    propertySlots = propertyChecks.map { slot($0.invariant) }
    checkedInvariants = invariants
    invariantSlots = slots
    // An empty domain contains nothing: its bounds are 0 and -1.
    domainLow = model.variables.map { $0.domain.bounds?.lowerBound ?? 0 }
    domainHigh = model.variables.map { $0.domain.bounds?.upperBound ?? -1 }
    stepIsDone = model.steps.map { $0.kind == .signedIn }
    stepReportsSignedIn = model.steps.map(\.isSignedIn)
    stepIsTerminal = model.steps.map(\.isTerminal)
    stepOffers = model.steps.map { $0.offers != nil }
    stepResponses = model.steps.map { $0.responses.map(\.response) }
    var reasons: [String] = []
    var reasonNumbers: [String: Int] = [:]
    restartReason = branches.map { branch in
      guard case .restart(let reason) = branch.outcome else { return -1 }
      if let known = reasonNumbers[reason] { return known }
      reasons.append(reason)
      reasonNumbers[reason] = reasons.count - 1
      return reasons.count - 1
    }
    restartReasons = reasons
    branchTarget = branches.map { branch in
      switch branch.outcome {
      case .step(let s): return s
      case .error: return Self.stays
      case .restart: return Self.restarts
      case .route: return Self.routes
      }
    }
    branchFailsAuthentication = branches.map(\.failsAuthentication)
    var starts = [0]
    var variables: [Int] = []
    var effectStarts = [0]
    var effects: [Int] = []
    var factStarts = [0]
    var factCodeStarts = [0]
    var factCode: [Int] = []
    var factSlots: [Int] = []
    var stack = 1
    for (b, branch) in branches.enumerated() {
      for (variable, value) in branch.compiledEffects {
        variables.append(variable)
        effects += value.instructions
        effectStarts.append(effects.count)
        stack = max(stack, value.stackDepth)
      }
      starts.append(variables.count)
      for (k, code) in branchCheckCodes[b].enumerated() {
        factCode += code.instructions
        factCodeStarts.append(factCode.count)
        factSlots.append(branchSlots[b][k])
        stack = max(stack, code.stackDepth)
      }
      factStarts.append(factSlots.count)
    }
    effectStart = starts
    effectVariable = variables
    effectCodeStart = effectStarts
    effectCode = effects
    branchFactStart = factStarts
    branchFactCodeStart = factCodeStarts
    branchFactCode = factCode
    branchFactSlot = factSlots
    branchStackDepth = stack
  }
}

extension SearchTables {
  /// The marks after branch `branch` (`markConstants`, else its code run over `values`), written
  /// at `marks[base...]`; appends to `attention` each property whose predicate, still unrecorded
  /// (`found`), breaks here (`always`, `never`) or holds (`reachable`). A method of the tables,
  /// so their arrays are read without a reference count per edge.
  /// - Returns: where a condition first read an unassigned variable, or nil.
  func evaluateMarks(
    branch: Int, values: UnsafeBufferPointer<Int>, found: UnsafeBufferPointer<Bool>,
    marks: UnsafeMutableBufferPointer<Bool>, base: Int, attention: inout [Int]
  ) -> TableStop? {
    let stride = 2 * propertyKinds.count
    let plan = branch * stride
    var missing = -1
    var entry = -1
    markCode.withUnsafeBufferPointer { code in
      markConstants.withUnsafeBufferPointer { constants in
        markCodeStart.withUnsafeBufferPointer { starts in
          withUnsafeTemporaryAllocation(of: Int.self, capacity: markStackDepth) { stack in
            for i in 0..<stride {
              let constant = constants[plan + i]
              if constant >= 0 {
                marks[base + i] = constant != 0
                continue
              }
              let value = CompiledExpr.run(
                code: UnsafeBufferPointer(rebasing: code[starts[plan + i]..<starts[plan + i + 1]]), valuation: values,
                stack: stack.baseAddress!, missing: &missing)
              if missing >= 0 {
                entry = plan + i
                return
              }
              marks[base + i] = value != 0
            }
          }
        }
      }
    }
    guard missing < 0 else {
      return TableStop(
        variable: missing,
        code: StoppedCode(code: markCode[markCodeStart[entry]..<markCodeStart[entry + 1]], stackDepth: markStackDepth))
    }
    for k in propertyKinds.indices where !found[propertySlots[k]] {
      switch propertyKinds[k] {
      case .always, .never: if !marks[base + 2 * k] { attention.append(k) }
      case .reachable: if marks[base + 2 * k] { attention.append(k) }
      case .eventually, .leadsTo, .indistinguishable: break
      }
    }
    return nil
  }

  /// Branch `branch`'s effects evaluated over `values` (the pre-state) and written into `after`,
  /// which holds `values`, in the order of its `compiledEffects`; stops at the first that reads
  /// an unassigned variable. `restoreEffects` undoes it.
  /// - Returns: where it stopped, or nil.
  func applyEffects(branch: Int, values: [Int], into after: inout [Int]) -> TableStop? {
    let entries = effectStart[branch]..<effectStart[branch + 1]
    guard !entries.isEmpty else { return nil }
    var missing = -1
    var entry = -1
    effectCode.withUnsafeBufferPointer { code in
      values.withUnsafeBufferPointer { v in
        after.withUnsafeMutableBufferPointer { after in
          withUnsafeTemporaryAllocation(of: Int.self, capacity: branchStackDepth) { stack in
            for i in entries {
              let value = CompiledExpr.run(
                code: UnsafeBufferPointer(rebasing: code[effectCodeStart[i]..<effectCodeStart[i + 1]]), valuation: v,
                stack: stack.baseAddress!, missing: &missing)
              if missing >= 0 {
                entry = i
                return
              }
              after[effectVariable[i]] = value
            }
          }
        }
      }
    }
    guard missing >= 0 else { return nil }
    return TableStop(
      variable: missing,
      code: StoppedCode(
        code: effectCode[effectCodeStart[entry]..<effectCodeStart[entry + 1]], stackDepth: branchStackDepth))
  }

  /// Undoes `applyEffects`: the variables branch `branch` sets take their values in `values` again.
  func restoreEffects(branch: Int, values: [Int], into after: inout [Int]) {
    for i in effectStart[branch]..<effectStart[branch + 1] { after[effectVariable[i]] = values[effectVariable[i]] }
  }

  /// The first of branch `branch`'s fact checks from index `start` on (in `branchCheckCodes`
  /// order) not yet `found` whose condition holds in `values`: its index among the branch's
  /// checks, or -1.
  /// - Returns: also where a condition first read an unassigned variable (then no index), or nil.
  func firstBrokenFact(branch: Int, from start: Int, values: [Int], found: [Bool]) -> (check: Int, stop: TableStop?) {
    let first = branchFactStart[branch]
    let entries = (first + start)..<branchFactStart[branch + 1]
    guard !entries.isEmpty else { return (-1, nil) }
    var missing = -1
    var broken = -1
    var entry = -1
    branchFactCode.withUnsafeBufferPointer { code in
      values.withUnsafeBufferPointer { v in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: branchStackDepth) { stack in
          for i in entries where !found[branchFactSlot[i]] {
            let value = CompiledExpr.run(
              code: UnsafeBufferPointer(rebasing: code[branchFactCodeStart[i]..<branchFactCodeStart[i + 1]]),
              valuation: v, stack: stack.baseAddress!, missing: &missing)
            if missing >= 0 {
              entry = i
              return
            }
            if value != 0 {
              broken = i - first
              return
            }
          }
        }
      }
    }
    guard missing >= 0 else { return (broken, nil) }
    let code = branchFactCode[branchFactCodeStart[entry]..<branchFactCodeStart[entry + 1]]
    return (-1, TableStop(variable: missing, code: StoppedCode(code: code, stackDepth: branchStackDepth)))
  }

  /// The first variable branch `branch` sets whose value in `valuation` is outside its domain, if any.
  func firstOutsideDomain(branch: Int, in valuation: [Int]) -> Int? {
    for i in effectStart[branch]..<effectStart[branch + 1] {
      let v = effectVariable[i]
      if valuation[v] < domainLow[v] || valuation[v] > domainHigh[v] { return v }
    }
    return nil
  }
}
