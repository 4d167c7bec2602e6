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

  @Test("the 2023 model: the union over a sample of configurations is every step of the model")
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

  /// Steps behind guards: `mfa` only where MFA is required; from it a wrong code that would
  /// leave `flow.retries`'s domain (never followed), and a right code that two rules match
  /// (both followed); a constraint that `pool.mfa == required` needs `pool.sms`.
  static func guarded() throws -> SignInModel {
    try ModelLoader.load(
      yaml: """
        model: guarded
        generation: test
        platforms: [swift]
        configuration:
          pool.mfa: [off, required]
          pool.sms: bool
        constraints:
          - "pool.mfa == required => pool.sms"
        flow:
          flow.retries: {domain: 0..2, initial: 0}
        definitions:
          mfaRequired: "pool.mfa == required"
        responses:
          correctPassword: the right password
          correctCode: the right code
          wrongCode: a wrong code
        signIn:
          responses:
            correctPassword:
              - when: "pool.mfa == required"
                goto: mfa
                verifies: firstFactor
              - when: "pool.mfa == off"
                goto: done
                verifies: firstFactor
        steps:
          mfa:
            names: {swift: mfa}
            responses:
              correctCode:
                - when: "flow.retries == 0"
                  goto: first
                  verifies: mfa
                - when: "flow.retries < 2"
                  goto: second
                  verifies: mfa
              wrongCode:
                - set: {flow.retries: "flow.retries + 3"}
                  goto: outside
          first:
            names: {swift: first}
            responses:
              correctCode:
                - goto: done
          second:
            names: {swift: second}
            responses:
              correctCode:
                - goto: done
          outside:
            names: {swift: outside}
            responses:
              correctCode:
                - goto: done
          done:
            ends: signedIn

        """, file: "guarded.yaml")
  }

  /// The indices of the steps `ids` in `model`.
  func steps(_ ids: [String], in model: SignInModel) -> Set<Int> {
    Set(ids.compactMap { id in model.steps.firstIndex { $0.id == id } })
  }

  @Test(
    "guards decide: without MFA signIn goes to done; with it, mfa, and both targets of the right code two rules match")
  func guards() throws {
    let model = try Self.guarded()
    let system = TransitionSystem(model: model)
    #expect(
      system.stepsReached(configurationValues: [0, 0], maxStates: 100) == [
        0, try #require(model.steps.firstIndex { $0.id == "done" }),
      ])
    #expect(
      system.stepsReached(configurationValues: [1, 1], maxStates: 100)
        == steps(["mfa", "first", "second", "done"], in: model).union([0]))
  }

  @Test("a branch whose update leaves a domain is not followed: the step behind it is not reached")
  func domains() throws {
    let model = try Self.guarded()
    let reached = try #require(
      TransitionSystem(model: model).stepsReached(configurationValues: [1, 1], maxStates: 100))
    #expect(!reached.contains(try #require(model.steps.firstIndex { $0.id == "outside" })))
  }

  @Test("a configuration that breaks a constraint, has a value outside its domain, or too few values reaches nothing")
  func refused() throws {
    let system = TransitionSystem(model: try Self.guarded())
    #expect(system.stepsReached(configurationValues: [1, 0], maxStates: 10) == nil, "breaks the constraint")
    #expect(system.stepsReached(configurationValues: [7, 1], maxStates: 10) == nil, "outside the domain")
    #expect(system.stepsReached(configurationValues: [1], maxStates: 10) == nil, "too few values")
  }
}
