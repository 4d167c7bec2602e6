import SignInModel

/// An evaluation of a three-valued exploration (`FlowGraph.threeValued`) whose strict
/// evaluation stopped at an unassigned variable: its code, and the valuation it read (the
/// configuration, then the flow of `node`, after `branch`'s effects when `branch` >= 0).
struct StrictStop {
  let code: ArraySlice<Int>
  let stackDepth: Int
  let node: Int
  let branch: Int

  init(_ stopped: StoppedCode, node: Int, branch: Int = -1) {
    code = stopped.code
    stackDepth = stopped.stackDepth
    self.node = node
    self.branch = branch
  }
}

/// Code whose strict evaluation stopped at an unassigned variable (`CompiledExpr` instructions)
/// and the stack it needs: what `FlowGraph.strictStops` keeps to split a three-valued class
/// into the strict search's classes.
struct StoppedCode {
  let code: ArraySlice<Int>
  let stackDepth: Int

  /// The strict evaluation over `valuation`: -1 when it completes, else the first unassigned
  /// variable it reads.
  func run(_ valuation: UnsafeBufferPointer<Int>) -> Int {
    var missing = -1
    code.withUnsafeBufferPointer { c in
      withUnsafeTemporaryAllocation(of: Int.self, capacity: stackDepth) { stack in
        _ = CompiledExpr.run(code: c, valuation: valuation, stack: stack.baseAddress!, missing: &missing)
      }
    }
    return missing
  }

  func run(_ valuation: [Int]) -> Int { valuation.withUnsafeBufferPointer { run($0) } }
}

/// Where table code (`SearchTables.applyEffects`, `evaluateMarks`, `firstBrokenFact`) stopped:
/// the unassigned variable, and the code of the entry that read it.
struct TableStop {
  let variable: Int
  let code: StoppedCode
}
