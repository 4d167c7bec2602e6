import SignInModel

/// The model's rules flattened into guarded branches over the pre-state: each branch is a
/// step rule followed by the route rules it leads to, with guards and effects composed by
/// substitution. Symbolic engines read this; it says the same as `SignInModel.resolve`.
public struct TransitionSystem: Sendable {
  /// One way to leave a step on one response.
  public struct Branch: Sendable {
    public let step: Int
    public let response: Int
    /// Conjunction of every rule guard on the way, over the pre-state.
    public let guardExpr: Expr
    /// The new value of each flow variable the branch changes, over the pre-state.
    public let effects: [Int: Expr]
    /// `.step`, `.error` or `.restart` (never `.route`).
    public let outcome: Outcome
    public let failsAuthentication: Bool
    public let ruleLines: [Int]

    /// The step the flow is on afterwards, or nil after a restart.
    public var target: Int? {
      switch outcome {
      case .step(let s): return s
      case .error: return step
      case .restart, .route: return nil
      }
    }
  }

  /// A place where, under `condition`, zero or several rules match.
  public struct Ambiguity: Sendable {
    public let step: Int
    public let response: Int
    public let place: String
    public let condition: Expr
  }

  public let model: SignInModel
  public private(set) var branches: [Branch] = []
  public private(set) var ambiguities: [Ambiguity] = []

  public init(model: SignInModel) {
    self.model = model
    for (s, step) in model.steps.enumerated() where !step.isTerminal {
      for stepResponse in step.responses {
        let name = model.responses[stepResponse.response].name
        flatten(
          stepResponse.rules, step: s, response: stepResponse.response,
          place: "response '\(name)' at step '\(step.id)'", prefix: [], effects: [:], failsAuthentication: false,
          lines: [])
      }
    }
  }

  private mutating func flatten(
    _ rules: [Rule], step: Int, response: Int, place: String, prefix: [Expr], effects: [Int: Expr],
    failsAuthentication: Bool, lines: [Int]
  ) {
    let guards = rules.map { $0.guardExpr.substituting(effects) }
    var none: [Expr] = guards.map { .not($0) }
    if none.isEmpty { none = [.true] }
    var several: [Expr] = []
    for i in guards.indices { for j in guards.indices where j > i { several.append(.and([guards[i], guards[j]])) } }
    ambiguities.append(Ambiguity(
      step: step, response: response, place: place,
      condition: .and(prefix + [.or([.and(none)] + several)])))
    for (rule, guardExpr) in zip(rules, guards) {
      var next = effects
      for (variable, value) in rule.effects { next[variable] = value.substituting(effects) }
      let conditions = prefix + [guardExpr]
      let fails = failsAuthentication || rule.failsAuthentication
      if case .route(let r) = rule.outcome {
        flatten(
          model.routes[r].rules, step: step, response: response, place: "route '\(model.routes[r].name)'",
          prefix: conditions, effects: next, failsAuthentication: fails, lines: lines + [rule.line])
      } else {
        branches.append(Branch(
          step: step, response: response, guardExpr: .and(conditions), effects: next, outcome: rule.outcome,
          failsAuthentication: fails, ruleLines: lines + [rule.line]))
      }
    }
  }
}
