import Conformance
import Dispatch
import Foundation
import ModelChecking
import SignInClient
import SignInModel
import SimulatedCognito

/// A failure the fuzzer found, shrunk.
package struct FuzzFinding: Sendable {
  package let fuzzCase: FuzzCase
  package let execution: Execution
  package let seed: UInt64
  package let originalLength: Int
  /// Seconds from the start of the run to the first failing case.
  package let secondsToFind: Double
  /// The index of the case it was shrunk from (the smallest of its root cause).
  package var index: Int = 0
  /// How many failing cases of the run this one stands for.
  package var rawFailures: Int = 1
  /// (property, step, response class, field) of the shrunk failure.
  package var rootCause: String { execution.rootCause ?? "" }
  /// The root cause of the case before shrinking.
  package var rawCause: String = ""

  /// One finding per root cause: the one from the smallest case index, standing for all
  /// their raw failures. The same for any split of the indices over jobs or shards.
  package static func merged(_ findings: [FuzzFinding]) -> [FuzzFinding] {
    // First one per raw cause (each worker shrinks its own first case of it), then one per
    // shrunk cause.
    var byRaw: [String: FuzzFinding] = [:]
    for f in findings {
      guard var kept = byRaw[f.rawCause] else {
        byRaw[f.rawCause] = f
        continue
      }
      let total = kept.rawFailures + f.rawFailures
      if f.index < kept.index { kept = f }
      kept.rawFailures = total
      byRaw[f.rawCause] = kept
    }
    var byCause: [String: FuzzFinding] = [:]
    for f in byRaw.values.sorted(by: { $0.index < $1.index }) {
      guard var kept = byCause[f.rootCause] else {
        byCause[f.rootCause] = f
        continue
      }
      let total = kept.rawFailures + f.rawFailures
      if f.index < kept.index { kept = f }
      kept.rawFailures = total
      byCause[f.rootCause] = kept
    }
    return byCause.values.sorted { ($0.index, $0.rootCause) < ($1.index, $1.rootCause) }
  }
}

/// What one fuzz run did.
package struct FuzzSummary: Sendable {
  package var cases = 0
  package var calls = 0
  package var findings: [FuzzFinding] = []
  /// Cases that did SRP's arithmetic (`FuzzCase.usesSRP`), and the seconds spent running them
  /// and the other cases (the client on the pool and the comparison; not generation or shrinking).
  package var srpCases = 0
  package var srpSeconds = 0.0
  package var otherSeconds = 0.0
  package var covered: [String: Int] = [:]
  package var allTransitions: [String] = []
  package var seconds = 0.0
  /// Why no configuration could be drawn (the run stopped there), if so.
  package var configurationProblem: ConfigurationError?
  /// Cases not judged to their end because the pool asked for a challenge the client under
  /// test does not support, by reason ("the challenge SELECT_MFA_TYPE").
  package var unsupported: [String: Int] = [:]
  /// How the client under test failed to answer (an adapter broke the protocol), if it did:
  /// the run stopped there.
  package var clientFailure: ClientFailure?

  package var neverExercised: [String] { allTransitions.filter { covered[$0] == nil } }

  /// Cases per second of running them, SRP cases and the others apart (nil: none ran).
  package var srpCasesPerSecond: Double? { srpCases > 0 ? Double(srpCases) / max(srpSeconds, 1e-9) : nil }
  package var otherCasesPerSecond: Double? {
    cases > srpCases ? Double(cases - srpCases) / max(otherSeconds, 1e-9) : nil
  }

  /// Adds another worker's counts (not its findings, which `FuzzFinding.merged` joins).
  package mutating func add(_ other: FuzzSummary) {
    cases += other.cases
    calls += other.calls
    srpCases += other.srpCases
    srpSeconds += other.srpSeconds
    otherSeconds += other.otherSeconds
    seconds = max(seconds, other.seconds)
    for (t, c) in other.covered { covered[t, default: 0] += c }
    for (reason, c) in other.unsupported { unsupported[reason, default: 0] += c }
    clientFailure = clientFailure ?? other.clientFailure
  }

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
  /// Whether faults also hit the second backend request of a call: RespondToAuthChallenge
  /// after VerifySoftwareToken (`networkFault`, `serviceError` at a step that carries the TOTP
  /// secret) and AssociateSoftwareToken after the answer (`setupFault`, only drawn where the
  /// answer leads to TOTP setup).
  package var secondRequestFaults = true

  /// - Parameter srpShare: the share of cases drawn from the configurations whose runs do SRP's
  ///   arithmetic (`Harness.usesSRP`), 0 to 1; the default is `defaultSRPShare`.
  package init(
    executor: CaseExecutor, maxLength: Int = 12, maxFailures: Int = 3, srpShare: Double = Fuzzer.defaultSRPShare
  ) {
    self.executor = executor
    self.maxLength = maxLength
    self.maxFailures = maxFailures
    self.srpShare = min(max(srpShare, 0), 1)
    let model = executor.model
    generator = ConfigurationGenerator(harness: executor.harness, biases: Self.biases)
    srpGenerator = ConfigurationGenerator(harness: executor.harness, biases: Self.biases, kind: .srp)
    otherGenerator = ConfigurationGenerator(harness: executor.harness, biases: Self.biases, kind: .withoutSRP)
    drawsSRP = self.srpShare > 0 && srpGenerator.check() == nil
    drawsOther = self.srpShare < 1 && otherGenerator.check() == nil
    if drawsSRP || drawsOther {
      configurationProblem = nil
    } else {
      let only = self.srpShare >= 1 ? srpGenerator : self.srpShare <= 0 ? otherGenerator : generator
      configurationProblem = only.check() ?? .notCovered
    }
    let harness = executor.harness
    let candidates = model.steps.map { step in
      step.responses.map(\.response).filter { harness.supports(model.responses[$0].name, at: step.id) }.map { r in
        let kind = harness.responseClasses[r]
        return Candidate(
          response: r, kind: kind, rare: kind.map(ResponseName.rare.contains) ?? false,
          setupClass: kind.map(ResponseName.setupClasses.contains) ?? false,
          countedByPool: kind.map(ResponseName.countedByPool.contains) ?? false)
      }
    }
    self.candidates = candidates
    pairs = candidates.indices.flatMap { s in candidates[s].map { (s, $0.response) } }
    responseNames = model.responses.map(\.name)
    failureLimit = model.failedAttempts?.limit ?? 5
    failureCounter = model.failedAttempts?.counter
  }

  /// A response the generator can give at a step (one the harness supports there), with what
  /// the generator asks of it, looked up once per model.
  struct Candidate: Sendable {
    /// Its index in `model.responses`.
    let response: Int
    let kind: ResponseName?
    let rare: Bool
    let setupClass: Bool
    let countedByPool: Bool
  }

  /// Draws the configurations (built once per model): any covered one (for `check`), those
  /// whose runs do SRP's arithmetic, and the others.
  let generator: ConfigurationGenerator
  let srpGenerator: ConfigurationGenerator
  let otherGenerator: ConfigurationGenerator
  /// The share of cases drawn from `srpGenerator` (0 to 1).
  package let srpShare: Double
  /// Whether each kind is drawn at all: its share is not 0 and it has a configuration.
  let drawsSRP: Bool
  let drawsOther: Bool

  /// The share of SRP cases when none is given: one in 500. An SRP case costs about a hundred
  /// times a case without SRP (the client's and the pool's 3072-bit modular powers, OpenSSL's;
  /// about 80 against 13,000 per second on the 2-core Intel machine, docs/guide/fuzzing.md), so
  /// at this share the SRP cases take about a tenth of a run. The share was set when they cost a
  /// thousand times more (BigInt's arithmetic); it stays so that every seed draws the cases it
  /// drew. `--srp-share` raises it for a run that aims at SRP's transitions.
  package static let defaultSRPShare = 0.002
  /// Why no configuration can be drawn for this model and harness (nil: draws exist).
  package let configurationProblem: ConfigurationError?

  var model: SignInModel { executor.model }

  /// The seed of case `index` of a run seeded with `seed`.
  package static func caseSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
    var rng = SplitMix64(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
    return rng.next()
  }

  // MARK: - Generation

  /// Edge cases configurations are pushed toward (names absent from a model are ignored).
  package static let biases: [[String: String]] = [
    ["user.phone": "false", "user.email": "false"],
    ["pool.mfa": "required", "user.phone": "false", "user.email": "false", "user.totpRegistered": "false"],
    [
      "pool.mfa": "optional", "pool.sms": "true", "pool.totp": "true", "user.phone": "true",
      "user.totpRegistered": "true",
      "user.smsEnabled": "true", "user.totpEnabled": "true", "user.preferred": "none",
    ],
    ["pool.authFlow": "userAuth", "pool.preferredFirstFactor": "SMS_OTP", "user.phone": "false"],
    ["pool.authFlow": "customWithoutSRP"],
    // A new password that leads to TOTP setup (AssociateSoftwareToken after the answer).
    ["user.status": "forceChangePassword", "pool.mfa": "required", "pool.totp": "true", "pool.email": "false"],
    // A username with no user, with and without PreventUserExistenceErrors.
    ["user.exists": "false", "user.status": "confirmed"],
    [
      "user.exists": "false", "user.status": "confirmed", "pool.preventUserExistenceErrors": "true",
      "pool.authFlow": "customWithoutSRP",
    ],
  ]

  /// A random configuration the harness covers that meets the model's constraints
  /// (`ConfigurationGenerator`: never the defaults in place of one), drawn as `generate` draws it.
  func configuration(_ rng: inout SplitMix64) throws(ConfigurationError) -> [String: String] {
    generator.dictionary(try draw(&rng).values)
  }

  /// A configuration's values, and whether it is an SRP case: a coin with `srpShare` (always
  /// drawn, so the rest of a case's numbers do not depend on the share's kinds), then a draw of
  /// that kind; a kind that has no configuration or no share is never drawn.
  func draw(_ rng: inout SplitMix64) throws(ConfigurationError) -> (values: [Int], srp: Bool) {
    let coin = Double(rng.next() % 1_000_000) / 1_000_000
    let srp = drawsSRP && (!drawsOther || coin < srpShare)
    if let configurationProblem { throw configurationProblem }
    return (try (srp ? srpGenerator : otherGenerator).draw(&rng), srp)
  }

  /// `count` valid configurations of `model` (for benchmarks).
  package static func sampleConfigurations(
    _ model: SignInModel, count: Int, rng: inout SplitMix64, srpShare: Double = Fuzzer.defaultSRPShare
  ) throws(ConfigurationError) -> [[String: String]] {
    let fuzzer = Fuzzer(executor: CaseExecutor(model: model), srpShare: srpShare)
    return try fuzzer.sampleValues(count, &rng).map(fuzzer.generator.dictionary)
  }

  /// `sampleConfigurations` by value (each configuration variable's value by its index; the
  /// flow variables `unassigned`), as the generator draws them.
  package static func sampleConfigurationValues(
    _ model: SignInModel, count: Int, rng: inout SplitMix64, srpShare: Double = Fuzzer.defaultSRPShare
  ) throws(ConfigurationError) -> [[Int]] {
    try Fuzzer(executor: CaseExecutor(model: model), srpShare: srpShare).sampleValues(count, &rng)
  }

  /// `count` draws' values, one after another.
  func sampleValues(_ count: Int, _ rng: inout SplitMix64) throws(ConfigurationError) -> [[Int]] {
    var result: [[Int]] = []
    for _ in 0..<count { result.append(try draw(&rng).values) }
    return result
  }

  /// Every (step, response index) pair the generator can steer toward, in the model's order.
  let pairs: [(step: Int, response: Int)]
  /// For each step, the responses the harness can give there, in the model's order.
  let candidates: [[Candidate]]
  /// Each response's name, and the model's failed-attempt limit (5 without one) and counter.
  let responseNames: [String]
  let failureLimit: Int
  let failureCounter: Int?

  /// A case walked through the model. Steering depends on the case's own random numbers
  /// only (so any split over jobs and shards runs the same cases): each case favours one
  /// (step, response) pair drawn from all of them. Sessions go on after restarts and after
  /// `done` (a new `signIn`, after `signOut`), call `signIn` mid-flow and `confirmSignIn`
  /// with no flow, run failed attempts up to and one past the limit, and put network faults
  /// on the first or the second backend request of a call.
  func generate(_ rng: inout SplitMix64) throws(ConfigurationError) -> FuzzCase {
    try generateWithValues(&rng).fuzzCase
  }

  /// `generate`, with the configuration's values as drawn (what `CaseExecutor.execute(_:values:)`
  /// starts the oracle from, without parsing the configuration's names again) and the model's
  /// state started from them (nil: the model refuses them), which the execution starts from.
  func generateWithValues(_ rng: inout SplitMix64) throws(ConfigurationError) -> (
    fuzzCase: FuzzCase, values: [Int], started: ModelSimulator?
  ) {
    let (values, srp) = try draw(&rng)
    let configuration = generator.dictionary(values)
    // The harness and the model are read in place: a local copy of either would retain each of
    // their tables at every case.
    var calls: [FuzzCall] = []
    guard
      let fresh = try? ModelSimulator(
        context: executor.harness.oracleContext, configurationValues: values, recordsTrace: false)
    else {
      return (FuzzCase(configuration: configuration, calls: []), values, nil)
    }
    var oracle = fresh
    let all = pairs
    let favoured = all.isEmpty ? nil : all[Int(rng.next() % UInt64(all.count))]
    let length = 1 + Int(rng.next() % UInt64(maxLength))
    let limit = failureLimit
    let counter = failureCounter
    let terminal = executor.harness.oracleContext.terminal
    var localFailures = 0
    var choices: [Candidate] = []
    var weights: [Double] = []
    for _ in 0..<length {
      var function: Harness.Function? = nil
      let ended = oracle.step.map { terminal[$0] } ?? true
      if ended {
        let signedIn = oracle.step.map { executor.harness.signedInStep[$0] } ?? false
        if !signedIn && rng.next() % 4 == 0 {
          calls.append(FuzzCall(response: ResponseName.correctCode.rawValue, function: .confirmSignIn))
          continue
        }
        oracle = fresh
        localFailures = 0
      } else if oracle.step != 0 && rng.next() % 20 == 0 {
        function = .signIn
        oracle = fresh
        localFailures = 0
      }
      guard let s = oracle.step else { break }
      let atLimit = counter.map { oracle.valuation[$0] == limit - 1 } ?? false
      choices.removeAll(keepingCapacity: true)
      for c in candidates[s] {
        if !secondRequestFaults, c.setupClass { continue }
        // SRP after a first-factor selection only in SRP cases.
        if c.kind == .selectPASSWORD_SRP && !srp { continue }
        // What the harness can give here: not where the model is wrong, setup faults only where
        // the answer leads to the TOTP setup, no unasked device challenge with a device remembered.
        guard executor.harness.supports(responseIndex: c.response, in: oracle),
          let branch = oracle.peek(responseIndex: c.response)
        else { continue }
        // The limit-th failed attempt ends the flow on the pool only for answers it counts.
        if branch.target == nil, atLimit, s != 0, c.kind != .expiredSession {
          if localFailures == 0 && c.countedByPool { choices.append(c) }
          continue
        }
        choices.append(c)
      }
      guard !choices.isEmpty else { break }
      weights.removeAll(keepingCapacity: true)
      for c in choices {
        weights.append(favoured.map({ $0.step == s && $0.response == c.response }) == true ? 8 : c.rare ? 0.2 : 1)
      }
      var pick = Double(rng.next() % 1_000_000) / 1_000_000 * weights.reduce(0, +)
      var chosen = choices[choices.count - 1]
      for (c, w) in zip(choices, weights) {
        if pick < w {
          chosen = c
          break
        }
        pick -= w
      }
      guard let outcome = try? oracle.respond(responseIndex: chosen.response) else { break }
      let name = chosen.kind
      if case .error = outcome, name != nil, !chosen.countedByPool, name != .networkFault, name != .serviceError {
        localFailures += 1
      }
      let response = responseNames[chosen.response]
      var call = FuzzCall(response: response, function: function)
      // The answer at a step that carries the TOTP secret takes two requests
      // (VerifySoftwareToken, then RespondToAuthChallenge): a fault may hit either.
      let twoRequests = secondRequestFaults && executor.harness.carriesSecret[s]
      switch name {
      case .networkFault?:
        if twoRequests && rng.next() % 2 == 0 { call.faultRequest = 1 }
        if rng.next() % 2 == 0 { call.fault = .timeout }
      case .setupFault?:
        call.faultRequest = 1
        if rng.next() % 2 == 0 { call.fault = .timeout }
      case .serviceError?:
        if twoRequests && rng.next() % 2 == 0 { call.faultRequest = 1 }
        let operation =
          s == 0
          ? "InitiateAuth" : twoRequests && call.faultRequest == nil ? "VerifySoftwareToken" : "RespondToAuthChallenge"
        let errors = SimulatedFault.serviceErrors(of: operation)
        let pick = Int(rng.next() % UInt64(errors.count + 2))
        if pick < errors.count {
          call.error = errors[pick]
        } else {
          call.fault = pick == errors.count ? .serverError : .malformedBody
        }
      default: break
      }
      if name == .setupError {
        let carried = executor.model.responses[chosen.response].errors
        if !carried.isEmpty { call.error = carried[Int(rng.next() % UInt64(carried.count))].exception }
      }
      calls.append(call)
    }
    return (FuzzCase(configuration: configuration, calls: calls), values, fresh)
  }

  // MARK: - Shrinking

  /// A smaller case that still fails: fewer calls (delta debugging), then configuration
  /// variables set to their first value, then each response replaced by a simpler one.
  package func shrink(_ fuzzCase: FuzzCase) async -> FuzzCase {
    var best = fuzzCase
    let first = await executor.execute(best)
    // A case without SRP never becomes one (SRP is not simpler, and a run costs about a hundred
    // times more); an SRP case tries at most `srpShrinkBudget` SRP candidates.
    let startsWithSRP = fuzzCase.usesSRP
    var srpRuns = 0
    // The same failure: the same property and field (the step and response may change: a
    // shorter case can show the same wrong value elsewhere).
    func fails(_ c: FuzzCase) async -> Bool {
      if c.usesSRP {
        guard startsWithSRP, srpRuns < Self.srpShrinkBudget else { return false }
        srpRuns += 1
      }
      let e = await executor.execute(c, recordsStates: false)
      return e.valid && e.failed && e.disagreement?.field == first.disagreement?.field
        && e.disagreement?.property == first.disagreement?.property
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
    // Other configurations: each variable to each of its values, with each shorter prefix
    // of the calls (a configuration may reach the failing step sooner).
    var improved = true
    while improved && best.calls.count > 1 {
      improved = false
      search: for i in model.configurationIndices {
        let v = model.variables[i]
        for value in v.domain.values {
          let text = v.domain.render(value)
          guard best.configuration[v.name] != text else { continue }
          for length in 1..<best.calls.count {
            var candidate = best
            candidate.configuration[v.name] = text
            candidate.calls = Array(candidate.calls.prefix(length))
            if await fails(candidate) {
              best = candidate
              improved = true
              break search
            }
          }
        }
      }
    }
    // Shorter cases that reach the same failing step over any configuration (a breadth-first
    // walk of the model from each), shortest first, within a budget of client runs.
    if best.calls.count > 1, let point = FailurePoint(best, await executor.execute(best)) {
      for candidate in shorterCases(than: best.calls.count, reaching: point, from: best.configuration)
        .prefix(Self.otherConfigurationBudget)
      {
        if await fails(candidate) {
          best = candidate
          break
        }
      }
    }
    return best
  }

  /// How many client runs the search over other configurations may make per shrink.
  static let otherConfigurationBudget = 1_500
  /// How many SRP cases one shrink may run (each costs about a hundred times a case without SRP): a shrunk SRP
  /// case may stay a call or two longer than the shortest.
  static let srpShrinkBudget = 40

  // MARK: - Running

  /// Runs cases `index` for every index in `indices` (a shard), until `deadline` if given.
  /// Findings are one per root cause, each shrunk from the smallest failing index of its raw
  /// root cause, so any split of the indices gives the same findings after `merged`.
  package func run<Indices: Sequence<Int>>(
    seed: UInt64, indices: Indices, deadline: DispatchTime?, stopAtFirstFailure: Bool = false,
    progress: (@Sendable (Int, Int) -> Void)? = nil
  ) async -> FuzzSummary {
    let start = DispatchTime.now()
    var summary = FuzzSummary()
    summary.allTransitions = executor.allTransitions
    var firstRaw: [String: (index: Int, fuzzCase: FuzzCase, execution: Execution, seconds: Double)] = [:]
    var rawCounts: [String: Int] = [:]
    summary.configurationProblem = configurationProblem
    // Transitions are counted by branch, and named once at the end.
    let transitionTexts = executor.harness.transitionTexts
    var branchCounts = [Int](repeating: 0, count: transitionTexts.count)
    for index in indices {
      if let deadline, DispatchTime.now() >= deadline { break }
      if summary.configurationProblem != nil { break }
      var rng = SplitMix64(seed: Self.caseSeed(seed, index))
      let fuzzCase: FuzzCase
      let values: [Int]
      let startState: ModelSimulator?
      do { (fuzzCase, values, startState) = try generateWithValues(&rng) } catch {
        summary.configurationProblem = error
        break
      }
      let started = DispatchTime.now()
      let execution = await executor.execute(fuzzCase, values: values, started: startState, recordsStates: false)
      let took = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
      if fuzzCase.usesSRP {
        summary.srpCases += 1
        summary.srpSeconds += took
      } else {
        summary.otherSeconds += took
      }
      if let failure = execution.clientFailure {
        summary.clientFailure = failure
        break
      }
      summary.cases += 1
      summary.calls += execution.calls.count
      for (k, t) in execution.transitions.enumerated() {
        let branch = k < execution.branches.count ? execution.branches[k] : -1
        if branch >= 0 { branchCounts[branch] += 1 } else { summary.covered[t, default: 0] += 1 }
      }
      if let reason = execution.unsupported { summary.unsupported[reason, default: 0] += 1 }
      progress?(summary.cases, firstRaw.count)
      guard execution.valid, execution.failed, let key = execution.rootCause else { continue }
      rawCounts[key, default: 0] += 1
      if firstRaw[key] == nil {
        let found = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        firstRaw[key] = (index, fuzzCase, execution, found)
      }
      if stopAtFirstFailure { break }
    }
    for (branch, count) in branchCounts.enumerated() where count > 0 {
      summary.covered[transitionTexts[branch], default: 0] += count
    }
    var findings: [FuzzFinding] = []
    for (key, raw) in firstRaw.sorted(by: { $0.value.index < $1.value.index }) where summary.clientFailure == nil {
      let shrunk = await shrink(raw.fuzzCase)
      let shrunkExecution = await executor.execute(shrunk)
      if let failure = shrunkExecution.clientFailure {
        summary.clientFailure = failure
        break
      }
      var finding = FuzzFinding(
        fuzzCase: shrunk, execution: shrunkExecution, seed: Self.caseSeed(seed, raw.index),
        originalLength: min(raw.fuzzCase.calls.count, (raw.execution.failingCall ?? 0) + 1), secondsToFind: raw.seconds)
      finding.index = raw.index
      finding.rawFailures = rawCounts[key] ?? 1
      finding.rawCause = key
      findings.append(finding)
    }
    // One per raw cause; `FuzzFinding.merged` makes them one per root cause (after all workers).
    summary.findings = findings
    summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    return summary
  }
}
