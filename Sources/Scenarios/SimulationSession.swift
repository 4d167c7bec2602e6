import ModelChecking
import SignInModel

/// One user at one configuration making calls, the way `simulate` and scenario files read
/// them: `RESPONSE` answers the current step (at the start, and after a restart or the end of
/// a flow, it answers `signIn`); `ENTRY:RESPONSE` calls an entry point of the model; `signOut`
/// signs out.
///
/// `signIn:RESPONSE` in the middle of a flow, or once signed in, and `signOut` do what the
/// model's `clientCalls:` say for the platform; a model without them starts a new flow from
/// scratch on `signIn:RESPONSE` (flow variables reset), as after a restart, and has no
/// `signOut`. A rule's `platforms:` entry replaces what the call reports on that platform.
/// `confirmSignIn:RESPONSE` answers the current step explicitly.
public struct SimulationSession: Sendable {
  public let model: SignInModel
  public let platform: String
  /// Every configuration variable's value, as text: the given ones, then the defaults.
  public let configuration: [String: String]
  private var simulator: ModelSimulator?
  public private(set) var records: [CallRecord] = []
  /// Every rule by its line, to find the `platforms:` entries of the rules a response followed.
  private let rulesByLine: [Int: Rule]

  public init(model: SignInModel, settings: [(name: String, value: String)], platform: String) throws(SimulationError) {
    guard model.platforms.contains(platform) else {
      throw SimulationError(
        "unknown platform '\(platform)'\(Self.hint(platform, model.platforms)); the model's platforms: "
          + model.platforms.joined(separator: ", "))
    }
    self.model = model
    self.platform = platform
    self.configuration = try ConfigurationResolver(model: model).resolve(settings)
    var rules: [Int: Rule] = [:]
    for rule in model.steps.flatMap({ $0.responses.flatMap(\.rules) }) + model.routes.flatMap(\.rules) {
      rules[rule.line] = rule
    }
    self.rulesByLine = rules
  }

  /// The model's entry points (`signIn`), `confirmSignIn`, which answers the current step, and
  /// `signOut` where the model describes it.
  public var entryNames: [String] {
    model.steps.filter { $0.kind == .entry }.map(\.id) + ["confirmSignIn"]
      + (model.clientCall(named: "signOut") == nil ? [] : ["signOut"])
  }

  /// Makes one call, written `RESPONSE` or `ENTRY:RESPONSE`, and records what it did.
  @discardableResult
  public mutating func call(_ text: String) throws(SimulationError) -> CallRecord {
    if text == "signOut" || text == "signOut:" {
      guard let signOut = model.clientCall(named: "signOut") else {
        throw SimulationError(
          "unknown entry point 'signOut'; the model's entry points: " + entryNames.joined(separator: ", "))
      }
      return signOutCall(signOut)
    }
    var response = text
    var entry: String?
    if let colon = text.firstIndex(of: ":") {
      let name = String(text[..<colon])
      entry = name
      response = String(text[text.index(after: colon)...])
      guard entryNames.contains(name) else {
        throw SimulationError(
          "unknown entry point '\(name)' in '\(text)'\(Self.hint(name, entryNames)); the model's entry points: "
            + entryNames.joined(separator: ", "))
      }
    }
    let carried = try carriedError(&response, in: text)
    if entry == "confirmSignIn" && flowIsOver {
      throw SimulationError("'\(text)': no flow is in progress; the next call answers signIn")
    }
    if entry == "signIn", let signIn = model.clientCall(named: "signIn"), let situation = currentSituation(signIn),
      situation.effect != .cancel
    {
      // The client refuses (or ends the flow) before anything reaches Cognito.
      return apply(situation, call: "signIn", response: response)
    }
    if entry != nil && entry != "confirmSignIn" || flowIsOver {
      simulator = try startFlow()
    }
    guard var running = simulator, let before = running.step else {
      preconditionFailure("a flow is in progress: one was started unless the last call left it mid-way")
    }
    let outcome: TraceOutcome
    do {
      outcome = try running.respond(response)
      simulator = running
    } catch {
      simulator = running
      throw describe(error, response: response, at: before)
    }
    let names = model.reported(outcome, ruleLines: running.lastRuleLines)
    var record = self.record(outcome, call: before == 0 ? "signIn" : "confirmSignIn", response: response, names)
    if let form = platformForm() { record = reported(form, instead: record) }
    if let carried { record = reported(carried, instead: record) }
    records.append(record)
    return record
  }

  /// The situation `call` meets now: `signedIn` at done, `inFlow` during a flow, nil otherwise.
  private func currentSituation(_ call: ClientCall) -> ClientCall.Situation? {
    guard let simulator, let step = simulator.step else { return nil }
    switch model.steps[step].kind {
    case .signedIn: return call.signedIn
    case .challenge: return call.inFlow
    default: return nil
    }
  }

  /// `signOut`: what the model says for the situation; signed out already, it only reports so.
  private mutating func signOutCall(_ signOut: ClientCall) -> CallRecord {
    if let situation = currentSituation(signOut) { return apply(situation, call: "signOut", response: "") }
    let signedIn = simulator?.step.map { model.steps[$0].kind == .signedIn } ?? false
    if signedIn { simulator = nil }
    let record = CallRecord(
      call: "signOut", response: "", kind: .signedOut, stepID: nil, step: nil, error: nil, reason: nil)
    records.append(record)
    return record
  }

  /// Applies a client call's situation: its effect on the flow, then what it reports.
  private mutating func apply(_ situation: ClientCall.Situation, call: String, response: String) -> CallRecord {
    if situation.effect != .keep { simulator = nil }
    let stepID = simulator?.stepID
    let stepName = simulator?.step.map { platformName($0) } ?? nil
    let record: CallRecord
    switch situation.report(on: platform) {
    case .error(let name)?:
      record = CallRecord(
        call: call, response: response, kind: .error, stepID: stepID, step: stepName, error: name, reason: nil,
        exception: situation.neutralError ?? name)
    case .signedOut?, nil:
      record = CallRecord(
        call: call, response: response, kind: .signedOut, stepID: stepID, step: stepName, error: nil, reason: nil)
    }
    records.append(record)
    return record
  }

  /// The `platforms:` entry for this platform of the innermost rule the last response followed.
  private func platformForm() -> PlatformOutcome.Form? {
    guard let simulator else { return nil }
    return simulator.lastRuleLines.reversed().lazy.compactMap {
      self.rulesByLine[$0]?.platformOutcomes.form(on: self.platform)
    }
    .first
  }

  /// `record` as the platform reports it: the flow is where the rule left it (a restart stays
  /// a restart, reported by the platform's error).
  private func reported(_ form: PlatformOutcome.Form, instead record: CallRecord) -> CallRecord {
    let onStep = simulator?.step.flatMap { model.steps[$0].isTerminal ? nil : platformName($0) }
    switch form {
    case .error(let name) where record.kind == .restart:
      return CallRecord(
        call: record.call, response: record.response, kind: .restart, stepID: nil, step: nil, error: name,
        reason: record.reason, exception: record.exception)
    case .error(let name):
      return CallRecord(
        call: record.call, response: record.response, kind: .error, stepID: record.stepID, step: onStep,
        error: name, reason: record.reason, exception: record.exception)
    case .signedOut:
      return CallRecord(
        call: record.call, response: record.response, kind: .signedOut, stepID: record.stepID, step: onStep,
        error: nil, reason: record.reason, exception: record.exception)
    }
  }

  /// Splits `RESPONSE=ERROR` (a class that carries errors, `setupError=NotAuthorizedException`)
  /// into the class, left in `response`, and the error it carries.
  private func carriedError(_ response: inout String, in text: String) throws(SimulationError)
    -> ResponseClass.CarriedError?
  {
    let parts = response.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let name = parts[0]
    guard let responseClass = model.responses.first(where: { $0.name == name }) else {
      // Not a response at all: answered below as an unknown response, by its name.
      if parts.count == 2 { response = name }
      return nil
    }
    guard !responseClass.errors.isEmpty else {
      if parts.count == 2 { throw SimulationError("'\(text)': response '\(name)' carries no error (=NAME)") }
      return nil
    }
    let names = responseClass.errors.map(\.exception)
    guard parts.count == 2 else {
      throw SimulationError(
        "'\(text)': response '\(name)' carries one of its errors; write \(name)=NAME, NAME one of: "
          + names.joined(separator: ", "))
    }
    guard let carried = responseClass.carried(parts[1]) else {
      throw SimulationError(
        "'\(text)': response '\(name)' does not carry '\(parts[1])'\(Self.hint(parts[1], names)); it carries: "
          + names.joined(separator: ", "))
    }
    response = name
    return carried
  }

  /// `record` with the carried error as the exception, reported by the platform's name for it.
  private func reported(_ carried: ResponseClass.CarriedError, instead record: CallRecord) -> CallRecord {
    let shown: String
    if case .error(let name)? = carried.platforms.form(on: platform) { shown = name } else { shown = carried.exception }
    return CallRecord(
      call: record.call, response: record.response + "=" + carried.exception, kind: record.kind,
      stepID: record.stepID, step: record.step, error: record.kind == .restart || record.kind == .error ? shown : nil,
      reason: record.reason, exception: carried.exception)
  }

  /// Whether the next plain `RESPONSE` answers `signIn`.
  public var flowIsOver: Bool {
    guard let simulator, let step = simulator.step else { return true }
    return model.steps[step].isTerminal
  }

  /// The model id of the step the next call answers.
  public var currentStepID: String { simulator.flatMap { flowIsOver ? nil : $0.stepID } ?? model.steps[0].id }

  private func startFlow() throws(SimulationError) -> ModelSimulator {
    do {
      return try ModelSimulator(model: model, configuration: configuration, recordsTrace: false)
    } catch {
      throw SimulationError(error.description)
    }
  }

  private func describe(_ error: ModelSimulator.Failure, response: String, at step: Int) -> SimulationError {
    let accepted = model.steps[step].responses.map { model.responses[$0.response].name }
    let name = step == 0 ? "signIn" : "step '\(model.steps[step].id)'"
    switch error {
    case .unknownResponse, .responseNotAccepted:
      let known = model.responses.contains { $0.name == response }
      return SimulationError(
        (known ? "\(name) does not accept '\(response)'" : "unknown response '\(response)'")
          + Self.hint(response, accepted) + "; \(name) accepts: " + accepted.joined(separator: ", "))
    default:
      return SimulationError(error.description)
    }
  }

  /// The index of a step the simulator named (it names only the model's steps).
  private func stepIndex(_ id: String) -> Int {
    guard let s = model.stepIndex(named: id) else {
      preconditionFailure("the simulator named no step of the model: \(id)")
    }
    return s
  }

  private func record(_ outcome: TraceOutcome, call: String, response: String, _ names: ReportedError) -> CallRecord {
    let exception = names.exception
    switch outcome {
    case .error(let name, let stays):
      let s = stepIndex(stays)
      return CallRecord(
        call: call, response: response, kind: .error, stepID: stays, step: platformName(s), error: name, reason: nil,
        exception: exception)
    case .restart(let reason):
      return CallRecord(
        call: call, response: response, kind: .restart, stepID: nil, step: nil,
        error: exception ?? Self.exceptionName(reason), reason: reason, exception: exception)
    case .step(let id):
      let s = stepIndex(id)
      if case .error(let thrown)? = model.steps[s].names.first(where: { $0.platform == platform })?.form {
        return CallRecord(
          call: call, response: response, kind: .error, stepID: id, step: nil, error: thrown, reason: nil,
          exception: exception)
      }
      let kind: CallRecord.Kind = model.steps[s].kind == .signedIn ? .done : .step
      return CallRecord(
        call: call, response: response, kind: kind, stepID: id, step: platformName(s), error: nil, reason: nil,
        exception: exception)
    case .undetermined(let place):
      // Only counterexamples carry it; `ModelSimulator` throws `notDeterministic` instead.
      return CallRecord(
        call: call, response: response, kind: .restart, stepID: nil, step: nil, error: nil, reason: place)
    }
  }

  /// The platform's name of step `index`: nil when it throws or lacks the step, the id when
  /// the model gives the platform no name.
  private func platformName(_ index: Int) -> String? {
    guard let name = model.steps[index].names.first(where: { $0.platform == platform }) else {
      return model.steps[index].id
    }
    if case .name(let n) = name.form { return n }
    return nil
  }

  /// `NotAuthorizedException` in `NotAuthorizedException: reason`; nil when the reason names none.
  static func exceptionName(_ reason: String) -> String? {
    guard let colon = reason.firstIndex(of: ":") else { return nil }
    let name = reason[..<colon]
    guard !name.isEmpty, !name.contains(" ") else { return nil }
    return String(name)
  }

  static func hint(_ name: String, _ candidates: [String]) -> String {
    Suggestions.closest(to: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }
}
