import SignInModel

/// One configuration variable's value in a counterexample; `nil` means any value
/// (the flow never reads it, so every value behaves the same).
public struct Assignment: Sendable, Codable, Equatable {
  public let variable: String
  public let value: String?

  public init(variable: String, value: String?) {
    self.variable = variable
    self.value = value
  }
}

/// One call in a counterexample trace and what it produced.
public struct TraceStep: Sendable, Codable, Equatable {
  /// `signIn` or `confirmSignIn`.
  public let call: String
  /// The response class the user or the server produced.
  public let response: String
  /// The step the flow was on before the call (model id).
  public let stepBefore: String
  /// What the call produced.
  public let outcome: TraceOutcome
  /// Flow variables the call changed, as "name": "old -> new".
  public let changes: [String: String]
  /// Lines of the model rules that decided the outcome (step rule, then route rules).
  public let ruleLines: [Int]
  /// The exception behind the outcome and what each platform reports, once filled in from
  /// the model (`Counterexample.reported(in:)`); nil in traces not yet filled in.
  public var reported: ReportedError?

  public init(
    call: String, response: String, stepBefore: String, outcome: TraceOutcome, changes: [String: String],
    ruleLines: [Int]
  ) {
    self.call = call
    self.response = response
    self.stepBefore = stepBefore
    self.outcome = outcome
    self.changes = changes
    self.ruleLines = ruleLines
  }

  private enum CodingKeys: String, CodingKey {
    case call, response, stepBefore, outcome, changes, ruleLines, exception, error, platformErrors
  }

  /// JSON: `exception` and `error` (the model's names) are always written, null where the
  /// outcome names none; `platformErrors` holds what platforms report instead.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(call, forKey: .call)
    try c.encode(response, forKey: .response)
    try c.encode(stepBefore, forKey: .stepBefore)
    try c.encode(outcome, forKey: .outcome)
    try c.encode(changes, forKey: .changes)
    try c.encode(ruleLines, forKey: .ruleLines)
    try c.encode(reported?.exception, forKey: .exception)
    try c.encode(reported?.error, forKey: .error)
    try c.encode(reported?.platforms ?? [:], forKey: .platformErrors)
  }

  /// Reads traces written before `exception` and `error` existed, too.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    call = try c.decode(String.self, forKey: .call)
    response = try c.decode(String.self, forKey: .response)
    stepBefore = try c.decode(String.self, forKey: .stepBefore)
    outcome = try c.decode(TraceOutcome.self, forKey: .outcome)
    changes = try c.decode([String: String].self, forKey: .changes)
    ruleLines = try c.decode([Int].self, forKey: .ruleLines)
    let exception = try c.decodeIfPresent(String.self, forKey: .exception)
    let error = try c.decodeIfPresent(String.self, forKey: .error)
    let platforms = try c.decodeIfPresent([String: String?].self, forKey: .platformErrors)
    if exception != nil || error != nil || platforms != nil {
      reported = ReportedError(exception: exception, error: error, platforms: platforms ?? [:])
    }
  }
}

/// The result of one call: a step, a retryable error on the same step, or a restart; or, as
/// the last call of a route-level finding (`deterministic`, a dead end), no single outcome:
/// `undetermined` says where zero or several rules match ("route 'x': rules at lines 4, 9 all match").
public enum TraceOutcome: Sendable, Codable, Equatable {
  case step(String)
  case error(String, stays: String)
  case restart(String)
  case undetermined(String)
}

/// A concrete, shortest path that breaks an invariant.
public struct Counterexample: Sendable, Codable, Equatable {
  public let invariant: Invariant
  /// What exactly goes wrong, in one sentence.
  public let message: String
  public let configuration: [Assignment]
  public let steps: [TraceStep]
  /// For a cycle: the index in `steps` where the repeating part begins.
  public let loopStartsAt: Int?
  /// For an `indistinguishable` property: the right run, call by call beside `steps` (the left
  /// run); configuration variables the runs do not share are named `left.X` and `right.X`.
  public let pairedSteps: [TraceStep]?

  public init(
    invariant: Invariant, message: String, configuration: [Assignment], steps: [TraceStep], loopStartsAt: Int?,
    pairedSteps: [TraceStep]? = nil
  ) {
    self.invariant = invariant
    self.message = message
    self.configuration = configuration
    self.steps = steps
    self.loopStartsAt = loopStartsAt
    self.pairedSteps = pairedSteps
  }

  /// Number of calls in the trace.
  public var length: Int { steps.count }

  /// The trace with each call's exception and platform errors filled in from `model`.
  public func reported(in model: SignInModel) -> Counterexample {
    func fill(_ steps: [TraceStep]) -> [TraceStep] {
      steps.map { step in
        var step = step
        if step.reported == nil { step.reported = model.reported(step.outcome, ruleLines: step.ruleLines) }
        return step
      }
    }
    return Counterexample(
      invariant: invariant, message: message, configuration: configuration, steps: fill(steps),
      loopStartsAt: loopStartsAt, pairedSteps: pairedSteps.map(fill))
  }
}
