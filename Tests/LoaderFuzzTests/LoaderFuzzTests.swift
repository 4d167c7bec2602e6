import Foundation
import LoaderFuzzing
import SignInModel
import Testing

@Suite("The loader's own fuzz test")
struct LoaderFuzzTests {
  static func shippedModels() throws -> [String] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../models")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
      .sorted()
    return try names.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
  }

  @Test("200 mutated models of the smallest shipped model: each loads or is refused with a located error (smoke run)")
  func mutatedModelsSmoke() throws {
    let models = try Self.shippedModels()
    let figures = LoaderFuzzRun(models: [models[0]], limitSeconds: 60).run(seed: 14, inputs: 0..<200)
    #expect(figures.inputs == 200)
    #expect(figures.failures.isEmpty, "\(figures.failures.prefix(5))")
    #expect(figures.loaded > 0, "no mutant loaded: the harness would reject everything")
    #expect(figures.inputs - figures.loaded > 100)
  }

  @Test("each shipped model loads in process with any one comment line dropped (the acceptance path)")
  func droppedCommentLoads() throws {
    for (m, model) in try Self.shippedModels().enumerated() {
      let lines = model.split(separator: "\n", omittingEmptySubsequences: false)
      let comments = lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("#") }
      #expect(comments.count > 10)
      for i in comments.prefix(40) {
        var kept = lines
        kept.remove(at: i)
        let bytes = Array(kept.joined(separator: "\n").utf8)
        #expect(
          (try? ModelLoader.load(bytes: bytes, file: "model-\(m)-without-line-\(i + 1).yaml")) != nil,
          "model \(m) without line \(i + 1)")
      }
    }
  }

  @Test("the same seed gives the same inputs")
  func deterministic() throws {
    let mutator = ModelTextMutator(models: try Self.shippedModels())
    #expect(mutator.input(seed: 7, index: 42).bytes == mutator.input(seed: 7, index: 42).bytes)
    #expect(mutator.input(seed: 7, index: 42).bytes != mutator.input(seed: 7, index: 43).bytes)
  }
}
