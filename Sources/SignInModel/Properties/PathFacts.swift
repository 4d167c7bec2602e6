/// The path facts a property may read besides the model's variables. Each is a
/// pseudo-variable whose index lies just past the model's variables; its value is fixed by
/// where the state was reached from, so the engines substitute it by a constant per
/// transition and never store it:
/// - `step`: the step the flow is on (`restarted` after a restart),
/// - `last.response`: the response of the call that led here (`none` at signIn),
/// - `last.outcome`: `none` at signIn, else `step`, `error`, `restart` or `done`.
/// The factors verified so far are the flow's own `flow.firstFactorVerified` and
/// `flow.mfaVerified`, readable as `verified.firstFactor` and `verified.mfa`.
public enum PathFacts {
  public static let stepName = "step"
  public static let lastResponseName = "last.response"
  public static let lastOutcomeName = "last.outcome"
  /// The value of `step` after a restart.
  public static let restarted = "restarted"
  /// The value of `last.response` and `last.outcome` at signIn, before any call.
  public static let none = "none"
  /// The values of `last.outcome`, in index order.
  public static let outcomes = ["none", "step", "error", "restart", "done"]
  /// Aliases for the verification flags every model has.
  public static let verifiedAliases = [
    "verified.firstFactor": Builtins.names.firstFactor, "verified.mfa": Builtins.names.mfa,
  ]

  /// What `last.outcome` is after a call ending in `outcome`.
  public enum OutcomeValue: Int, Sendable {
    case none = 0, step, error, restart, done
  }

  /// Index of the `step` pseudo-variable for `model`.
  public static func stepIndex(_ model: SignInModel) -> Int { stepIndex(variableCount: model.variables.count) }
  public static func lastResponseIndex(_ model: SignInModel) -> Int { model.variables.count + 1 }
  public static func lastOutcomeIndex(_ model: SignInModel) -> Int { model.variables.count + 2 }
  static func stepIndex(variableCount: Int) -> Int { variableCount }

  /// The value of `step` meaning "after a restart" (one past the last step).
  public static func restartedValue(_ model: SignInModel) -> Int { model.steps.count }
  /// The value of `last.response` meaning "no call yet".
  public static func noResponseValue(_ model: SignInModel) -> Int { model.responses.count }

  /// The pseudo-variables, as declarations a type checker can resolve.
  static func variables(steps: [String], responses: [String]) -> [Variable] {
    [
      Variable(name: stepName, domain: .enumeration(steps + [restarted]), scope: .flow),
      Variable(name: lastResponseName, domain: .enumeration(responses + [none]), scope: .flow),
      Variable(name: lastOutcomeName, domain: .enumeration(outcomes), scope: .flow),
    ]
  }

  /// Substitution of the path facts by their values in one place.
  public static func values(_ model: SignInModel, step: Int, response: Int, outcome: OutcomeValue) -> [Int: Expr] {
    [
      stepIndex(model): .constant(step), lastResponseIndex(model): .constant(response),
      lastOutcomeIndex(model): .constant(outcome.rawValue),
    ]
  }

  /// The path facts at signIn, before any call.
  public static func initialValues(_ model: SignInModel) -> [Int: Expr] {
    values(model, step: 0, response: noResponseValue(model), outcome: .none)
  }
}
