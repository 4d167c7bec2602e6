import ModelChecking
import ModelTestSupport
import SignInModel
import Testing

/// `TransitionSystem.stepsReached`: the steps one configuration reaches, which the symbolic
/// engine uses as witnesses for `stepsReachable`.
@Suite("The steps one configuration reaches")
struct StepsReachedTests {
  @Test("a chain of 10 code steps: one configuration reaches every step, the orphan none reaches stays out")
  func chain() throws {
    let model = try StepChain.model(length: 10, orphan: true)
    let system = TransitionSystem(model: model)
    let reached = try #require(system.stepsReached(configurationValues: [1], maxStates: 10_000))
    let orphan = try #require(model.steps.firstIndex { $0.id == "orphan" })
    #expect(reached == Set(model.steps.indices).subtracting([orphan]))
  }

  @Test("past maxStates the steps found so far are returned: each is reachable, some are missing")
  func bounded() throws {
    let model = try StepChain.model(length: 10)
    let system = TransitionSystem(model: model)
    let all = try #require(system.stepsReached(configurationValues: [1], maxStates: 10_000))
    let some = try #require(system.stepsReached(configurationValues: [1], maxStates: 4))
    #expect(some.contains(0) && some.isSubset(of: all) && some.count < all.count)
  }

  @Test("the 2023 model: the union over a sample of configurations is every step the explicit engine reaches")
  func agreesWithTheExplicitEngine() throws {
    let model = try ModelLoader.load(file: "models/2023-swift.yaml")
    let system = TransitionSystem(model: model)
    let domains = model.configurationIndices.map { model.variables[$0].domain.values }
    var reached: Set<Int> = []
    var rng = SplitMix64(seed: 5)
    for _ in 0..<2_000 {
      let values = domains.map { $0[Int(rng.next() % UInt64($0.count))] }
      if let steps = system.stepsReached(configurationValues: values, maxStates: 100_000) { reached.formUnion(steps) }
    }
    #expect(reached == Set(model.steps.indices), "\(model.steps.indices.filter { !reached.contains($0) })")
  }

  @Test("a configuration that breaks a constraint, or too few values, reaches nothing")
  func refused() throws {
    let model = try StepChain.model(length: 3)
    let system = TransitionSystem(model: model)
    #expect(system.stepsReached(configurationValues: [], maxStates: 10) == nil)
    #expect(system.stepsReached(configurationValues: [7], maxStates: 10) == nil)
  }
}
