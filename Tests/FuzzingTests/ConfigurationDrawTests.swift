import Conformance
import Foundation
import Fuzzing
import ModelChecking
import SignInModel
import Testing

/// The generator's contract: every configuration it draws satisfies every constraint of the
/// model and is one the harness covers (it never falls back to the defaults), the same seed
/// gives the same configurations, draws reach every value some valid configuration has, and
/// constraints nothing satisfies are an error, not the defaults.
@Suite("Fuzzer configurations")
struct ConfigurationDrawTests {
  static let models = ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"]

  /// Whether `configuration` names every configuration variable, satisfies every constraint
  /// and is covered by the harness (read independently of the generator).
  static func valid(_ configuration: [String: String], _ model: SignInModel, _ harness: Harness) -> Bool {
    var values = [Int](repeating: unassigned, count: model.variables.count)
    for i in model.configurationIndices {
      let v = model.variables[i]
      guard let text = configuration[v.name], let value = v.domain.values.first(where: { v.domain.render($0) == text })
      else { return false }
      values[i] = value
    }
    return model.constraints.allSatisfy { (try? $0.expr.holds(values)) == true } && harness.covers(configuration)
  }

  @Test("every draw on a shipped model satisfies every constraint and is covered: none falls back", arguments: models)
  func everyDrawValid(file: String) throws {
    let model = try ModelLoader.load(file: file)
    let harness = Harness(model: model)
    var rng = SplitMix64(seed: 1)
    let drawn = try Fuzzer.sampleConfigurations(model, count: 2_000, rng: &rng)
    let invalid = drawn.filter { !Self.valid($0, model, harness) }
    #expect(invalid.isEmpty, "\(invalid.count) of 2000 draws are not valid, e.g. \(invalid.first ?? [:])")
  }

  @Test(
    "within 2,000 draws every value of every configuration variable that a valid configuration has appears",
    arguments: models)
  func drawsCoverTheDomain(file: String) throws {
    let model = try ModelLoader.load(file: file)
    let harness = Harness(model: model)
    let generator = ConfigurationGenerator(harness: harness, biases: Fuzzer.biases)
    var rng = SplitMix64(seed: 2)
    // Half of them SRP's: at the default share the values only SRP's configurations have
    // (device tracking, pool.customMfa) would be drawn a few times in 2,000.
    let drawn = try Fuzzer.sampleConfigurations(model, count: 2_000, rng: &rng, srpShare: 0.5)
    var possible = 0
    for i in model.configurationIndices {
      let v = model.variables[i]
      for value in v.domain.values {
        let text = v.domain.render(value)
        guard let witness = try generator.witness(variable: i, value: value) else { continue }
        possible += 1
        let configuration = generator.dictionary(witness)
        #expect(Self.valid(configuration, model, harness) && configuration[v.name] == text)
        #expect(drawn.contains { $0[v.name] == text }, "\(v.name) = \(text) is valid but never drawn")
      }
    }
    #expect(possible > model.configurationIndices.count, "the models have variables with several valid values")
  }

  @Test("the same seed gives the same configurations, and the generator is left at the same point", arguments: models)
  func deterministic(file: String) throws {
    let model = try ModelLoader.load(file: file)
    var a = SplitMix64(seed: 42)
    var b = SplitMix64(seed: 42)
    #expect(
      try Fuzzer.sampleConfigurations(model, count: 300, rng: &a)
        == Fuzzer.sampleConfigurations(model, count: 300, rng: &b))
    #expect(a.next() == b.next())
  }

  /// The 2023 model with one more constraint.
  static func constrained(_ constraint: String) throws -> SignInModel {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let marked = text.replacingOccurrences(of: "constraints:\n", with: "constraints:\n  - \"\(constraint)\"\n")
    #expect(marked != text)
    return try ModelLoader.load(yaml: marked, file: "unsat.yaml")
  }

  @Test(
    "constraints no configuration satisfies are an error naming the constraint that rules them out, not the defaults")
  func unsatisfiable() async throws {
    let model = try Self.constrained("pool.mfa == off && pool.mfa != off")
    let fuzzer = Fuzzer(executor: CaseExecutor(model: model))
    #expect(
      fuzzer.configurationProblem
        == .unsatisfiable(lines: [model.constraints[0].line], texts: ["pool.mfa == off && pool.mfa != off"]))
    var rng = SplitMix64(seed: 1)
    #expect(throws: ConfigurationError.self) {
      try ConfigurationGenerator(harness: Harness(model: model), biases: Fuzzer.biases).draw(&rng)
    }
    let summary = await fuzzer.run(seed: 1, indices: 0..<10, deadline: nil)
    #expect(summary.cases == 0 && summary.configurationProblem != nil)
  }

  @Test("two constraints that clash only together are both named, and no other")
  func clashingPair() throws {
    // `pool.totp` and, later among the model's own constraints, one that rules out TOTP: each
    // alone has solutions.
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let marked = text.replacingOccurrences(
      of: "constraints:\n",
      with: "constraints:\n  - \"pool.totp\"\n  - \"pool.mfa == off\"\n  - \"pool.mfa == off => !pool.totp\"\n")
    let model = try ModelLoader.load(yaml: marked, file: "clash.yaml")
    let clash = try #require(ConstraintCounter.conflict(in: model))
    #expect(clash == [0, 1, 2])
    let original = try ModelLoader.load(file: "models/2023-swift.yaml")
    #expect(ConstraintCounter.conflict(in: original) == nil)
    let two = try ModelLoader.load(
      yaml: text.replacingOccurrences(
        of: "constraints:\n",
        with: "constraints:\n  - \"pool.totp\"\n  - \"user.status == confirmed\"\n  - \"!pool.totp\"\n"),
      file: "clash.yaml")
    #expect(ConstraintCounter.conflict(in: two) == [0, 2])
  }

  @Test("constraints that only configurations the harness cannot run satisfy are an error too")
  func notCovered() throws {
    let model = try Self.constrained("pool.preventUserExistenceErrors && user.exists")
    #expect(Fuzzer(executor: CaseExecutor(model: model)).configurationProblem == .notCovered)
  }

  @Test("a model whose every configuration does SRP is drawn whole, whatever the share, unless the share is 0")
  func onlySRP() throws {
    let model = try Self.constrained("pool.authFlow == userSRP")
    #expect(Fuzzer(executor: CaseExecutor(model: model)).configurationProblem == nil)
    var rng = SplitMix64(seed: 1)
    let drawn = try Fuzzer.sampleConfigurations(model, count: 20, rng: &rng)
    #expect(drawn.allSatisfy { $0["pool.authFlow"] == "userSRP" })
    #expect(Fuzzer(executor: CaseExecutor(model: model), srpShare: 0).configurationProblem == .notCovered)
  }

  @Test("the share of SRP cases is the share of draws from configurations that do SRP", arguments: models)
  func srpShare(file: String) throws {
    let model = try ModelLoader.load(file: file)
    var rng = SplitMix64(seed: 4)
    let drawn = try Fuzzer.sampleConfigurations(model, count: 2_000, rng: &rng, srpShare: 0.25)
    let srp = drawn.filter(Harness.usesSRP).count
    #expect((400...600).contains(srp), "\(srp) of 2000 draws do SRP at a share of 0.25")
    var none = SplitMix64(seed: 4)
    #expect(
      try Fuzzer.sampleConfigurations(model, count: 500, rng: &none, srpShare: 0).allSatisfy { !Harness.usesSRP($0) })
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
