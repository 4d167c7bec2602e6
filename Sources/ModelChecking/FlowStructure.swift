import SignInModel

/// What the rules of a model allow, read without evaluating a guard: which branches enter
/// each step, how many calls each step is from `done` at best, and the rules by line. The
/// explicit checker uses it to explain vacuity (`stepsReachable`) and `doneReachable`.
struct FlowStructure: Sendable {
  let system: TransitionSystem
  /// Per step, the branches (indices into `system.branches`) that lead into it from another step.
  let waysIn: [[Int]]
  /// Per step, the branches out of it that lead to another step, each with that step.
  let waysOut: [[(branch: Int, target: Int)]]
  /// Per step, the fewest calls to a `signedIn` step if every guard held (`Int.max`: none).
  let distanceToDone: [Int]
  /// Every rule of the model by its line.
  let rules: [Int: Rule]

  init(system: TransitionSystem) {
    self.system = system
    let model = system.model
    var waysIn = [[Int]](repeating: [], count: model.steps.count)
    var waysOut = [[(branch: Int, target: Int)]](repeating: [], count: model.steps.count)
    for (b, branch) in system.branches.enumerated() {
      guard case .step(let t) = branch.outcome, t != branch.step else { continue }
      waysIn[t].append(b)
      waysOut[branch.step].append((b, t))
    }
    var distance = model.steps.map { $0.kind == .signedIn ? 0 : Int.max }
    var queue = distance.indices.filter { distance[$0] == 0 }
    var head = 0
    while head < queue.count {
      let t = queue[head]
      head += 1
      for b in waysIn[t] where distance[system.branches[b].step] == .max {
        distance[system.branches[b].step] = distance[t] + 1
        queue.append(system.branches[b].step)
      }
    }
    var rules: [Int: Rule] = [:]
    for step in model.steps { for response in step.responses { for r in response.rules { rules[r.line] = r } } }
    for route in model.routes { for r in route.rules { rules[r.line] = r } }
    self.waysIn = waysIn
    self.waysOut = waysOut
    self.distanceToDone = distance
    self.rules = rules
  }

  /// The response slot of `branch` in its step's responses.
  func slot(of branch: Int) -> Int {
    let b = system.branches[branch]
    return system.model.steps[b.step].responses.firstIndex { $0.response == b.response } ?? 0
  }

  /// The rules on the way to `branch`, each with its guard composed over the pre-state.
  func alternatives(to branch: Int) -> [TransitionSystem.Alternative] {
    func search(_ decision: TransitionSystem.Decision) -> [TransitionSystem.Alternative]? {
      for alternative in decision.alternatives {
        switch alternative.next {
        case .branch(let b) where b == branch: return [alternative]
        case .branch: continue
        case .decision(let sub): if let rest = search(sub) { return [alternative] + rest }
        }
      }
      return nil
    }
    let b = system.branches[branch]
    return search(system.decisions[b.step][slot(of: branch)]) ?? []
  }

  /// "the rule at models/x.yaml:12 (when "pool.mfa == required")", for each rule on the way
  /// to `branch` that has a guard; with `valuation`, only the rules whose guard is false there.
  func guards(of branch: Int, blockedIn valuation: [Int]? = nil) -> [String] {
    let file = system.model.file
    var result: [String] = []
    for alternative in alternatives(to: branch) {
      guard let rule = rules[alternative.line], !rule.guardText.isEmpty, rule.guardText != "true" else { continue }
      if let valuation, (try? alternative.guardExpr.holds(valuation)) != false { continue }
      result.append("the rule at \(file):\(rule.line) (when \"\(rule.guardText)\")")
    }
    return result
  }

  /// "from 'signIn' on correctPassword", for the start of a way in or out.
  func origin(of branch: Int) -> String {
    let b = system.branches[branch]
    return "from '\(system.model.steps[b.step].id)' on \(system.model.responses[b.response].name)"
  }
}
