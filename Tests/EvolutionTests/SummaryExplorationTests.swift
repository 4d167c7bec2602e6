import Evolution
import SignInModel
import Testing

/// `lint` explores classes without recording their transitions (`recordsTransitions: false`),
/// evaluating guards three-valued: its classes are coarser than those of an explorer that
/// records every transition, and wherever the two share a configuration they agree on the
/// steps reached, the `done` verdict and the responses given.
@Suite("Classes explored without their transitions")
struct SummaryExplorationTests {
  /// What lint reads of a class.
  struct Summary: Equatable {
    var assignment: [Int]
    var reached: [Int]
    var done: Bool
    var responses: Set<String>

    /// Whether some configuration is in both classes: no variable fixed to two values.
    func overlaps(_ other: Summary) -> Bool {
      zip(assignment, other.assignment).allSatisfy { $0 < 0 || $1 < 0 || $0 == $1 }
    }
  }

  @Test(
    "every class, one constraint broken or none, reaches the steps and gives the responses of the finer classes it meets",
    arguments: ["2023-swift", "2024-flutter"])
  func sameSummaries(name: String) throws {
    let model = try EvolutionPairs.model(name)
    let recording = ClassExplorer(space: JointSpace([model]), brokenConstraintsAllowed: 1)
    var recorded: [Summary] = []
    recording.explore { c in
      guard let b = c.behaviours[0] else { return }
      recorded.append(
        Summary(
          assignment: c.assignment, reached: b.reachedSteps, done: b.doneReachable,
          responses: Set(b.transitions.map { recording.vocabulary.decode($0).response })))
    }
    let summarising = ClassExplorer(
      space: JointSpace([model]), brokenConstraintsAllowed: 1, recordsTransitions: false)
    var summarised: [Summary] = []
    var transitionsKept = 0
    var tracesGiven = 0
    summarising.explore { c in
      guard let b = c.behaviours[0] else { return }
      transitionsKept += b.transitions.count
      // Without a search tree there is no trace to a step past the start, and asking is safe.
      tracesGiven += b.reachedSteps.filter { $0 != 0 }.compactMap { b.trace(toStep: $0) }.count
      summarised.append(
        Summary(
          assignment: c.assignment, reached: b.reachedSteps, done: b.doneReachable,
          responses: Set(b.responsesGiven.indices.filter { b.responsesGiven[$0] }.map { model.responses[$0].name })))
    }
    #expect(recorded.count > 100)
    #expect(summarised.contains { !$0.done } && summarised.contains(where: \.done))
    #expect(transitionsKept == 0)
    #expect(tracesGiven == 0)
    // Coarser: fewer classes, each fixing no more variables than some finer class it meets.
    #expect(summarised.count < recorded.count)
    var disagreements: [String] = []
    for fine in recorded {
      let met = summarised.filter { $0.overlaps(fine) }
      if met.isEmpty { disagreements.append("no summarised class meets \(fine.assignment)") }
      for coarse in met
      where coarse.reached != fine.reached || coarse.done != fine.done || coarse.responses != fine.responses {
        disagreements.append("\(coarse.assignment) and \(fine.assignment) share a configuration but not a summary")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
  }
}
