import Foundation
import LoaderFuzzing
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
    #expect(figures.rejectionsByKind["alias bomb", default: 0] > 0)
    #expect(figures.rejectionsByKind["expression depth", default: 0] > 0)
    #expect(figures.rejectionsByKind["not UTF-8", default: 0] > 0)
  }

  @Test("the same seed gives the same inputs")
  func deterministic() throws {
    let mutator = ModelTextMutator(models: try Self.shippedModels())
    #expect(mutator.input(seed: 7, index: 42).bytes == mutator.input(seed: 7, index: 42).bytes)
    #expect(mutator.input(seed: 7, index: 42).bytes != mutator.input(seed: 7, index: 43).bytes)
  }
}
