import ModelChecking
import SignInModel

/// Folds the explored classes of a diff into counts and groups (behaviour, added, removed,
/// lost `done`, old-client findings).
struct DiffAccumulator {
  let old: SignInModel
  let new: SignInModel
  let space: JointSpace
  let platforms: [String]
  var compared = 0.0
  var unchanged = 0.0
  var changed: [String: BehaviourGroup] = [:]
  var added: [String: BehaviourGroup] = [:]
  var removed: [String: BehaviourGroup] = [:]
  var lostDone: [String: BehaviourGroup] = [:]
  var findings: [String: CompatibilityFinding] = [:]

  private let oldNames: [String: Set<String>]
  private let oldResponses: Set<String>
  /// The old model's option sets by name, and every option it names.
  private let oldSets: [String: Set<String>]
  private let allOldOptions: Set<String>
  /// Per transition code: when it moves forward (not to its own step, an error or a restart),
  /// NEW's step index shifted left 16 bits, or'ed with the response's vocabulary index; else -1.
  /// Decoded once per code, not once per class.
  private var forwardCodes = IntTable(capacity: 1024)
  /// NEW's step indices by id.
  private let newStepIndex: [String: Int]
  /// Per vocabulary response index: whether OLD has the response (filled as codes are decoded).
  private var oldHasResponse: [Bool] = []
  /// Per NEW step and platform (in `platforms`' order): what an old client makes of the step's name.
  private let stepNames: [[StepName]]
  /// Per NEW step: the responses (vocabulary indices) of the class's forward transitions from it,
  /// filled and emptied per class; `forwardSteps` lists the steps with some.
  private var forwardResponses: [[Int]]
  private var forwardSteps: [Int] = []

  /// A NEW step's name on a platform, as an old client of that platform sees it.
  private enum StepName {
    /// The platform has no such step (`absent`).
    case absent
    case name(String, unknown: Bool)
  }
  let vocabulary: Vocabulary
  private var decoded: [Int: TransitionKey] = [:]

  init(old: SignInModel, new: SignInModel, space: JointSpace, platforms: [String], vocabulary: Vocabulary) {
    self.vocabulary = vocabulary
    self.old = old
    self.new = new
    self.space = space
    self.platforms = platforms
    var names: [String: Set<String>] = [:]
    for p in platforms {
      names[p] = Set(
        old.steps.compactMap { s in
          guard case .name(let n)? = s.names.first(where: { $0.platform == p })?.form else { return nil }
          return n
        })
    }
    oldNames = names
    oldResponses = Set(old.responses.map(\.name))
    oldSets = Dictionary(
      old.optionSets.map { ($0.name, Set($0.options.map(\.name))) }, uniquingKeysWith: { a, _ in a })
    allOldOptions = Set(old.optionSets.flatMap { $0.options.map(\.name) })
    newStepIndex = Dictionary(new.steps.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
    stepNames = new.steps.map { step in
      platforms.map { p in
        switch step.names.first(where: { $0.platform == p })?.form {
        case .name(let n)?: return .name(n, unknown: !(names[p]?.contains(n) ?? false))
        case .error(let e)?: return .name("thrown as \(e)", unknown: false)
        case .absent?: return .absent
        case nil: return .name("(no \(p) name)", unknown: true)
        }
      }
    }
    forwardResponses = [[Int]](repeating: [], count: new.steps.count)
  }

  mutating func add(_ c: ExploredClass, nOld: Double, nNew: Double, nBoth: Double) {
    let witness = space.describe(c.assignment)
    if nBoth > 0, let a = c.behaviours[0], let b = c.behaviours[1] {
      compared += nBoth
      if a.transitions == b.transitions && a.doneReachable == b.doneReachable {
        unchanged += nBoth
      } else {
        let group = cause(a, b, witness: witness, steps: b.reachedSteps.map { new.steps[$0].id })
        let key = "\(group.step)|\(group.response)|\(group.oldOutcomes)|\(group.newOutcomes)"
        merge(&changed, key, group, nBoth)
        if a.doneReachable && !b.doneReachable { merge(&lostDone, key, group, nBoth) }
      }
    }
    if nNew - nBoth > 0, let b = c.behaviours[1] {
      let reason = why(c.assignment, outside: 0)
      let steps = b.reachedSteps.map { new.steps[$0].id }
      merge(
        &added, reason,
        BehaviourGroup(
          step: "", state: "", response: "", oldOutcomes: [], newOutcomes: [], configurations: 0, classes: 0,
          witness: witness,
          oldTrace: nil, newTrace: nil, reason: reason, reachedSteps: steps), nNew - nBoth)
    }
    if nOld - nBoth > 0, let a = c.behaviours[0] {
      let reason = why(c.assignment, outside: 1)
      let steps = a.reachedSteps.map { old.steps[$0].id }
      merge(
        &removed, reason,
        BehaviourGroup(
          step: "", state: "", response: "", oldOutcomes: [], newOutcomes: [], configurations: 0, classes: 0,
          witness: witness,
          oldTrace: nil, newTrace: nil, reason: reason, reachedSteps: steps), nOld - nBoth)
    }
    if nNew > 0, let b = c.behaviours[1] { checkClients(b, witness: witness, count: nNew) }
  }

  private func merge(_ groups: inout [String: BehaviourGroup], _ key: String, _ group: BehaviourGroup, _ n: Double) {
    if var existing = groups[key] {
      existing.configurations += n
      existing.classes += 1
      for s in group.reachedSteps where !existing.reachedSteps.contains(s) { existing.reachedSteps.append(s) }
      groups[key] = existing
    } else {
      var g = group
      g.configurations = n
      g.classes = 1
      groups[key] = g
    }
  }

  /// The first differing transition: the one with the shortest trace on either side.
  private mutating func key(_ code: Int) -> TransitionKey {
    if let k = decoded[code] { return k }
    let k = vocabulary.decode(code)
    decoded[code] = k
    return k
  }

  private mutating func cause(
    _ a: SideBehaviour, _ b: SideBehaviour, witness: [(name: String, value: String)], steps: [String]
  ) -> BehaviourGroup {
    let (oldCodes, newCodes) = (Set(a.transitions), Set(b.transitions))
    let onlyOld = oldCodes.subtracting(newCodes).map { ($0, a.traceLength(through: $0)) }
    let onlyNew = newCodes.subtracting(oldCodes).map { ($0, b.traceLength(through: $0)) }
    // The least by (trace length, key): only those of the shortest length are decoded.
    let differing = onlyOld + onlyNew
    let shortest = differing.lazy.map(\.1).min()
    var best: (Int, TransitionKey)?
    for (code, length) in differing where length == shortest {
      let k = key(code)
      if best == nil || k < best!.1 { best = (code, k) }
    }
    guard let (code, key) = best else {
      return BehaviourGroup(
        step: "done", state: "", response: "", oldOutcomes: ["done reachable: \(a.doneReachable)"],
        newOutcomes: ["done reachable: \(b.doneReachable)"], configurations: 0, classes: 0, witness: witness,
        oldTrace: nil, newTrace: nil, reason: "", reachedSteps: [])
    }
    let vocabulary = self.vocabulary
    // The transitions at the same step, state and response: those whose code matches above the
    // outcome (a step in a state and a response each have one number), read without decoding
    // every transition of the class (decoding all of them took 95 % of a diff with many changed
    // classes).
    let prefix = code >> Vocabulary.outcomeBits
    func same(_ s: SideBehaviour) -> [Int] { s.transitions.filter { $0 >> Vocabulary.outcomeBits == prefix } }
    func outcomes(_ s: SideBehaviour) -> [String] { same(s).map { vocabulary.outcomeName($0) }.sorted() }
    func trace(_ s: SideBehaviour) -> [TraceCall]? {
      if let t = s.trace(through: code) { return t }
      // The shortest; among as short, the first by text.
      func text(_ t: [TraceCall]) -> String {
        t.map { "\($0.step)|\($0.response)|\($0.outcome)" }.joined(separator: "\n")
      }
      return same(s).compactMap { s.trace(through: $0) }.min { ($0.count, text($0)) < ($1.count, text($1)) }
    }
    return BehaviourGroup(
      step: key.step, state: key.state, response: key.response, oldOutcomes: outcomes(a), newOutcomes: outcomes(b),
      configurations: 0, classes: 0, witness: witness, oldTrace: trace(a), newTrace: trace(b), reason: "",
      reachedSteps: steps)
  }

  /// Why a class's configurations lie outside side `s`: a fixed value it lacks, a variable it
  /// lacks at another value than its default, or its constraints.
  private func why(_ assignment: [Int], outside s: Int) -> String {
    let side = space.sides[s]
    for j in 0..<space.count where assignment[j] >= 0 && !side.allowed[j][assignment[j]] {
      return "\(space.names[j]) = \(space.values[j][assignment[j]])"
    }
    for j in 0..<space.count where assignment[j] < 0 && side.allowed[j].contains(false) {
      if side.variable[j] == nil, let d = side.allowed[j].firstIndex(of: true) {
        let others = space.values[j].indices.filter { $0 != d }
        if others.count == 1 { return "\(space.names[j]) = \(space.values[j][others[0]])" }
        return "\(space.names[j]) ≠ \(space.values[j][d])"
      }
      let outside = space.values[j].indices.filter { !side.allowed[j][$0] }.map { space.values[j][$0] }
      return "\(space.names[j]) "
        + (outside.count == 1 ? "= \(outside[0])" : "in [" + outside.joined(separator: ", ") + "]")
    }
    return s == 0 ? "the constraints of OLD exclude them" : "the constraints of NEW exclude them"
  }

  private mutating func checkClients(_ b: SideBehaviour, witness: [(name: String, value: String)], count: Double) {
    for code in b.transitions {
      let forward = forwardStep(code)
      guard forward >= 0 else { continue }
      let step = forward >> 16
      if forwardResponses[step].isEmpty { forwardSteps.append(step) }
      forwardResponses[step].append(forward & 0xFFFF)
    }
    defer {
      for step in forwardSteps { forwardResponses[step].removeAll(keepingCapacity: true) }
      forwardSteps.removeAll(keepingCapacity: true)
    }
    for s in b.reachedSteps where new.steps[s].kind != .entry {
      let step = new.steps[s]
      // Read only for a finding: most classes reach most steps and break nothing.
      var traceToStep: [TraceCall]? = nil
      func trace() -> [TraceCall] {
        if let traceToStep { return traceToStep }
        let t = b.trace(toStep: s) ?? []
        traceToStep = t
        return t
      }
      for (k, p) in platforms.enumerated() {
        guard case .name(let stepName, let unknown) = stepNames[s][k] else { continue }
        if unknown {
          record(
            .init(
              platform: p, kind: .unknownStep, step: step.id, stepName: stepName, values: [], configurations: count,
              classes: 1, witness: witness, trace: trace()))
          continue
        }
        if let offers = step.offers, let indices = b.offered[s] {
          let setName = new.optionSets[offers.optionSet].name
          let offered = indices.map { new.optionSets[offers.optionSet].options[$0].name }
          let known = oldSets[setName] ?? allOldOptions
          let missing = offered.filter { !known.contains($0) }.sorted()
          if !missing.isEmpty {
            record(
              .init(
                platform: p, kind: .unknownOption, step: step.id, stepName: stepName, values: missing,
                configurations: count, classes: 1, witness: witness, trace: trace()))
          }
        }
        let forward = forwardResponses[s]
        if !step.isTerminal && !forward.isEmpty && !forward.contains(where: { oldHasResponse[$0] }) {
          let names = vocabulary.responses
          record(
            .init(
              platform: p, kind: .unsendableResponses, step: step.id, stepName: stepName,
              values: Set(forward.map { names[$0] }).sorted(), configurations: count, classes: 1, witness: witness,
              trace: trace()))
        }
      }
    }
  }

  /// `forwardCodes[code]`, decoded the first time.
  private mutating func forwardStep(_ code: Int) -> Int {
    if let known = forwardCodes[code] { return known }
    let k = vocabulary.stepResponseOutcome(code)
    let isForward =
      k.outcome != k.step && !k.outcome.hasPrefix("error ") && k.outcome != "restart"
      && !k.outcome.hasPrefix("restart ")
    var result = -1
    if isForward, let step = newStepIndex[k.step] {
      let response = vocabulary.responseIndex(code)
      while oldHasResponse.count <= response {
        oldHasResponse.append(oldResponses.contains(vocabulary.responses[oldHasResponse.count]))
      }
      result = step << 16 | response
    }
    _ = forwardCodes.insert(code, result)
    return result
  }

  private mutating func record(_ finding: CompatibilityFinding) {
    let key = "\(finding.platform)|\(finding.kind)|\(finding.step)|\(finding.values)"
    if var existing = findings[key] {
      existing.configurations += finding.configurations
      existing.classes += 1
      findings[key] = existing
    } else {
      findings[key] = finding
    }
  }
}
