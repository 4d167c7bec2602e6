import ModelChecking

/// A sample's expected next step that the model never produces from that step with that
/// answer under any configuration (no branch of the transition system leads there), and an
/// expected step whose name denotes several different steps on the platform.
enum FlowCheck {
  static func findings(_ c: CheckContext, system: TransitionSystem) -> [Finding] {
    var result: [Finding] = []
    for fact in c.facts {
      guard case .flow(let fromName, let answer, let expectedName) = fact.content else { continue }
      let from = c.steps(fromName, fact)
      let expected = c.steps(expectedName, fact)
      guard !from.isEmpty, !expected.isEmpty else { continue }
      let response = c.model.responses.firstIndex { $0.name.lowercased() == "select\(answer)".lowercased() }
      let produced = system.branches.contains { b in
        from.contains(b.step) && (response == nil || b.response == response)
          && b.target.map(expected.contains) == true && b.target != b.step
      }
      if !produced {
        let targets = Set(
          system.branches.filter { from.contains($0.step) && (response == nil || $0.response == response) }
            .compactMap { $0.target }.filter { !from.contains($0) }
        ).map { c.model.steps[$0].id }.sorted()
        let line =
          system.branches.first { from.contains($0.step) && (response == nil || $0.response == response) }?
          .ruleLines.first ?? c.model.steps[from[0]].line
        result.append(
          c.finding(
            fact.sample ? .sampleUnexpectedNextStep : .unexpectedNextStep, fact, modelLine: line,
            modelText: "from \(c.model.steps[from[0]].id) with \(answer): "
              + (targets.isEmpty ? "no step" : targets.joined(separator: ", ")),
            message: (fact.sample
              ? "the sample answers \(answer) at \(fromName) and then tests for \(expectedName)"
              : "the page expects \(expectedName) after \(answer) at \(fromName)") + "; the model never goes there"
              + (targets.isEmpty ? "" : " (it goes to " + targets.joined(separator: ", ") + ")")))
      }
      // The name's first meaning (the first step the model gives it) is not where the flow goes.
      let bases = Set(expected.map(c.view.baseId))
      let reached = Set(
        system.branches.filter { from.contains($0.step) && (response == nil || $0.response == response) }
          .compactMap { $0.target }.filter { expected.contains($0) }.map(c.view.baseId))
      if bases.count > 1, !reached.isEmpty, !reached.contains(c.view.baseId(expected[0])) {
        result.append(
          c.finding(
            .ambiguousName, fact, modelLine: c.model.steps[expected[0]].line,
            modelText: "\(expectedName) on \(fact.platform ?? "?") names " + bases.sorted().joined(separator: " and "),
            message: "the page expects \(expectedName), which names \(bases.count) different steps on "
              + (fact.platform ?? "this platform")))
      }
    }
    return result
  }
}
