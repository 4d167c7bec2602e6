import SignInModel

/// The classes the strict search makes of a class explored three-valued.
///
/// The strict search forks a class at the first unassigned variable any evaluation reads, in
/// the order it evaluates; the three-valued search only where a value depends on one. Both
/// explore the same graph for every configuration of a three-valued class (the values it takes
/// decide every guard the same way for all of them), so the strict classes inside it differ only
/// in their configuration and their fork key. Replaying the evaluations whose strict evaluation
/// stopped (`strictStops`, in order) over the class's configurations, forking as the strict
/// search does, gives exactly those classes: an evaluation that did not stop reads only
/// variables the class fixes, and reads the same ones under any finer configuration.
extension FlowGraph {
  /// Calls `body` with the configuration and fork key of each class the strict search, started
  /// from `root` (the configuration before any fork), makes of this graph's class, in the order
  /// it would find them; `canSignIn` is what the strict search evaluates before the first
  /// state. Each strict class fixes, of the variables this class leaves free, those a strict
  /// evaluation on the way reads.
  func strictClasses(from root: [Int], canSignIn: CompiledExpr?, _ body: (_ configuration: [Int], _ key: [Int]) -> Void)
  {
    let tables = system.search
    let configurationCount = configuration.count
    var values = [Int](repeating: 0, count: configurationCount + flowCount)
    var after = values
    // Depth first, first value first: (configuration, key, the stop to evaluate next; -1 for canSignIn).
    var pending: [(configuration: [Int], key: [Int], next: Int)] = [(root, [], canSignIn == nil ? 0 : -1)]
    while var item = pending.popLast() {
      var missing = -1
      // The valuation (and the one after `branch`) last built, for this item's configuration.
      var built = (node: -1, branch: -1)
      for i in 0..<configurationCount { values[i] = item.configuration[i] }
      while item.next < strictStops.count {
        if item.next < 0 {
          missing = StoppedCode(code: canSignIn!.instructions[...], stackDepth: canSignIn!.stackDepth).run(
            item.configuration)
        } else {
          let stop = strictStops[item.next]
          if stop.node != built.node {
            let flow = flow(of: stop.node)
            for k in 0..<flowCount { values[configurationCount + k] = flow[flow.startIndex + k] }
            built = (stop.node, -1)
          }
          if stop.branch >= 0 {
            if stop.branch != built.branch {
              for i in values.indices { after[i] = values[i] }
              built.branch = stop.branch
              missing = tables.applyEffects(branch: stop.branch, values: values, into: &after)?.variable ?? -1
              if missing >= 0 { built.branch = -1 }
            }
            if missing < 0 { missing = StoppedCode(code: stop.code, stackDepth: stop.stackDepth).run(after) }
          } else {
            missing = StoppedCode(code: stop.code, stackDepth: stop.stackDepth).run(values)
          }
        }
        if missing >= 0 { break }
        item.next += 1
      }
      guard missing >= 0 else {
        body(item.configuration, item.key)
        continue
      }
      // The strict search forks here: on every value, or on this class's where it fixes one.
      let fixed = configuration[missing]
      let choices = fixed == unassigned ? model.variables[missing].domain.values : [fixed]
      for value in choices.reversed() {
        var child = item
        child.configuration[missing] = value
        child.key += [missing, value]
        pending.append(child)
      }
    }
  }
}
