import ModelChecking
import Reporting
import SignInModel
import Testing

/// What the explicit search reports having explored when an `indistinguishable` property is
/// checked: the model's own search beside other properties; the self-composition's pairs of
/// runs when it is checked alone (never "0 configuration classes" for a search that ran).
@Suite struct SelfCompositionStatisticsTests {
  static let property = Invariant(rawValue: "unknownUserLikeWrongPassword")

  @Test func alonePropertyReportsItsSelfComposition() throws {
    let model = try ModelLoader.load(file: "models/2023-swift.yaml")
    let report = ExplicitChecker(model: model, jobs: 1).check(invariants: [Self.property])
    let s = report.statistics
    #expect(report.results.map(\.invariant) == [Self.property])
    #expect(s.selfCompositions == 1)
    #expect(s.configurationClasses > 0 && s.configurations > 0 && s.states > 0 && s.transitions > 0)
    let line = TextReport.render(report)
    #expect(line.contains("explicit search of the self-composition of 1 indistinguishable property: "))
    #expect(line.contains("pairs of configurations"))
    #expect(!line.contains(" 0 configuration classes"))
  }

  @Test func besideOtherPropertiesTheModelsOwnSearchIsReported() throws {
    let model = try ModelLoader.load(file: "models/2023-swift.yaml")
    let both = ExplicitChecker(model: model, jobs: 1).check(invariants: [.doneReachable, Self.property])
    let own = ExplicitChecker(model: model, jobs: 1).check(invariants: [.doneReachable])
    #expect(both.statistics.selfCompositions == 0)
    #expect(both.statistics.configurationClasses == own.statistics.configurationClasses)
    #expect(both.statistics.states == own.statistics.states)
    #expect(both.results.map(\.invariant) == [.doneReachable, Self.property])
    let line = TextReport.render(both)
    #expect(
      line.contains("  explicit search: \(own.statistics.configurationClasses.formatted()) configuration classes"))
    #expect(!line.contains("self-composition"))
  }
}
