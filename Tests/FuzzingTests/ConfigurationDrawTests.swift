import Conformance
import Fuzzing
import ModelChecking
import SignInModel
import Testing

/// The generator draws each configuration lazily (only the values a check reads), and must
/// give exactly what drawing every value in turn gives: the same configurations, and the
/// same random numbers afterwards, so seeds, saved cases and shards keep their meaning.
@Suite("Fuzzer configurations")
struct ConfigurationDrawTests {
  /// The plain rejection sampler: one draw per configuration variable, a coin, on heads a
  /// bias; kept when the constraints hold and the harness covers it (at most 1000 tries).
  static func drawnInTurn(_ model: SignInModel, _ harness: Harness, _ rng: inout SplitMix64) -> [String: String] {
    for _ in 0..<1000 {
      var values = model.configurationIndices.map { i -> Int in
        let d = model.variables[i].domain.values
        return d[Int(rng.next() % UInt64(d.count))]
      }
      if rng.next() % 2 == 0 {
        let bias = Fuzzer.biases[Int(rng.next() % UInt64(Fuzzer.biases.count))]
        for (name, text) in bias {
          guard let i = model.variableIndex(named: name), model.variables[i].scope == .configuration,
            let v = model.variables[i].domain.values.first(where: { model.variables[i].domain.render($0) == text })
          else { continue }
          values[i] = v
        }
      }
      guard model.constraints.allSatisfy({ (try? $0.expr.holds(values)) == true }) else { continue }
      var d: [String: String] = [:]
      for i in model.configurationIndices { d[model.variables[i].name] = model.variables[i].domain.render(values[i]) }
      if harness.covers(d) { return d }
    }
    return [:]
  }

  @Test(
    "each shipped model's configurations are those of drawing every value in turn, and so are the draws after them",
    arguments: ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"])
  func sameAsDrawingInTurn(file: String) throws {
    let model = try ModelLoader.load(file: file)
    let harness = Harness(model: model)
    for seed: UInt64 in [1, 2, 3, 42] {
      var lazy = SplitMix64(seed: seed)
      var plain = SplitMix64(seed: seed)
      let fast = Fuzzer.sampleConfigurations(model, count: 100, rng: &lazy)
      let slow = (0..<100).map { _ in Self.drawnInTurn(model, harness, &plain) }
      #expect(fast == slow, "seed \(seed)")
      // Both give an empty configuration when 1000 tries fail (many draws do: see the README).
      #expect(lazy.next() == plain.next(), "seed \(seed): the generator is not where drawing in turn leaves it")
    }
  }

  @Test("peek reads the k-th draw ahead without drawing, and skip moves on as that many draws")
  func peekAndSkip() {
    var rng = SplitMix64(seed: 7)
    let ahead = (1...5).map { rng.peek(UInt64($0)) }
    var copy = rng
    #expect((1...5).map { _ in copy.next() } == ahead)
    rng.skip(5)
    #expect(rng.next() == copy.next())
  }
}
