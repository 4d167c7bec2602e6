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

  /// A model whose signIn reaches `code` through `length` routes: unconditional links, and a
  /// conditional one (`pool.mfa == required`, else `done`) every `conditionalEvery` links.
  static func routeChain(length: Int, conditionalEvery: Int) throws -> SignInModel {
    var routes = "routes:\n"
    for r in 0..<length {
      let next = r + 1 == length ? "code" : "route\(r + 1)"
      if r % conditionalEvery == conditionalEvery - 1 {
        routes += "  route\(r):\n    - when: \"pool.mfa == required\"\n      goto: \(next)\n"
        routes += "    - when: \"pool.mfa == off\"\n      goto: done\n      verifies: mfa\n"
      } else {
        routes += "  route\(r):\n    - goto: \(next)\n"
      }
    }
    return try smallModel(
      signIn: "    correctPassword:\n      - goto: route0\n        verifies: firstFactor",
      steps: """
          code:
            names: {swift: code}
            responses:
              correctCode:
                - goto: done
                  verifies: mfa
        """,
      routes: routes)
  }

  /// The number of nodes of `expr`.
  static func size(_ expr: Expr) -> Int {
    switch expr {
    case .constant, .variable: return 1
    case .not(let e): return 1 + size(e)
    case .and(let parts), .or(let parts): return 1 + parts.map(size).reduce(0, +)
    case .implies(let a, let b), .equal(let a, let b), .notEqual(let a, let b), .less(let a, let b),
      .lessOrEqual(let a, let b), .add(let a, let b), .subtract(let a, let b):
      return 1 + size(a) + size(b)
    case .member(let e, _): return 1 + size(e)
    }
  }

  @Test("a route without `when` adds no condition: a chain of them keeps guards and ambiguity checks small")
  func unconditionalRoutes() throws {
    let short = try Self.routeChain(length: 20, conditionalEvery: 10)
    let long = try Self.routeChain(length: 2_000, conditionalEvery: 1_000)
    for model in [short, long] {
      #expect(Self.differences(model, samples: 4, seed: 1).prefix(3) == [])
      let system = TransitionSystem(model: model)
      // Each branch's guard holds the two conditional links it passed, not the unconditional ones.
      let largestGuard = system.branches.map { Self.size($0.guardExpr) }.max() ?? 0
      let largestAmbiguity = system.ambiguities.map { Self.size($0.condition) }.max() ?? 0
      #expect(largestGuard <= 12, "\(model.routes.count) routes: a guard of \(largestGuard) nodes")
      #expect(largestAmbiguity <= 40, "\(model.routes.count) routes: an ambiguity check of \(largestAmbiguity) nodes")
      // The rule lines still name every rule on the way, for the traces.
      let code = try #require(model.stepIndex(named: "code"))
      let toCode = try #require(system.branches.first { $0.outcome == .step(code) })
      #expect(toCode.ruleLines.count == model.routes.count + 1)
    }
    // The conditions that are there still decide: with MFA off the chain ends at the first
    // conditional link.
    let system = TransitionSystem(model: long)
    var valuation = long.variables.map { $0.domain.values[0] }
    for i in long.flowIndices { valuation[i] = long.variables[i].initial }
    let enabled = system.branches(from: 0).filter { (try? $0.guardExpr.holds(valuation)) == true }
    #expect(enabled.count == 1)
    #expect(enabled.first?.ruleLines.count == 1_001)
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
