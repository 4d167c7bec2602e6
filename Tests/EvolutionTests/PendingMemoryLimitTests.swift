import Evolution
import ModelChecking
import ModelTestSupport
import SignInModel
import Testing

/// lint and diff explore configuration classes depth first, and each class a fork leaves
/// waiting keeps a copy of the search so far: on a model whose every step reads a new flag the
/// waiting classes hold memory that grows with the square of the steps (10,000 flags took lint
/// past 5 GB before its first class). Past `maxPendingBytes` they stop and say which limit.
@Suite("lint's and diff's pending-memory limit")
struct PendingMemoryLimitTests {
  @Test("lint stops when the waiting classes pass the limit, and warns classLimit naming it")
  func lintStops() throws {
    let model = try FlagChain.model(flags: 2_000)
    var linter = Linter(model: model)
    linter.maxPendingBytes = 1 << 20
    let warnings = linter.warnings()
    let limit = try #require(warnings.first { $0.rule == "classLimit" })
    #expect(limit.message.contains("held more than 1 MB (--max-pending-memory)"))
    #expect(!warnings.contains { Linter.classReadingRules.contains($0.rule) })
  }

  @Test("on several threads, lint stops the same way")
  func lintStopsOnThreads() throws {
    var linter = Linter(model: try FlagChain.model(flags: 2_000))
    linter.copies = [try FlagChain.model(flags: 2_000), try FlagChain.model(flags: 2_000)]
    linter.maxPendingBytes = 1 << 20
    #expect(linter.warnings().contains { $0.rule == "classLimit" && $0.message.contains("--max-pending-memory") })
  }

  @Test("under the limit, lint checks everything, as without one")
  func lintUnderTheLimit() throws {
    let model = try FlagChain.model(flags: 8)
    var limited = Linter(model: model)
    limited.maxPendingBytes = 1 << 20
    var unlimited = Linter(model: model)
    unlimited.maxPendingBytes = .max
    let warnings = limited.warnings()
    #expect(!warnings.contains { $0.rule == "classLimit" })
    #expect(warnings.map(\.message) == unlimited.warnings().map(\.message))
  }

  @Test("diff stops when the waiting classes pass the limit, and its report names it")
  func diffStops() throws {
    let model = try FlagChain.model(flags: 2_000)
    let d = ModelDiff(old: model, new: model, maxPendingBytes: 1 << 20)
    #expect(d.limitReached)
    #expect(d.limit?.contains("held more than 1 MB (--max-pending-memory)") == true)
    #expect(DiffTextReport.render(d).contains("INCOMPLETE: stopped when the configuration classes waiting"))
  }

  @Test("the shared count holds, releases and remembers that the limit was passed")
  func accounting() {
    let pending = PendingMemory(limitBytes: 100)
    #expect(pending.hold(60))
    pending.release(60)
    #expect(pending.hold(100))
    #expect(!pending.exceeded)
    #expect(!pending.hold(1))
    pending.release(101)
    #expect(!pending.hold(1), "once passed, the limit stays passed")
    #expect(pending.exceeded)
  }
}
