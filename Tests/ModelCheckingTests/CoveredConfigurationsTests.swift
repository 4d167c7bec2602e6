import ModelChecking
import SignInModel
import Testing

/// `ExplicitChecker.coveredConfigurations`, which `diagnose` calls for every configuration class
/// and value it reports: the same count with a cache shared across calls as without one, and on
/// a small model the count a brute-force enumeration of the configurations gives.
@Suite("Counting the configurations a partial assignment covers")
struct CoveredConfigurationsTests {
  @Test(
    "a shared cache changes no count (random partial assignments of a shipped model)",
    arguments: CompiledExprTests.files)
  func sharedCache(file: String) throws {
    let model = try ModelLoader.load(file: file)
    let checker = ExplicitChecker(model: model, jobs: 1)
    var cache = ConstraintCache()
    var random = SplitMix64(seed: 5)
    var nonZero = 0
    for _ in 0..<150 {
      let config = model.variables.indices.map { i -> Int in
        guard model.configurationIndices.contains(i), random.next() % 3 == 0 else { return unassigned }
        let values = model.variables[i].domain.values
        return values[Int(random.next() % UInt64(values.count))]
      }
      let fresh = checker.coveredConfigurations(config)
      #expect(checker.coveredConfigurations(config, cache: &cache) == fresh)
      if fresh > 0 { nonZero += 1 }
    }
    #expect(nonZero > 0, "some assignment is covered, so the comparison reached the counting")
    #expect(!cache.isEmpty)
  }

  @Test("on a small model, every partial assignment counts as a brute-force enumeration does")
  func bruteForce() throws {
    let model = try smallModel(
      configuration: """
          pool.mfa: [off, optional, required]
          user.phone: bool
          user.email: bool
          pool.sms: bool
        constraints:
          - "pool.mfa == required => user.phone || user.email"
          - "pool.sms => pool.mfa != off"
        """,
      signIn: """
            correctPassword:
              - goto: done
                verifies: firstFactor
        """,
      steps: "")
    #expect(model.constraints.count == 2)
    let checker = ExplicitChecker(model: model, jobs: 1)
    var cache = ConstraintCache()
    let indices = Array(model.configurationIndices)
    // Every partial assignment: each variable unassigned or one of its values.
    var partial = [Int](repeating: unassigned, count: model.variables.count)
    var checked = 0
    func visit(_ k: Int) throws {
      if k == indices.count {
        #expect(checker.coveredConfigurations(partial, cache: &cache) == bruteForceCount(model, partial))
        checked += 1
        return
      }
      for value in [unassigned] + model.variables[indices[k]].domain.values {
        partial[indices[k]] = value
        try visit(k + 1)
      }
      partial[indices[k]] = unassigned
    }
    try visit(0)
    #expect(checked == 4 * 3 * 3 * 3)
  }

  /// The completions of `partial` over the configuration variables that meet every constraint.
  func bruteForceCount(_ model: SignInModel, _ partial: [Int]) -> Double {
    let indices = Array(model.configurationIndices)
    var values = partial
    var count = 0.0
    func visit(_ k: Int) {
      if k == indices.count {
        if model.constraints.allSatisfy({ (try? $0.expr.holds(values)) == true }) { count += 1 }
        return
      }
      let i = indices[k]
      for value in partial[i] == unassigned ? model.variables[i].domain.values : [partial[i]] {
        values[i] = value
        visit(k + 1)
      }
    }
    visit(0)
    return count
  }
}
