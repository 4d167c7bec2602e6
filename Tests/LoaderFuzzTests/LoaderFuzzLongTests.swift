import Foundation
import LoaderFuzzing
import SignInModel
import Testing

/// The long tier of the loader's fuzz test (`make test-long`): 2,000 mutants of every shipped
/// model. `make test` runs 200 of the smallest; `make fuzz-loader` runs 100,000.
@Suite("The loader's own fuzz test (long tier)")
struct LoaderFuzzLongTests {
  @Test(
    "2,000 mutated models: every one loads or is refused with a located error, none past 60 s (a hang, not a speed test)"
  )
  func mutatedModels() throws {
    let models = try LoaderFuzzTests.shippedModels()
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

  @Test(
    "2,000 mutated models of each of the 2024 and 2026 models: each loads or is refused with a located error",
    arguments: [1, 2])
  func mutatedLargerModels(index: Int) throws {
    let models = try LoaderFuzzTests.shippedModels()
    let figures = LoaderFuzzRun(models: [models[index]], limitSeconds: 60).run(seed: 14, inputs: 0..<2_000)
    #expect(figures.inputs == 2_000)
    #expect(figures.failures.isEmpty, "\(figures.failures.prefix(5))")
    #expect(figures.loaded >= 20, "only \(figures.loaded) of 2,000 mutants loaded")
    #expect(figures.inputs - figures.loaded > 1_000)
  }
}
