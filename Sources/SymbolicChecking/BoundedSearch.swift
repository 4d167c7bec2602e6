import ModelChecking
import SignInModel
import Z3Kit

/// Bounded model checking with Z3: unrolls the transitions from signIn until a bad case
/// holds, and returns the configuration of the shortest such path. The symbolic checker
/// uses it to turn a Spacer "reachable" answer into a concrete configuration.
struct BoundedSearch {
  let model: SignInModel
  let maxDepth: Int
  let timeoutMilliseconds: UInt32

  /// The configuration (one value per configuration variable) of a shortest path on which
  /// one of `cases` holds (or, with `cycle`, a state repeats), or nil within `maxDepth`.
  func findConfiguration(
    cases: (InvariantConditions, [Int: Z3Term]) -> [InvariantConditions.Case], cycle: Bool = false
  ) -> [Int]? {
    let context = Z3Context(timeoutMilliseconds: timeoutMilliseconds)
    let encoding = Z3Encoding(model: model, context: context)
    let conditions = InvariantConditions(encoding: encoding)
    let solver = Z3Solver(context)
    let config = encoding.constants(model.configurationIndices)
    solver.assert(encoding.validConfiguration(config))
    var steps: [Z3Term] = []
    var flows: [[Int: Z3Term]] = []
    for depth in 0...maxDepth {
      let s = context.intConstant("step@\(depth)")
      var state = config
      for (i, t) in encoding.constants(model.flowIndices, prefix: "@\(depth).") { state[i] = t }
      if depth == 0 {
        solver.assert(context.equal(s, context.int(0)))
        for i in model.flowIndices { solver.assert(context.equal(state[i]!, context.int(model.variables[i].initial))) }
      } else {
        // The transition from depth-1 to depth.
        let previous = flows[depth - 1], ps = steps[depth - 1]
        var moves: [Z3Term] = []
        for branch in encoding.system.branches {
          guard let target = branch.target else { continue }
          let post = encoding.postFlow(branch, previous)
          moves.append(context.and(
            [context.equal(ps, context.int(branch.step)), conditions.enabled(branch, previous),
             context.equal(s, context.int(target))]
              + model.flowIndices.map { context.equal(state[$0]!, post[$0]!) }))
        }
        solver.assert(context.or(moves))
      }
      steps.append(s)
      flows.append(state)
      var bad = cases(conditions, state).map { context.and([context.equal(s, context.int($0.step)), $0.condition]) }
      if cycle {
        let nonTerminal = context.or(model.steps.indices.filter { !model.steps[$0].isTerminal }.map { context.equal(s, context.int($0)) })
        for j in 0..<depth {
          bad.append(context.and([nonTerminal, context.equal(s, steps[j])]
            + model.flowIndices.map { context.equal(state[$0]!, flows[j][$0]!) }))
        }
      }
      solver.push()
      solver.assert(context.or(bad))
      let result = solver.check()
      if result == .satisfiable {
        let values = model.configurationIndices.map { solver.integerValue(of: config[$0]!) ?? model.variables[$0].domain.values[0] }
        solver.pop()
        return values
      }
      solver.pop()
      if case .unknown = result { return nil }
    }
    return nil
  }

  /// The steps some path of at most `maxDepth` calls reaches (under some configuration):
  /// witnesses for `stepsReachable`, found with one incremental solver.
  func reachableSteps() -> Set<Int> {
    let context = Z3Context(timeoutMilliseconds: timeoutMilliseconds)
    let encoding = Z3Encoding(model: model, context: context)
    let conditions = InvariantConditions(encoding: encoding)
    let solver = Z3Solver(context)
    let config = encoding.constants(model.configurationIndices)
    solver.assert(encoding.validConfiguration(config))
    var found: Set<Int> = []
    var previous: (step: Z3Term, flow: [Int: Z3Term])? = nil
    for depth in 0...maxDepth {
      let s = context.intConstant("step@\(depth)")
      var state = config
      for (i, t) in encoding.constants(model.flowIndices, prefix: "@\(depth).") { state[i] = t }
      if let (ps, pf) = previous {
        var moves: [Z3Term] = []
        for branch in encoding.system.branches {
          guard let target = branch.target else { continue }
          let post = encoding.postFlow(branch, pf)
          moves.append(context.and(
            [context.equal(ps, context.int(branch.step)), conditions.enabled(branch, pf), context.equal(s, context.int(target))]
              + model.flowIndices.map { context.equal(state[$0]!, post[$0]!) }))
        }
        solver.assert(context.or(moves))
      } else {
        solver.assert(context.equal(s, context.int(0)))
        for i in model.flowIndices { solver.assert(context.equal(state[i]!, context.int(model.variables[i].initial))) }
      }
      previous = (s, state)
      while found.count < model.steps.count {
        solver.push()
        solver.assert(context.or(model.steps.indices.filter { !found.contains($0) }.map { context.equal(s, context.int($0)) }))
        let result = solver.check()
        let value = result == .satisfiable ? solver.integerValue(of: s) : nil
        solver.pop()
        guard let value else { break }
        found.insert(value)
      }
      if found.count == model.steps.count || solver.check() != .satisfiable { break }
    }
    return found
  }
}
