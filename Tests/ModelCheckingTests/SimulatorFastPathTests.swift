import ModelChecking
import SignInModel
import Testing

/// The oracle's fast paths answer what its plain paths answer: `respond(responseIndex:)` as
/// `respond(_:)` by name, `peek` as a `respond` on a copy, and the flat decision table behind
/// `uniqueBranch` as a walk of the rule lists themselves, on random walks and random (partly
/// unassigned) valuations of the shipped models.
@Suite("The oracle's fast paths answer as its plain paths do")
struct SimulatorFastPathTests {
  /// A random configuration that meets the model's constraints (nil after 200 tries).
  static func configuration(_ model: SignInModel, _ random: inout SplitMix64) -> [Int]? {
    let system = TransitionSystem(model: model)
    for _ in 0..<200 {
      var values = [Int](repeating: unassigned, count: model.variables.count)
      for i in model.configurationIndices {
        let domain = model.variables[i].domain.values
        values[i] = domain[Int(random.next() % UInt64(domain.count))]
      }
      if (try? ModelSimulator(system: system, configurationValues: values)) != nil { return values }
    }
    return nil
  }

  @Test(
    "respond by index and peek agree with respond by name, response by response", arguments: CompiledExprTests.files)
  func respondAndPeek(file: String) throws {
    let model = try ModelLoader.load(file: file)
    let system = TransitionSystem(model: model)
    let context = ModelSimulator.Context(system)
    var random = SplitMix64(seed: 21)
    var compared = 0
    var refused = 0
    for _ in 0..<60 {
      guard let values = Self.configuration(model, &random) else { continue }
      var walker = try ModelSimulator(context: context, configurationValues: values)
      for _ in 0..<12 {
        for r in model.responses.indices {
          var byName = walker
          var byIndex = walker
          let named = Result { () throws(ModelSimulator.Failure) in try byName.respond(model.responses[r].name) }
          let indexed = Result { () throws(ModelSimulator.Failure) in try byIndex.respond(responseIndex: r) }
          let peeked = walker.peek(responseIndex: r)
          switch (named, indexed) {
          case (.success(let a), .success(let b)):
            #expect(a == b)
            #expect(byName.valuation == byIndex.valuation && byName.step == byIndex.step)
            #expect(byName.trace == byIndex.trace)
            #expect(
              peeked.map { ObjectIdentifier($0) } == byName.lastBranch.map { ObjectIdentifier(system.branches[$0]) })
          case (.failure(let a), .failure(let b)):
            #expect(a == b)
            #expect(peeked == nil, "peek must refuse what respond refuses: \(a)")
            refused += 1
          default:
            Issue.record("\(file): response \(model.responses[r].name) by name \(named), by index \(indexed)")
          }
          compared += 1
        }
        // Go on with a response the step takes, or start over.
        guard let step = walker.step, !context.terminal[step] else {
          walker = try ModelSimulator(context: context, configurationValues: values)
          continue
        }
        let accepted = model.steps[step].responses.map(\.response)
        _ = try? walker.respond(responseIndex: accepted[Int(random.next() % UInt64(accepted.count))])
      }
    }
    #expect(compared > 5_000)
    #expect(refused > 1_000, "the walks also ask what the steps refuse")
  }

  /// The rule lists walked as `uniqueBranch` did before the flat table: each list's guards in
  /// rule order up to its second match; nil where a list has zero or several matches.
  static func treeWalk(_ decision: TransitionSystem.Decision, _ valuation: [Int]) throws(UnassignedVariable) -> Int? {
    var decision = decision
    while true {
      var found: TransitionSystem.Alternative? = nil
      for alternative in decision.alternatives where try alternative.guardExpr.holds(valuation) {
        if found != nil { return nil }
        found = alternative
      }
      guard let found else { return nil }
      switch found.next {
      case .branch(let b): return b
      case .decision(let sub): decision = sub
      }
    }
  }

  /// A model whose rule lists have gaps (no rule matches) and overlaps (two match), through a route.
  static func gapsAndOverlaps() throws -> SignInModel {
    let signIn = """
          correctPassword:
            - when: "pool.mfa == required"
              goto: code
              verifies: firstFactor
            - when: "user.phone"
              goto: code
              verifies: firstFactor
      """
    let steps = """
        code:
          responses:
            correctCode:
              - when: "flow.tries == 0"
                goto: after
              - when: "flow.tries == 2"
                goto: done
                verifies: mfa
            wrongCode:
              - when: "flow.tries < 2"
                error: CodeMismatchException
                set: {flow.tries: "flow.tries + 1"}
      """
    let routes = """
      routes:
        after:
          - when: "user.phone"
            goto: done
            verifies: mfa
          - when: "pool.mfa == required"
            goto: done
            verifies: mfa
      """
    return try smallModel(signIn: signIn, steps: steps, routes: routes)
  }

  @Test(
    "uniqueBranch reads the rule lists as their tree does, unassigned variables included",
    arguments: CompiledExprTests.files + ["gaps and overlaps"])
  func flatDecisions(file: String) throws {
    let model = file.hasSuffix(".yaml") ? try ModelLoader.load(file: file) : try Self.gapsAndOverlaps()
    let system = TransitionSystem(model: model)
    var random = SplitMix64(seed: 22)
    var outcomes: [String: Int] = [:]
    for _ in 0..<300 {
      let valuation = model.variables.map { variable -> Int in
        if random.next() % 8 == 0 { return unassigned }
        let values = variable.domain.values
        return values[Int(random.next() % UInt64(values.count))]
      }
      for step in model.steps.indices {
        for slot in system.decisions[step].indices {
          let flat = Result { () throws(UnassignedVariable) in
            try system.uniqueBranch(step: step, responseSlot: slot, valuation: valuation)
          }
          let tree = Result { () throws(UnassignedVariable) in
            try Self.treeWalk(system.decisions[step][slot], valuation)
          }
          switch (flat, tree) {
          case (.success(let a), .success(let b)):
            #expect(a == b)
            outcomes[a == nil ? "none" : "branch", default: 0] += 1
          case (.failure(let a), .failure(let b)):
            #expect(a.index == b.index)
            outcomes["unassigned", default: 0] += 1
          default: Issue.record("\(file): step \(model.steps[step].id) slot \(slot): flat \(flat), tree \(tree)")
          }
        }
      }
    }
    #expect(outcomes["branch", default: 0] > 100)
    #expect(outcomes["unassigned", default: 0] > 10)
    // The shipped models are deterministic; the small one has gaps and overlaps.
    if !file.hasSuffix(".yaml") { #expect(outcomes["none", default: 0] > 10) }
  }
}
