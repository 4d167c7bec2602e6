import Evolution
import Foundation
import ModelTestSupport
import SignInModel
import Testing

/// `diff` compares two models class by class; models whose classes are too many to compare
/// stop at `maxClasses` and say that their counts are partial, rather than running for hours
/// (30 independent flags, each read by a guard, have 2^30 classes).
@Suite("diff's class limit")
struct DiffClassLimitTests {
  @Test("past the limit, the diff stops, and every report says its counts are partial")
  func stopsAtTheLimit() throws {
    let model = try FlagChain.model(flags: 12)  // 4,096 classes
    let d = ModelDiff(old: model, new: model, maxClasses: 100)
    #expect(d.limitReached)
    #expect(d.classes == 100)
    #expect(d.compared > 0 && d.compared < 4096)
    #expect(!d.isBreaking)
    let text = DiffTextReport.render(d)
    #expect(text.contains("INCOMPLETE: stopped after 100 configuration classes (--max-classes)"))
    #expect(text.contains("nothing breaking in the classes compared (INCOMPLETE)"))
    #expect(!text.contains("no behavioural change for the configurations in both models"))
    #expect(DiffMarkdownReport.render(d).contains("INCOMPLETE: stopped after 100 configuration classes"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(DiffJSONReport.render(d, tool: "t").utf8)) as? [String: Any])
    let behaviour = try #require(json["behaviour"] as? [String: Any])
    #expect(behaviour["complete"] as? Bool == false)
    #expect(behaviour["maxClasses"] as? Int == 100)
  }

  @Test("past the states limit, the diff stops before the class that would pass it")
  func stopsAtTheStatesLimit() throws {
    let model = try FlagChain.model(flags: 12)
    let whole = ModelDiff(old: model, new: model)
    let perClass = whole.statesCompared / whole.classes  // every class has the same path
    let d = ModelDiff(old: model, new: model, maxStates: perClass * 10 + 1)
    #expect(d.classes == 10)
    #expect(d.statesCompared == perClass * 10)
    #expect(d.limit == "stopped before passing \(perClass * 10 + 1) states compared (--max-states), after 10 classes")
    #expect(DiffTextReport.render(d).contains("INCOMPLETE: stopped before passing"))
  }

  @Test("under the limit, the diff is whole and says nothing of a limit")
  func wholeUnderTheLimit() throws {
    let model = try FlagChain.model(flags: 6)  // 64 classes
    let d = ModelDiff(old: model, new: model, maxClasses: 64)
    #expect(!d.limitReached)
    #expect(d.classes == 64)
    #expect(d.compared == 64 && d.unchanged == 64)
    #expect(DiffTextReport.partialNote(d) == nil)
    #expect(DiffTextReport.render(d).contains("no behavioural change for the configurations in both models"))
  }

  @Test("on several threads the limit stops every thread and compares the same classes")
  func threadsStopAlike() throws {
    let model = try FlagChain.model(flags: 12)
    // Each thread's copies: the same text loaded again.
    let copies = try (0..<2).map { _ in
      [try FlagChain.model(flags: 12), try FlagChain.model(flags: 12)]
    }
    let alone = ModelDiff(old: model, new: model, maxClasses: 300)
    let together = ModelDiff(old: model, new: model, copies: copies, bufferedClasses: 3, maxClasses: 300)
    #expect(together.limitReached && together.classes == 300)
    #expect(DiffJSONReport.render(alone, tool: "t") == DiffJSONReport.render(together, tool: "t"))
  }
}
