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
}
