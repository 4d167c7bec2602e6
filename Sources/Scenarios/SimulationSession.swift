import ModelChecking
import SignInModel

/// One user at one configuration making calls, the way `simulate` and scenario files read
/// them: `RESPONSE` answers the current step (at the start, and after a restart or the end of
/// a flow, it answers `signIn`); `ENTRY:RESPONSE` calls an entry point of the model.
///
/// The models do not yet say what a `signIn` in the middle of a flow does, so `signIn:RESPONSE`
/// starts a new flow from scratch (flow variables reset), as after a restart.
/// `confirmSignIn:RESPONSE` answers the current step explicitly.
public struct SimulationSession: Sendable {
  public let model: SignInModel
  public let platform: String
  /// Every configuration variable's value, as text: the given ones, then the defaults.
  public let configuration: [String: String]
  private var simulator: ModelSimulator?
  public private(set) var records: [CallRecord] = []

  public init(model: SignInModel, settings: [(name: String, value: String)], platform: String) throws(SimulationError) {
    guard model.platforms.contains(platform) else {
      throw SimulationError(
        "unknown platform '\(platform)'\(Self.hint(platform, model.platforms)); the model's platforms: "
          + model.platforms.joined(separator: ", "))
    }
    self.model = model
    self.platform = platform
    self.configuration = try ConfigurationResolver(model: model).resolve(settings)
  }

  /// The model's entry points (`signIn`) and `confirmSignIn`, which answers the current step.
  public var entryNames: [String] {
    model.steps.filter { $0.kind == .entry }.map(\.id) + ["confirmSignIn"]
  }

  /// Makes one call, written `RESPONSE` or `ENTRY:RESPONSE`, and records what it did.
  @discardableResult
  public mutating func call(_ text: String) throws(SimulationError) -> CallRecord {
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
    if entry == "confirmSignIn" && flowIsOver {
      throw SimulationError("'\(text)': no flow is in progress; the next call answers signIn")
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
    let record = self.record(outcome, call: before == 0 ? "signIn" : "confirmSignIn", response: response)
    records.append(record)
    return record
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
    guard let s = model.stepIndex(named: id) else { preconditionFailure("the simulator named no step of the model: \(id)") }
    return s
  }

  private func record(_ outcome: TraceOutcome, call: String, response: String) -> CallRecord {
    switch outcome {
    case .error(let name, let stays):
      let s = stepIndex(stays)
      return CallRecord(
        call: call, response: response, kind: .error, stepID: stays, step: platformName(s), error: name, reason: nil)
    case .restart(let reason):
      return CallRecord(
        call: call, response: response, kind: .restart, stepID: nil, step: nil, error: Self.exceptionName(reason),
        reason: reason)
    case .step(let id):
      let s = stepIndex(id)
      if case .error(let thrown)? = model.steps[s].names.first(where: { $0.platform == platform })?.form {
        return CallRecord(
          call: call, response: response, kind: .error, stepID: id, step: nil, error: thrown, reason: nil)
      }
      let kind: CallRecord.Kind = model.steps[s].kind == .signedIn ? .done : .step
      return CallRecord(
        call: call, response: response, kind: kind, stepID: id, step: platformName(s), error: nil, reason: nil)
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
