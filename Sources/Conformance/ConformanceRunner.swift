import ModelChecking
import SignInClient
import SignInModel

/// A difference between what the model expects and what the reference client did.
public struct ConformanceMismatch: Sendable {
  public let configuration: [Assignment]
  /// The calls up to and including the one that differed, with the model's expected outcome.
  public let expected: [TraceStep]
  /// What the client did on the last call.
  public let observed: String
}

/// Totals of one conformance run.
public struct ConformanceReport: Sendable {
  public var configurations = 0
  public var sequences = 0
  public var callsChecked = 0
  public var mismatches: [ConformanceMismatch] = []
}

/// Drives the reference client against the simulated user pool, one configuration and one
/// response sequence at a time, and checks every observed step against the model
/// (`ModelSimulator` is the oracle). Sequences are random walks over the model's responses,
/// seeded, with at most `maxFailures` failed attempts (so the five-failure bound is not hit).
///
/// Not covered, because the simulated pool or the client does not do them here: SRP flows
/// (userSRP, customWithSRP, PASSWORD_SRP), passkeys (WEB_AUTHN); network faults and expired
/// sessions at the two selection steps whose answer the client handles locally.
public struct ConformanceRunner: Sendable {
  public let model: SignInModel
  public let sequencesPerConfiguration: Int
  public let maxLength: Int
  public let maxFailures: Int

  public init(model: SignInModel, sequencesPerConfiguration: Int = 3, maxLength: Int = 8, maxFailures: Int = 3) {
    self.model = model
    self.sequencesPerConfiguration = sequencesPerConfiguration
    self.maxLength = maxLength
    self.maxFailures = maxFailures
  }

  /// Whether the run can exercise this configuration (see the type's notes).
  public func covers(_ configuration: [String: String]) -> Bool {
    !["userSRP", "customWithSRP"].contains(configuration["pool.authFlow"] ?? "")
      && !["WEB_AUTHN", "PASSWORD_SRP"].contains(configuration["pool.preferredFirstFactor"] ?? "none")
  }

  public static let unsupportedResponses: Set<String> = ["selectPASSWORD_SRP", "selectWEB_AUTHN"]
  public static let localSelectionSteps: Set<String> = ["continueSignInWithFirstFactorSelection", "continueSignInWithMFASetupSelection"]

  /// Every valid configuration of the model, in a fixed order.
  public func allConfigurations() -> [[String: String]] {
    var result: [[String: String]] = []
    var values = [Int](repeating: 0, count: model.configurationCount)
    let indices = Array(model.configurationIndices)
    func visit(_ k: Int) {
      if k == indices.count {
        if model.constraints.allSatisfy({ (try? $0.expr.holds(values)) == true }) { result.append(dictionary(values)) }
        return
      }
      for v in model.variables[indices[k]].domain.values {
        values[indices[k]] = v
        visit(k + 1)
      }
    }
    visit(0)
    return result
  }

  /// `count` valid configurations drawn with `seed`.
  public func sampleConfigurations(count: Int, seed: UInt64) -> [[String: String]] {
    var rng = SplitMix64(seed: seed)
    var result: [[String: String]] = []
    var attempts = 0
    while result.count < count && attempts < count * 1000 {
      attempts += 1
      let values = model.configurationIndices.map { i -> Int in
        let domain = model.variables[i].domain.values
        return domain[Int(rng.next() % UInt64(domain.count))]
      }
      if model.constraints.allSatisfy({ (try? $0.expr.holds(values)) == true }) {
        let d = dictionary(values)
        if covers(d) { result.append(d) }
      }
    }
    return result
  }

  func dictionary(_ values: [Int]) -> [String: String] {
    var d: [String: String] = [:]
    for i in model.configurationIndices { d[model.variables[i].name] = model.variables[i].domain.render(values[i]) }
    return d
  }

  /// Runs the sequences for each configuration and collects every mismatch.
  public func run(_ configurations: [[String: String]], seed: UInt64) async -> ConformanceReport {
    var report = ConformanceReport()
    var rng = SplitMix64(seed: seed)
    for configuration in configurations where covers(configuration) {
      report.configurations += 1
      for _ in 0..<sequencesPerConfiguration {
        report.sequences += 1
        if let mismatch = await runSequence(configuration, rng: &rng, calls: &report.callsChecked) {
          report.mismatches.append(mismatch)
        }
      }
    }
    return report
  }

  public func swiftName(_ stepID: String) -> String {
    guard let i = model.stepIndex(named: stepID) else { return stepID }
    if case .name(let n)? = model.steps[i].names.first(where: { $0.platform == "swift" })?.form { return n }
    return stepID
  }

  /// The answer the client sends for a response class at a step.
  public func answer(_ response: String, step: String, offered: [String]) -> String {
    switch response {
    case "correctCode": return SimulatedUserPool.code
    case "wrongCode": return "000000"
    case "selectSMS": return "SMS_MFA"
    case "selectTOTP": return "SOFTWARE_TOKEN_MFA"
    case "selectEMAIL": return "EMAIL_OTP"
    case "selectUnknown": return "PUSH_MFA"
    case "selectPASSWORD": return "PASSWORD"
    case "selectSMS_OTP": return "SMS_OTP"
    case "selectEMAIL_OTP": return "EMAIL_OTP"
    case "validEmail": return "user@example.com"
    case "invalidEmail": return "not-an-address"
    case "goodNewPassword": return "NewPassw0rd!"
    case "badNewPassword": return "short"
    case "correctAnswer": return "right"
    case "wrongAnswer": return "wrong"
    case "failingAnswer": return "fail"
    case "correctPassword": return SimulatedUserPool.password
    case "wrongPassword": return "wrong-password"
    default:
      // networkFault / expiredSession: the answer that would otherwise succeed.
      switch step {
      case "continueSignInWithMFASelection":
        return ["SMS": "SMS_MFA", "TOTP": "SOFTWARE_TOKEN_MFA", "EMAIL": "EMAIL_OTP"][offered.first ?? ""] ?? "SMS_MFA"
      case "continueSignInWithEmailMFASetup": return "user@example.com"
      case "confirmSignInWithNewPassword": return "NewPassw0rd!"
      case "confirmSignInWithCustomChallenge": return "right"
      case "confirmSignInWithPassword": return SimulatedUserPool.password
      default: return SimulatedUserPool.code
      }
    }
  }

  public func flow(_ configuration: [String: String]) -> AuthFlowType {
    switch configuration["pool.authFlow"] {
    case "customWithoutSRP": return .customWithoutSRP
    case "userAuth":
      return .userAuth(preferredFirstFactor: AuthFactorType(rawValue: configuration["pool.preferredFirstFactor"] ?? ""))
    default: return .userPassword
    }
  }

  private func runSequence(_ configuration: [String: String], rng: inout SplitMix64, calls: inout Int) async -> ConformanceMismatch? {
    guard var oracle = try? ModelSimulator(model: model, configuration: configuration) else { return nil }
    let pool = SimulatedUserPool(configuration: configuration)
    let client = SignInClient(backend: pool, clientId: "conformance", userPoolId: "us-east-1_sim")
    var failures = 0
    for _ in 0..<maxLength {
      guard let stepIndex = oracle.step, !model.steps[stepIndex].isTerminal else { return nil }
      let step = model.steps[stepIndex]
      var choices = step.responses.map { model.responses[$0.response].name }.filter { !Self.unsupportedResponses.contains($0) }
      if Self.localSelectionSteps.contains(step.id) { choices.removeAll { $0 == "networkFault" || $0 == "expiredSession" } }
      if choices.isEmpty { return nil }
      // Prefer responses that do not fail once the failure budget is spent.
      var response = choices[Int(rng.next() % UInt64(choices.count))]
      let before = oracle
      var expected: TraceOutcome
      do { expected = try oracle.respond(response) } catch { return nil }
      if case .error = expected { failures += 1 }
      if failures > maxFailures {
        oracle = before
        let safe = choices.filter { c in
          var probe = before
          if case .error? = try? probe.respond(c) { return false }
          return true
        }
        guard let pick = safe.first else { return nil }
        response = pick
        do { expected = try oracle.respond(response) } catch { return nil }
      }
      calls += 1
      // Perform the same response on the client.
      let offered = before.offered
      if response == "networkFault" { await pool.injectNetworkFault() }
      if response == "expiredSession" { await pool.expireSessions() }
      let text = answer(response, step: step.id, offered: offered)
      let observed: Result<AuthSignInResult, AuthError>
      do {
        if step.kind == .entry {
          let password = response == "wrongPassword" ? text : SimulatedUserPool.password
          observed = .success(try await client.signIn(
            username: SimulatedUserPool.username, password: password, options: SignInOptions(authFlow: flow(configuration))))
        } else {
          observed = .success(try await client.confirmSignIn(challengeResponse: text))
        }
      } catch {
        observed = .failure(error)
      }
      let current = await client.currentStep
      if let problem = compare(expected, observed, current: current, offered: oracle.offered) {
        return ConformanceMismatch(
          configuration: model.configurationIndices.map { Assignment(variable: model.variables[$0].name, value: configuration[model.variables[$0].name]) },
          expected: oracle.trace, observed: problem)
      }
    }
    return nil
  }

  /// The options a selection step offers, in the model's option names.
  static func offeredNames(_ step: AuthSignInStep) -> Set<String>? {
    let mfa: [MFAType: String] = [.sms: "SMS", .totp: "TOTP", .email: "EMAIL"]
    switch step {
    case .continueSignInWithMFASelection(let types), .continueSignInWithMFASetupSelection(let types):
      return Set(types.compactMap { mfa[$0] })
    case .continueSignInWithFirstFactorSelection(let factors): return Set(factors.map(\.rawValue))
    default: return nil
    }
  }

  /// nil when the client did what the model expects; otherwise what it did instead.
  /// `offered` is what the model's step offers after the call, for selection steps.
  public func compare(
    _ expected: TraceOutcome, _ observed: Result<AuthSignInResult, AuthError>, current: AuthSignInStep?, offered: [String] = []
  ) -> String? {
    switch (expected, observed) {
    case (.step(let id), .success(let result)):
      if result.nextStep.name != swiftName(id) { return "returned \(result.nextStep.name), the model expects \(swiftName(id))" }
      if let names = Self.offeredNames(result.nextStep), !offered.isEmpty, names != Set(offered) {
        return "offers \(names.sorted().joined(separator: ", ")), the model offers \(offered.sorted().joined(separator: ", "))"
      }
      return nil
    case (.error(_, let stays), .failure(let error)):
      if !error.isRetryable { return "threw \(error), which ends the flow; the model expects a retryable error" }
      return current?.name == swiftName(stays) ? nil : "threw \(error) but is now on \(current?.name ?? "no step")"
    case (.restart, .failure(let error)):
      return current == nil ? nil : "threw \(error) but stays on \(current!.name); the model expects the flow to end"
    case (_, .success(let result)):
      return "returned \(result.nextStep.name); the model expects \(expected)"
    case (_, .failure(let error)):
      return "threw \(error); the model expects \(expected)"
    }
  }
}
