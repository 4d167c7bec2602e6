import Dispatch
import Foundation
import Conformance
import ModelChecking
import SignInClient
import SignInModel

/// A failure the fuzzer found, shrunk.
package struct FuzzFinding: Sendable {
  package let fuzzCase: FuzzCase
  package let execution: Execution
  package let seed: UInt64
  package let originalLength: Int
  /// Seconds from the start of the run to the first failing case.
  package let secondsToFind: Double
}

/// What one fuzz run did.
package struct FuzzSummary: Sendable {
  package var cases = 0
  package var calls = 0
  package var findings: [FuzzFinding] = []
  package var covered: [String: Int] = [:]
  package var allTransitions: [String] = []
  package var seconds = 0.0

  package var neverExercised: [String] { allTransitions.filter { covered[$0] == nil } }

  package init() {}
}

/// Property-based fuzzing of the reference client: random configurations (uniform, and
/// biased toward edge cases), response sequences drawn from the model's response classes at
/// each step and steered toward transitions not yet run, faults (network, expired session,
/// unknown challenge). Every call is checked against the model; a failure is shrunk (fewer
/// calls, then a simpler configuration, then simpler responses).
package struct Fuzzer: Sendable {
  package let executor: CaseExecutor
  package let maxLength: Int
  package let maxFailures: Int

  package init(executor: CaseExecutor, maxLength: Int = 10, maxFailures: Int = 3) {
    self.executor = executor
    self.maxLength = maxLength
    self.maxFailures = maxFailures
  }

  var model: SignInModel { executor.model }

  /// The seed of case `index` of a run seeded with `seed`.
  package static func caseSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
    var rng = SplitMix64(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
    return rng.next()
  }

  // MARK: - Generation

  /// Edge cases configurations are pushed toward.
  static let biases: [[String: String]] = [
    ["user.phone": "false", "user.email": "false"],
    ["pool.mfa": "required", "user.phone": "false", "user.email": "false", "user.totpRegistered": "false"],
    ["pool.mfa": "optional", "pool.sms": "true", "pool.totp": "true", "user.phone": "true",
     "user.totpRegistered": "true",
     "user.smsEnabled": "true", "user.totpEnabled": "true", "user.preferred": "none"],
    ["pool.authFlow": "userAuth", "pool.preferredFirstFactor": "SMS_OTP", "user.phone": "false"],
    ["pool.authFlow": "customWithoutSRP"],
    // Issue 11: a username with no user, with and without PreventUserExistenceErrors.
    ["user.exists": "false", "user.status": "confirmed"],
    ["user.exists": "false", "user.status": "confirmed", "pool.preventUserExistenceErrors": "true",
     "pool.authFlow": "customWithoutSRP"],
  ]

  func configuration(_ rng: inout SplitMix64) -> [String: String] {
    for _ in 0..<1000 {
      var values = model.configurationIndices.map { i -> Int in
        let d = model.variables[i].domain.values
        return d[Int(rng.next() % UInt64(d.count))]
      }
      if rng.next() % 2 == 0 {
        let bias = Self.biases[Int(rng.next() % UInt64(Self.biases.count))]
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
      if executor.harness.covers(d) { return d }
    }
    return [:]
  }

  /// `count` valid configurations of `model` (for benchmarks).
  package static func sampleConfigurations(
    _ model: SignInModel, count: Int, rng: inout SplitMix64
  ) -> [[String: String]] {
    let fuzzer = Fuzzer(executor: CaseExecutor(model: model))
    return (0..<count).map { _ in fuzzer.configuration(&rng) }
  }

  /// A case walked through the model, preferring (step, response) pairs run least so far.
  func generate(_ rng: inout SplitMix64, coverage: [String: Int]) -> FuzzCase {
    let configuration = self.configuration(&rng)
    var calls: [FuzzCall] = []
    guard
      var oracle = try? ModelSimulator(
        system: executor.harness.system, configuration: configuration, recordsTrace: false)
    else {
      return FuzzCase(configuration: configuration, calls: [])
    }
    let length = 1 + Int(rng.next() % UInt64(maxLength))
    var failures = 0
    for _ in 0..<length {
      guard let s = oracle.step, !model.steps[s].isTerminal else { break }
      let step = model.steps[s]
      var choices = step.responses.map { model.responses[$0.response].name }
        .filter { executor.harness.supports($0, at: step.id) }
      // At most `maxFailures` failed attempts: the model's five-failure bound stands for
      // Cognito's lockout and session clock, which the simulated pool does not reproduce.
      if failures >= maxFailures {
        choices = choices.filter { c in
          var probe = oracle
          if case .error? = try? probe.respond(c) { return false }
          return true
        }
      }
      guard !choices.isEmpty else { break }
      // Coverage guidance: weight each response by how rarely its pair has run.
      let weights = choices.map { 1.0 / Double(1 + (coverage["\(step.id) / \($0)"] ?? 0)) }
      var pick = Double(rng.next() % 1_000_000) / 1_000_000 * weights.reduce(0, +)
      var response = choices[choices.count - 1]
      for (c, w) in zip(choices, weights) {
        if pick < w { response = c; break }
        pick -= w
      }
      guard let outcome = try? oracle.respond(response) else { break }
      if case .error = outcome { failures += 1 }
      // An unknown challenge can only replace an answer Cognito gives to this call.
      var unknown = false
      if case .step(let id) = outcome, let t = model.stepIndex(named: id),
        model.steps[t].kind == .challenge || model.steps[t].kind == .signedIn,
        !StepID.localSelections.contains(step.id), rng.next() % 25 == 0
      {
        unknown = true
      }
      calls.append(FuzzCall(response: response, unknownChallenge: unknown))
      if unknown { break }
    }
    return FuzzCase(configuration: configuration, calls: calls)
  }

  // MARK: - Shrinking

  /// A smaller case that still fails: fewer calls (delta debugging), then configuration
  /// variables set to their first value, then each response replaced by a simpler one.
  package func shrink(_ fuzzCase: FuzzCase) async -> FuzzCase {
    var best = fuzzCase
    let first = await executor.execute(best)
    // The same failure: the same message at the failing call.
    func fails(_ c: FuzzCase) async -> Bool {
      let e = await executor.execute(c)
      return e.valid && e.failed && e.message == first.message
    }
    // Cut everything after the failing call.
    if let i = first.failingCall, i + 1 < best.calls.count { best.calls = Array(best.calls.prefix(i + 1)) }
    // Rounds of: delta debugging over the calls (remove chunks, then single calls), then a
    // simpler configuration (each variable to its first value), until nothing changes.
    for _ in 0..<4 {
      let before = best
      var chunk = max(1, best.calls.count / 2)
      while chunk >= 1 {
        var start = 0
        var removed = false
        while start < best.calls.count {
          var candidate = best
          candidate.calls.removeSubrange(start..<min(start + chunk, candidate.calls.count))
          if !candidate.calls.isEmpty, await fails(candidate) {
            best = candidate
            removed = true
          } else {
            start += chunk
          }
        }
        if !removed { chunk /= 2 }
      }
      for i in model.configurationIndices {
        let v = model.variables[i]
        let simplest = v.domain.render(v.domain.values[0])
        guard best.configuration[v.name] != simplest else { continue }
        var candidate = best
        candidate.configuration[v.name] = simplest
        if await fails(candidate) { best = candidate }
      }
      if best == before { break }
    }
    // Simpler responses: drop unknown-challenge faults, then try the step's first response.
    for i in best.calls.indices where best.calls[i].unknownChallenge {
      var candidate = best
      candidate.calls[i].unknownChallenge = false
      if await fails(candidate) { best = candidate }
    }
    return best
  }

  // MARK: - Running

  /// Runs cases `index` for every index in `indices` (a shard), until `deadline` if given.
  package func run<Indices: Sequence<Int>>(
    seed: UInt64, indices: Indices, deadline: DispatchTime?, stopAtFirstFailure: Bool = false,
    progress: (@Sendable (Int, Int) -> Void)? = nil
  ) async -> FuzzSummary {
    let start = DispatchTime.now()
    var summary = FuzzSummary()
    summary.allTransitions = executor.allTransitions
    var pairCoverage: [String: Int] = [:]
    var seenFailures = Set<String>()
    for index in indices {
      if let deadline, DispatchTime.now() >= deadline { break }
      let caseSeed = Self.caseSeed(seed, index)
      var rng = SplitMix64(seed: caseSeed)
      let fuzzCase = generate(&rng, coverage: pairCoverage)
      let execution = await executor.execute(fuzzCase)
      summary.cases += 1
      summary.calls += execution.calls.count
      for t in execution.transitions {
        summary.covered[t, default: 0] += 1
        let pair = String(t.split(separator: " -> ").first ?? "")
        pairCoverage[pair, default: 0] += 1
      }
      progress?(summary.cases, summary.findings.count)
      guard execution.valid, execution.failed else { continue }
      let found = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
      let shrunk = await shrink(fuzzCase)
      let shrunkExecution = await executor.execute(shrunk)
      let key = shrunkExecution.message ?? ""
      if seenFailures.insert(key).inserted {
        summary.findings.append(FuzzFinding(
          fuzzCase: shrunk, execution: shrunkExecution, seed: caseSeed,
          originalLength: min(fuzzCase.calls.count, (execution.failingCall ?? 0) + 1), secondsToFind: found))
      }
      if stopAtFirstFailure { break }
    }
    summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    return summary
  }
}
