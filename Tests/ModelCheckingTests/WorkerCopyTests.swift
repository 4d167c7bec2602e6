import Foundation
import ModelChecking
import SignInModel
import Testing

/// The explicit search's workers each read their own copy of the model (`ModelLoader.reload`),
/// so they share no reference-counted object; the copies must change nothing but the time.
@Suite("Worker copies of the model")
struct WorkerCopyTests {
  @Test("reload gives an equal model from the same file, sharing no step with it")
  func reloadIsEqual() throws {
    let model = try ModelLoader.load(file: "models/2023-swift.yaml")
    let copy = try #require(ModelLoader.reload(model))
    #expect(copy.contentHash == model.contentHash)
    #expect(copy.steps.map(\.id) == model.steps.map(\.id))
    #expect(copy.variables.map(\.name) == model.variables.map(\.name))
    #expect(!zip(copy.steps, model.steps).contains { $0 === $1 })
  }

  @Test("a model with more rules than copyRuleLimit is not copied for another thread; a shipped one is")
  func bigModelsAreShared() throws {
    #expect(ModelLoader.copyForThread(try ModelLoader.load(file: "models/2026-all-platforms.yaml")) != nil)
    // The 2023 model with copyRuleLimit + 1 more routes of one rule each (unused, so lint's business).
    let routes = (0..<(ModelLoader.copyRuleLimit + 1)).map { "  extra\($0):\n    - goto: done" }.joined(separator: "\n")
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let range = try #require(text.range(of: "\nroutes:\n"))
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString).yaml").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try text.replacingCharacters(in: range, with: "\nroutes:\n" + routes + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    let big = try ModelLoader.load(file: path)
    #expect(ModelLoader.reload(big) != nil)
    #expect(ModelLoader.copyForThread(big) == nil)
  }

  @Test("reload refuses a model whose file is gone or says something else now")
  func reloadRefusesAnotherText() throws {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString).yaml").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelLoader.load(file: path)
    #expect(ModelLoader.reload(model) != nil)
    // The file changed after loading (a comment is enough): the copy would not be this model.
    try (text + "\n# edited\n").write(toFile: path, atomically: true, encoding: .utf8)
    #expect(ModelLoader.reload(model) == nil)
    try FileManager.default.removeItem(atPath: path)
    #expect(ModelLoader.reload(model) == nil)
    // A model built from text in memory names a file that does not hold it.
    let inMemory = try ModelLoader.load(yaml: text, file: "not-a-file.yaml")
    #expect(ModelLoader.reload(inMemory) == nil)
  }

  /// The 2024 model as shipped, and the 2023 model with wrong codes unbounded (a cycle).
  /// (The broken model's file is left for `reload`; the caller removes it.)
  static func models() throws -> (models: [SignInModel], file: String) {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let bounded =
      "        - when: \"flow.retries < 4\"\n          error: CodeMismatchException\n"
      + "          set: {flow.retries: \"flow.retries + 1\"}\n        - when: \"flow.retries == 4\"\n"
      + "          restart: \"NotAuthorizedException: five wrong MFA codes start the lockout\""
    let range = try #require(text.range(of: bounded))
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).yaml").path
    try text.replacingCharacters(in: range, with: "        - error: CodeMismatchException").write(
      toFile: path, atomically: true, encoding: .utf8)
    return ([try ModelLoader.load(file: "models/2024-flutter.yaml"), try ModelLoader.load(file: path)], path)
  }

  @Test("two workers with a copy each find the same statistics, verdicts and traces as one worker")
  func sameReport() throws {
    let (models, file) = try Self.models()
    defer { try? FileManager.default.removeItem(atPath: file) }
    for model in models {
      let alone = ExplicitChecker(model: model, jobs: 1).check()
      var two = ExplicitChecker(model: model, jobs: 2)
      two.workerSystems = [TransitionSystem(model: try #require(ModelLoader.reload(model)))]
      let together = two.check()
      #expect(together.statistics.configurationClasses == alone.statistics.configurationClasses)
      #expect(together.statistics.configurations == alone.statistics.configurations)
      #expect(together.statistics.states == alone.statistics.states)
      #expect(together.statistics.transitions == alone.statistics.transitions)
      #expect(together.results.map(\.verdict) == alone.results.map(\.verdict))
      if model.file.contains("broken") {
        #expect(alone.results.contains { if case .violated = $0.verdict { true } else { false } })
      }
    }
  }
}
