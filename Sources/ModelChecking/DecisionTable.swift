import SignInModel

/// `TransitionSystem.decisions` flattened for the hot paths of the simulators and the explicit
/// search (`uniqueBranch`): every
/// rule list's alternatives as rows of integer arrays, and every guard's compiled code in one
/// array. Walking it retains nothing per alternative, where the tree of `Decision` values and
/// `Alternative` objects is retained and released at every rule.
final class DecisionTable: Sendable {
  /// All guards' code, one after the other; guard `n` is `code[codeStart[n]..<codeStart[n + 1]]`.
  let code: [Int]
  let codeStart: [Int]
  /// Per alternative (row): what it leads to, a branch index (>= 0) or the rule list `-1 - d`.
  let next: [Int]
  /// Rule list `d`'s alternatives are rows `rowStart[d]..<rowStart[d + 1]`.
  let rowStart: [Int]
  /// `roots[step][slot]`: the rule list of `model.steps[step].responses[slot]`.
  let roots: [[Int]]
  /// The deepest stack any guard needs.
  let stackDepth: Int
  /// Per row, its guard for three-valued evaluation (`uniqueBranch(…stops:)`).
  let partials: [PartialExpr]

  init(_ decisions: [[TransitionSystem.Decision]]) {
    var code: [Int] = []
    var codeStart: [Int] = []
    var next: [Int] = []
    var rowStart: [Int] = []
    var depth = 1
    var lists: [TransitionSystem.Decision] = []
    var partials: [PartialExpr] = []
    // Rule lists are numbered breadth-first: a list's rows are written when it is reached,
    // and a row naming a sub-list gives it the next number.
    func number(_ d: TransitionSystem.Decision) -> Int {
      lists.append(d)
      return lists.count - 1
    }
    let roots = decisions.map { $0.map(number) }
    var d = 0
    while d < lists.count {
      rowStart.append(next.count)
      for alternative in lists[d].alternatives {
        codeStart.append(code.count)
        code += alternative.guardCode.instructions
        partials.append(alternative.guardCode.threeValued)
        depth = max(depth, alternative.guardCode.stackDepth)
        switch alternative.next {
        case .branch(let b): next.append(b)
        case .decision(let sub): next.append(-1 - number(sub))
        }
      }
      d += 1
    }
    rowStart.append(next.count)
    codeStart.append(code.count)
    self.code = code
    self.partials = partials
    self.codeStart = codeStart
    self.next = next
    self.rowStart = rowStart
    self.roots = roots
    stackDepth = depth
  }

  /// `TransitionSystem.uniqueBranch`: the one branch the rule lists from `roots[step][slot]` lead
  /// to, or nil where a list has zero or several matching rules; each list's guards are read in
  /// rule order up to its second match, or all of them with `readingEveryGuard` (as
  /// `TransitionSystem.matchingBranches` reads them, so both stop at the same unassigned variable).
  /// - Throws: `UnassignedVariable` for the first unassigned variable a guard reads.
  func uniqueBranch(step: Int, slot: Int, valuation: [Int], readingEveryGuard: Bool = false)
    throws(UnassignedVariable) -> Int?
  {
    var stopped: [Int] = []
    return try walk(step, slot, valuation, readingEveryGuard: readingEveryGuard, threeValued: false, &stopped)
  }

  /// `uniqueBranch` reading every guard, three-valued: a guard whose strict evaluation stops at
  /// an unassigned variable is appended to `stops` and counts with its Kleene value when that is
  /// decided (so `a == x && b` with `b` false reads no `a`).
  /// - Throws: `UnassignedVariable` for the strict stop of the first guard whose value depends on
  ///   an unassigned variable.
  func uniqueBranch(step: Int, slot: Int, valuation: [Int], stops: inout [StoppedCode]) throws(UnassignedVariable)
    -> Int?
  {
    var stopped: [Int] = []
    defer {
      for row in stopped {
        stops.append(StoppedCode(code: code[codeStart[row]..<codeStart[row + 1]], stackDepth: stackDepth))
      }
    }
    return try walk(step, slot, valuation, readingEveryGuard: true, threeValued: true, &stopped)
  }

  /// The walk of both `uniqueBranch`es. A guard whose strict evaluation stops ends the walk, or
  /// with `threeValued` has its row appended to `stopped` and counts with its Kleene value when
  /// that is decided.
  private func walk(
    _ step: Int, _ slot: Int, _ valuation: [Int], readingEveryGuard: Bool, threeValued: Bool, _ stopped: inout [Int]
  ) throws(UnassignedVariable) -> Int? {
    var missing = -1
    let result: Int? = code.withUnsafeBufferPointer { c in
      valuation.withUnsafeBufferPointer { v in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: stackDepth) { stack in
          var list = roots[step][slot]
          while true {
            var found = -1
            var several = false
            for row in rowStart[list]..<rowStart[list + 1] {
              let guardCode = UnsafeBufferPointer(rebasing: c[codeStart[row]..<codeStart[row + 1]])
              var value = CompiledExpr.run(code: guardCode, valuation: v, stack: stack.baseAddress!, missing: &missing)
              if missing >= 0 {
                guard threeValued else { return nil }
                stopped.append(row)
                guard let decided = partials[row].evaluate(v) else { return nil }
                missing = -1
                value = decided
              }
              guard value != 0 else { continue }
              if found >= 0 {
                if !readingEveryGuard { return nil }
                several = true
              }
              found = row
            }
            guard found >= 0, !several else { return nil }
            let target = next[found]
            if target >= 0 { return target }
            list = -1 - target
          }
        }
      }
    }
    if missing >= 0 { throw UnassignedVariable(index: missing) }
    return result
  }
}
