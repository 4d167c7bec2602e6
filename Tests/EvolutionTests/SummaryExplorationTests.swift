import Evolution
import SignInModel
import Testing

/// `lint` explores classes without recording their transitions (`recordsTransitions: false`):
/// it sees the same classes, with the same steps reached, the same `done` verdict and the same
/// responses given as an explorer that records every transition.
@Suite("Classes explored without their transitions")
struct SummaryExplorationTests {
  /// What lint reads of a class.
  struct Summary: Equatable {
    var assignment: [Int]
    var reached: [Int]
    var done: Bool
    var responses: Set<String>
  }

  @Test(
    "every class, one constraint broken or none, reaches the same steps and gives the same responses",
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
    #expect(recorded.contains { !$0.done } && recorded.contains(where: \.done))
    #expect(transitionsKept == 0)
    #expect(tracesGiven == 0)
    #expect(summarised == recorded)
  }
}
