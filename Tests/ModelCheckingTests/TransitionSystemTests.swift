import ModelChecking
import ModelTestSupport
import SignInModel
import Testing

/// The explicit engine and the simulator walk `TransitionSystem.decisions` (rule lists in
/// order, forking lazily); Z3 reads the flat `branches` and `ambiguities`. These tests state
/// that the two forms say the same thing in every state tried.
@Suite("The transition system's two forms agree")
struct TransitionSystemTests {
  static let files = ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"]

  /// Differences between the decision walk and the branch guards in `samples` random states
  /// (configuration and flow variables drawn from their domains).
  static func differences(_ model: SignInModel, samples: Int, seed: UInt64) -> [String] {
    let system = TransitionSystem(model: model)
    var rng = SplitMix64(seed: seed)
    var found: [String] = []
    for _ in 0..<samples {
      let valuation = model.variables.map { v in v.domain.values[Int(rng.next() % UInt64(v.domain.count))] }
      for (s, step) in model.steps.enumerated() where !step.isTerminal {
        for (k, stepResponse) in step.responses.enumerated() {
          var mismatches: [TransitionSystem.Mismatch] = []
          let walked =
            (try? system.matchingBranches(
              step: s, responseSlot: k, valuation: valuation, mismatches: &mismatches)) ?? [-1]
          let flat = system.branches.indices.filter { b in
            let branch = system.branches[b]
            return branch.step == s && branch.response == stepResponse.response
              && (try? branch.guardExpr.holds(valuation)) == true
          }
          let ambiguous = system.ambiguities.filter {
            $0.step == s && $0.response == stepResponse.response && (try? $0.condition.holds(valuation)) == true
          }.map(\.place)
          if walked != flat || mismatches.map(\.place) != ambiguous {
            found.append(
              "\(model.name) step \(step.id) response \(model.responses[stepResponse.response].name): "
                + "walk \(walked) \(mismatches.map(\.place)), branches \(flat) \(ambiguous)")
          }
        }
      }
    }
    return found
  }

  @Test("on the shipped models", arguments: files)
  func shipped(file: String) throws {
    let model = try ModelLoader.load(file: file)
    #expect(Self.differences(model, samples: 300, seed: 9).prefix(3) == [])
  }

  @Test("on synthetic scaling models")
  func synthetic() throws {
    let model = try ModelLoader.load(file: Self.files[0])
    for factor in [2, 3] {
      #expect(Self.differences(SyntheticModels.scaled(model, factor: factor), samples: 100, seed: 3).prefix(3) == [])
    }
  }

  @Test("on seeded mutants, where rules overlap or leave gaps")
  func mutants() throws {
    var ambiguousSomewhere = 0
    for file in Self.files {
      let mutator = ModelMutator(model: try ModelLoader.load(file: file))
      for index in 0..<20 {
        let (mutant, change) = mutator.mutant(seed: 9, index: index)
        #expect(Self.differences(mutant, samples: 60, seed: UInt64(index)).prefix(3) == [], "\(change)")
        let system = TransitionSystem(model: mutant)
        var rng = SplitMix64(seed: 1)
        for _ in 0..<60 {
          let valuation = mutant.variables.map { v in v.domain.values[Int(rng.next() % UInt64(v.domain.count))] }
          if system.ambiguities.contains(where: { (try? $0.condition.holds(valuation)) == true }) {
            ambiguousSomewhere += 1
            break
          }
        }
      }
    }
    // The comparison must also have seen states where the rules are not deterministic.
    #expect(ambiguousSomewhere > 0)
  }

  @Test("a branch applies its effects over the pre-state")
  func branchEffects() throws {
    let model = try ModelLoader.load(file: Self.files[0])
    let system = TransitionSystem(model: model)
    let retry = try #require(system.branches.first { !$0.effects.isEmpty && $0.ruleLines.count == 1 })
    var valuation = model.variables.map { $0.domain.values[0] }
    for i in model.flowIndices { valuation[i] = model.variables[i].initial }
    let after = try retry.apply(to: valuation)
    for (variable, value) in retry.effects { #expect(after[variable] == (try value.evaluate(valuation))) }
    #expect(after.count == valuation.count)
  }
}
