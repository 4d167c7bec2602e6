import Conformance
import ModelChecking
import SignInClient
import SignInModel

/// One call of a fuzz case: the response class given, and whether the server answers it
/// with a challenge the client cannot know (a future enum value).
public struct FuzzCall: Codable, Sendable, Equatable, Hashable {
  public var response: String
  public var unknownChallenge: Bool

  public init(response: String, unknownChallenge: Bool = false) {
    self.response = response
    self.unknownChallenge = unknownChallenge
  }
}

/// A configuration and the calls made under it: what the fuzzer generates, shrinks and saves.
public struct FuzzCase: Codable, Sendable, Equatable, Hashable {
  public var configuration: [String: String]
  public var calls: [FuzzCall]

  public init(configuration: [String: String], calls: [FuzzCall]) {
    self.configuration = configuration
    self.calls = calls
  }
}

/// One executed call: what the model expected and what the client did.
public struct ObservedCall: Codable, Sendable, Equatable {
  public let call: String
  public let response: String
  public let stepBefore: String
  public let expected: String
  public let observed: String
}

/// The result of running a case: every call, and the first mismatch if there was one.
public struct Execution: Sendable {
  public var calls: [ObservedCall] = []
  /// Index in `calls` of the call where the client differed from the model.
  public var failingCall: Int?
  public var message: String?
  /// False when the calls do not fit the model (a response the step does not accept).
  public var valid = true
  /// Transitions the model took: "step / response -> outcome".
  public var transitions: [String] = []

  public var failed: Bool { failingCall != nil }
}

/// Runs fuzz cases: the model (`ModelSimulator`) is the oracle, the client (optionally with
/// deliberate bugs) runs on the simulated pool, and each call is compared.
public struct CaseExecutor: Sendable {
  public let model: SignInModel
  public let bugs: Set<DeliberateBug>
  let runner: ConformanceRunner

  public init(model: SignInModel, bugs: Set<DeliberateBug> = []) {
    self.model = model
    self.bugs = bugs
    runner = ConformanceRunner(model: model)
  }

  static func describe(_ outcome: TraceOutcome) -> String {
    switch outcome {
    case .step(let id): return id
    case .error(let name, _): return "error \(name)"
    case .restart(let reason): return "restart (\(reason))"
    }
  }

  static func describe(_ observed: Result<AuthSignInResult, AuthError>, current: AuthSignInStep?) -> String {
    switch observed {
    case .success(let r): return r.nextStep.name
    case .failure(let e): return "error \(e) -> " + (current.map { "stays on \($0.name)" } ?? "signed out")
    }
  }

  public func execute(_ fuzzCase: FuzzCase) async -> Execution {
    var execution = Execution()
    guard var oracle = try? ModelSimulator(model: model, configuration: fuzzCase.configuration, recordsTrace: false),
      runner.covers(fuzzCase.configuration)
    else {
      execution.valid = false
      return execution
    }
    let pool = SimulatedUserPool(configuration: fuzzCase.configuration)
    let client = SignInClient(backend: pool, clientId: "fuzz", userPoolId: "us-east-1_fuzz", bugs: bugs)
    for call in fuzzCase.calls {
      guard let stepIndex = oracle.step, !model.steps[stepIndex].isTerminal else { break }
      let step = model.steps[stepIndex]
      // Calls the generator never makes (see ConformanceRunner) are not valid cases.
      if ConformanceRunner.unsupportedResponses.contains(call.response)
        || (ConformanceRunner.localSelectionSteps.contains(step.id) && ["networkFault", "expiredSession"].contains(call.response))
      {
        execution.valid = false
        return execution
      }
      let offeredBefore = oracle.offered
      var expected: TraceOutcome
      do { expected = try oracle.respond(call.response) } catch {
        execution.valid = false
        return execution
      }
      execution.transitions.append("\(step.id) / \(call.response) -> \(Self.transitionOutcome(expected))")
      if call.unknownChallenge, case .step = expected {
        // Out of the model: the server answers with a challenge nobody knows yet. The flow
        // must end (a typed error, signed out), so a new signIn works.
        expected = .restart("unknown challenge FUTURE_CHALLENGE_2027")
        await pool.injectUnknownChallenge()
      }
      if call.response == "networkFault" { await pool.injectNetworkFault() }
      if call.response == "expiredSession" { await pool.expireSessions() }
      let text = runner.answer(call.response, step: step.id, offered: offeredBefore)
      let observed: Result<AuthSignInResult, AuthError>
      do {
        if step.kind == .entry {
          let password = call.response == "wrongPassword" ? text : SimulatedUserPool.password
          observed = .success(try await client.signIn(
            username: SimulatedUserPool.username, password: password,
            options: SignInOptions(authFlow: runner.flow(fuzzCase.configuration))))
        } else {
          observed = .success(try await client.confirmSignIn(challengeResponse: text))
        }
      } catch {
        observed = .failure(error)
      }
      let current = await client.currentStep
      execution.calls.append(ObservedCall(
        call: step.kind == .entry ? "signIn" : "confirmSignIn", response: call.response + (call.unknownChallenge ? " + unknown challenge" : ""),
        stepBefore: step.id, expected: Self.describe(expected), observed: Self.describe(observed, current: current)))
      let offeredAfter = call.unknownChallenge ? [] : oracle.offered
      if let problem = runner.compare(expected, observed, current: current, offered: offeredAfter) {
        execution.failingCall = execution.calls.count - 1
        execution.message = problem
        return execution
      }
      if call.unknownChallenge, case .restart = expected { break }
    }
    return execution
  }

  static func transitionOutcome(_ outcome: TraceOutcome) -> String {
    switch outcome {
    case .step(let id): return id
    case .error: return "error"
    case .restart: return "restart"
    }
  }

  /// Every transition the model has, in the same form as `Execution.transitions`.
  public var allTransitions: [String] {
    let system = TransitionSystem(model: model)
    var seen = Set<String>()
    var result: [String] = []
    for branch in system.branches {
      let outcome: String
      switch branch.outcome {
      case .step(let s): outcome = model.steps[s].id
      case .error: outcome = "error"
      default: outcome = "restart"
      }
      let key = "\(model.steps[branch.step].id) / \(model.responses[branch.response].name) -> \(outcome)"
      if seen.insert(key).inserted { result.append(key) }
    }
    return result
  }
}
