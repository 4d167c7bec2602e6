import Evolution
import ModelTestSupport
import SignInModel
import Testing

/// `lint` explores every configuration class before its reachability and exclusion checks; a
/// model whose classes are too many to explore stops at `maxClasses` and says which checks it
/// did not make, rather than running for hours (30 independent flags, each read by a guard,
/// have 2^30 classes).
@Suite("lint's class limit")
struct LintClassLimitTests {
  @Test("past the limit, the class-reading checks are not made and classLimit says so")
  func stopsAtTheLimit() throws {
    let model = try FlagChain.model(flags: 12)  // 4,096 classes
    var linter = Linter(model: model)
    linter.maxClasses = 100
    let warnings = linter.warnings()
    let limit = try #require(warnings.first { $0.rule == "classLimit" })
    #expect(limit.line == 1)
    #expect(limit.message.contains("stopped after 100 configuration classes (--max-classes)"))
    // Steps the first 100 classes never reached are not reported unreachable.
    #expect(
      !warnings.contains { ["stepUnreachable", "responseUnreachable", "excludedConfigurations"].contains($0.rule) })
  }

  @Test("past the limit, an acknowledgement of a rule not checked is not called stale")
  func acknowledgementsOfUncheckedRules() throws {
    let model = try ModelLoader.load(file: "models/2023-swift.yaml")
    let full = Linter(model: model)
    #expect(full.staleAcknowledgements(full.warnings()).isEmpty)
    #expect(model.lintAcknowledgements.contains { Linter.classReadingRules.contains($0.rule) })
    var limited = Linter(model: model)
    limited.maxClasses = 1
    let warnings = limited.warnings()
    #expect(warnings.contains { $0.rule == "classLimit" })
    #expect(limited.staleAcknowledgements(warnings).isEmpty)
  }

  @Test("within the limit, every check is made and there is no classLimit")
  func withinTheLimit() throws {
    let model = try FlagChain.model(flags: 12)
    var linter = Linter(model: model)
    linter.maxClasses = 4_096
    #expect(!linter.warnings().contains { $0.rule == "classLimit" })
    linter.maxClasses = 4_095
    #expect(linter.warnings().contains { $0.rule == "classLimit" })
  }

  @Test("the limit holds on several threads too")
  func threads() throws {
    let model = try FlagChain.model(flags: 14)
    var linter = Linter(model: model)
    // Each thread's copy: the same text loaded again.
    linter.copies = [try FlagChain.model(flags: 14), try FlagChain.model(flags: 14)]
    linter.maxClasses = 50
    #expect(linter.warnings().contains { $0.rule == "classLimit" })
  }
}
