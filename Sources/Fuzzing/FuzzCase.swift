import Conformance
import ModelChecking
import SignInClient
import SignInModel
import SimulatedCognito

/// One call of a fuzz case: the response class given, the API call when it is not the one
/// the flow implies (see `Harness.Call.function`), and for a network fault which backend
/// request fails and how. Fields added after version 2 files are optional.
///
/// Files before version 4 marked a call `unknownChallenge: true` (the server answering it with
/// a challenge the client cannot know); such a call is read as the response class
/// `unknownChallenge`, which the models now have.
package struct FuzzCall: Codable, Sendable, Equatable, Hashable {
  package var response: String
  package var function: Harness.Function?
  package var faultRequest: Int?
  package var fault: SimulatedFault?
  /// For `serviceError` and `setupError`: the documented Cognito error the pool answers (nil: `fault`).
  package var error: String?

  package init(
    response: String, function: Harness.Function? = nil, faultRequest: Int? = nil,
    fault: SimulatedFault? = nil, error: String? = nil
  ) {
    self.response = response
    self.function = function
    self.faultRequest = faultRequest
    self.fault = fault
    self.error = error
  }

  private enum CodingKeys: String, CodingKey {
    case response, unknownChallenge, function, faultRequest, fault, error
  }

  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    response = try c.decode(String.self, forKey: .response)
    if try c.decodeIfPresent(Bool.self, forKey: .unknownChallenge) == true {
      response = ResponseName.unknownChallenge.rawValue
    }
    function = try c.decodeIfPresent(Harness.Function.self, forKey: .function)
    faultRequest = try c.decodeIfPresent(Int.self, forKey: .faultRequest)
    fault = try c.decodeIfPresent(SimulatedFault.self, forKey: .fault)
    error = try c.decodeIfPresent(String.self, forKey: .error)
  }

  package func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(response, forKey: .response)
    try c.encodeIfPresent(function, forKey: .function)
    try c.encodeIfPresent(faultRequest, forKey: .faultRequest)
    try c.encodeIfPresent(fault, forKey: .fault)
    try c.encodeIfPresent(error, forKey: .error)
  }

  var harnessCall: Harness.Call {
    Harness.Call(
      response: response, function: function, faultRequest: faultRequest ?? 0, fault: fault ?? .transport,
      error: error)
  }

  /// The call as a trace shows it: `signIn(correctPassword)`-style suffixes for what is not implied.
  package var label: String {
    var text = response
    if let faultRequest, faultRequest > 0 { text += " on request \(faultRequest + 1)" }
    if let fault, fault != .transport { text += " (\(fault.rawValue))" }
    if let error { text += " (\(error))" }
    return text
  }
}

/// A configuration and the calls made under it: what the fuzzer generates, shrinks and saves.
package struct FuzzCase: Codable, Sendable, Equatable, Hashable {
  package var configuration: [String: String]
  package var calls: [FuzzCall]

  package init(configuration: [String: String], calls: [FuzzCall]) {
    self.configuration = configuration
    self.calls = calls
  }

  /// Whether running the case does SRP's arithmetic: its configuration does
  /// (`Harness.usesSRP`), or a call selects PASSWORD_SRP.
  package var usesSRP: Bool {
    Harness.usesSRP(configuration) || calls.contains { $0.response == ResponseName.selectPASSWORD_SRP.rawValue }
  }
}

/// One executed call: what the model expected and what the client did, with the exception
/// the model names for the outcome (`exception`) and the error the client reported (`error`,
/// by the name the models give the client's error type, `ErrorType.name`; for a model finding,
/// the model's own); both written as null where there is none. Files before version 4 have neither.
package struct ObservedCall: Codable, Sendable, Equatable {
  package let call: String
  package let response: String
  package let stepBefore: String
  package let exception: String?
  /// What the model expected and what the client showed: as read from a file, or as the run
  /// saw them, rendered to text only when asked (most cases pass, and nobody reads theirs).
  private let shown: Shown

  private enum Shown: Sendable {
    case text(expected: String, observed: String, error: String?)
    case run(expected: TraceOutcome, observation: Observation)
  }

  package var expected: String {
    switch shown {
    case .text(let expected, _, _): return expected
    case .run(let outcome, _): return CaseExecutor.describe(outcome, exception)
    }
  }

  package var observed: String {
    switch shown {
    case .text(_, let observed, _): return observed
    case .run(_, let observation): return observation.description
    }
  }

  package var error: String? {
    switch shown {
    case .text(_, _, let error): return error
    case .run(_, let observation): return observation.errorName
    }
  }

  package init(
    call: String, response: String, stepBefore: String, expected: String, observed: String,
    exception: String? = nil, error: String? = nil
  ) {
    self.call = call
    self.response = response
    self.stepBefore = stepBefore
    self.exception = exception
    shown = .text(expected: expected, observed: observed, error: error)
  }

  /// A call as a run saw it: the model's outcome and the client's observation, rendered on demand.
  init(
    call: String, response: String, stepBefore: String, expected: TraceOutcome, exception: String?,
    observation: Observation
  ) {
    self.call = call
    self.response = response
    self.stepBefore = stepBefore
    self.exception = exception
    shown = .run(expected: expected, observation: observation)
  }

  package static func == (a: ObservedCall, b: ObservedCall) -> Bool {
    a.call == b.call && a.response == b.response && a.stepBefore == b.stepBefore && a.exception == b.exception
      && a.expected == b.expected && a.observed == b.observed && a.error == b.error
  }

  private enum CodingKeys: String, CodingKey {
    case call, response, stepBefore, expected, observed, exception, error
  }

  package init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    call = try c.decode(String.self, forKey: .call)
    response = try c.decode(String.self, forKey: .response)
    stepBefore = try c.decode(String.self, forKey: .stepBefore)
    shown = .text(
      expected: try c.decode(String.self, forKey: .expected), observed: try c.decode(String.self, forKey: .observed),
      error: try c.decodeIfPresent(String.self, forKey: .error))
    exception = try c.decodeIfPresent(String.self, forKey: .exception)
  }

  package func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(call, forKey: .call)
    try c.encode(response, forKey: .response)
    try c.encode(stepBefore, forKey: .stepBefore)
    try c.encode(expected, forKey: .expected)
    try c.encode(observed, forKey: .observed)
    try c.encode(exception, forKey: .exception)
    try c.encode(error, forKey: .error)
  }
}

/// The result of running a case: every call, and the first disagreement if there was one.
package struct Execution: Sendable {
  package var calls: [ObservedCall] = []
  /// Index in `calls` of the call where the client differed from the model.
  package var failingCall: Int?
  /// How the client differed at `failingCall`.
  package var disagreement: Disagreement?
  /// `disagreement`, rendered.
  package var message: String? { disagreement?.description }
  /// The root cause: (property, step, response class, field) of the failing call.
  package var rootCause: String? {
    guard let failingCall, let disagreement else { return nil }
    let call = calls[failingCall]
    return "\(disagreement.property) | \(call.stepBefore) | \(call.response) | \(disagreement.field)"
  }
  /// False when the calls do not fit the model (a response the step does not accept).
  package var valid = true
  /// Transitions the model took: "step / response -> outcome".
  package var transitions: [String] = []
  /// For each of `transitions`, the branch of the model's transition system it is (-1 where
  /// the call met no step).
  package var branches: [Int] = []
  /// The model's state before the first call and after each call: the valuation of every
  /// variable (configuration, then flow) and the step id, nil once the flow ended. Empty when
  /// the case ran without `recordsStates` (`CaseExecutor.execute`).
  package var states: [(valuation: [Int], step: String?)] = []
  /// Why the case was not judged from this call on: the pool asked for a challenge the client
  /// under test does not support (its calls so far are in `calls`, the last one not judged).
  package var unsupported: String?
  /// The client under test failed to answer (an adapter broke the protocol): the run must stop.
  package var clientFailure: ClientFailure?

  package var failed: Bool { failingCall != nil }
}

/// Runs fuzz cases through `Harness`: the model is the oracle, the client (optionally a
/// deliberately broken one, through its hooks) runs on the simulated pool.
package struct CaseExecutor: Sendable {
  package let harness: Harness
  package var model: SignInModel { harness.model }

  package init(model: SignInModel, hooks: ClientHooks = .reference, connection: PoolConnection? = nil) {
    harness = Harness(model: model, hooks: hooks, connection: connection)
  }

  /// Runs cases through `harness` (a client under test behind an adapter, for example).
  package init(harness: Harness) {
    self.harness = harness
  }

  static func describe(_ outcome: TraceOutcome, _ exception: String? = nil) -> String {
    switch outcome {
    case .step(let id): return id
    case .error(let name, _): return "error \(name)" + (exception.map { $0 == name ? "" : " [\($0)]" } ?? "")
    case .restart(let reason): return "restart (\(reason))" + (exception.map { ", \($0)" } ?? "")
    case .undetermined(let place): return "undetermined: \(place)"
    }
  }

  /// Runs `fuzzCase`. `values`, when given, are its configuration's values by variable index
  /// (as the generator drew them), so the oracle starts without reading names. Without
  /// `recordsStates`, `Execution.states` stays empty (the fuzzer's run over many cases reads
  /// only the verdict and the coverage; a failing case is run again, with its states, when
  /// it is shrunk and saved).
  /// `started`, when given, is the model's state already started from `values` (the
  /// generator's), which the oracle starts from as it is.
  package func execute(
    _ fuzzCase: FuzzCase, values: [Int]? = nil, started: ModelSimulator? = nil, recordsStates: Bool = true
  ) async -> Execution {
    var execution = Execution()
    let opened: Harness.Run?
    do { opened = try await harness.open(fuzzCase.configuration, values: values, started: started) } catch {
      execution.clientFailure = error
      return execution
    }
    guard var run = opened else {
      execution.valid = false
      return execution
    }
    if recordsStates { execution.states.append((run.oracle.valuation, run.oracle.stepID)) }
    for call in fuzzCase.calls {
      let step =
        run.flowEnded || call.function == .signIn ? (call.function == .confirmSignIn ? nil : 0) : run.oracle.step
      let response = harness.system.responseIndex[call.response]
      if let step, let response, !harness.supports(responseIndex: response, atStep: step) {
        execution.valid = false
        return execution
      }
      // The response must fit the step it is given at (after a signOut or a restart, the new flow's
      // first step), also where the case stops before it on a broken client (so the shrinker
      // never saves a case the reference client cannot replay), and a setup fault only where
      // the answer leads to the TOTP setup.
      let before = run.flowEnded || call.function == .signIn ? run.fresh : run.oracle
      if step != nil, response.map({ !harness.supports(responseIndex: $0, in: before) }) ?? true {
        execution.valid = false
        return execution
      }
      // A network fault or service error on the second request only where the answer takes two
      // requests before Cognito takes it (VerifySoftwareToken, then RespondToAuthChallenge, at a
      // step that carries the TOTP secret); elsewhere the second request comes after the answer
      // was taken, which is `setupFault`.
      if call.response != ResponseName.setupFault.rawValue, let request = call.faultRequest, request > 0,
        !(before.step.map { model.steps[$0].facts.carries.contains(.sharedSecret) } ?? false)
      {
        execution.valid = false
        return execution
      }
      var harnessCall = call.harnessCall
      harnessCall.responseIndex = response
      let record: Harness.Record
      do {
        record = try await harness.perform(harnessCall, on: &run)
      } catch .client(let failure) {
        execution.clientFailure = failure
        return execution
      } catch {
        execution.valid = false
        return execution
      }
      execution.branches.append(record.branch ?? -1)
      execution.transitions.append(harness.transitionText(of: record))
      execution.calls.append(
        ObservedCall(
          call: record.function, response: call.label, stepBefore: record.stepBefore, expected: record.expected,
          exception: record.expectedException, observation: record.observation))
      if recordsStates { execution.states.append((run.oracle.valuation, run.oracle.stepID)) }
      if let unsupported = record.unsupported {
        execution.unsupported = unsupported
        return execution
      }
      if let disagreement = record.disagreement {
        execution.failingCall = execution.calls.count - 1
        execution.disagreement = disagreement
        return execution
      }
    }
    return execution
  }

  static func transitionOutcome(_ outcome: TraceOutcome) -> String { Harness.transitionOutcome(outcome) }

  /// Every transition the model has, in the same form as `Execution.transitions`.
  package var allTransitions: [String] { harness.allTransitions }
}
