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

  @Test(
    "2,000 mutated models: every one loads or is refused with a located error, none past 60 s (a hang, not a speed test)"
  )
  func mutatedModels() throws {
    let models = try Self.shippedModels()
    #expect(models.count == 3)
    // The smallest model keeps a debug run under a minute; every mutation kind is still drawn.
    let figures = LoaderFuzzRun(models: [models[0]], limitSeconds: 60).run(seed: 14, inputs: 0..<2_000)
    #expect(figures.inputs == 2_000)
    #expect(figures.failures.isEmpty, "\(figures.failures.prefix(5))")
    #expect(figures.inputs - figures.loaded > 1_000)
    // Acceptance paths too: mutants that stay valid (a comment dropped, a line re-indented
    // inside a comment, a `#` appended) must load; 0 loaded would mean the harness rejects all.
    #expect(figures.loaded >= 40, "only \(figures.loaded) of 2,000 mutants loaded")
    #expect(figures.rejectionsByKind["alias bomb", default: 0] > 0)
    #expect(figures.rejectionsByKind["expression depth", default: 0] > 0)
    #expect(figures.rejectionsByKind["not UTF-8", default: 0] > 0)
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
