import SignInModel

/// The built-in properties that read the model's step facts (`factor:`, `action:`,
/// `choices:`, `factors:`, `preferences:`, `failedAttempts:`), each as an expression the
/// explicit search evaluates and Z3 translates, so both engines check the same condition.
///
/// A state condition is over the valuation at a step (configuration and flow); a branch
/// condition is over the pre-state of a branch and holds exactly when taking it breaks the
/// property. A model without the facts a property reads gets no condition (nothing to break).
public struct FactProperties: Sendable {
  public let model: SignInModel

  public init(model: SignInModel) { self.model = model }

  /// The properties with a state condition; the others have branch conditions.
  public static let stateProperties: Set<Invariant> = [.preferredMFAHonoured]
  /// Every property this type defines.
  public static let all: Set<Invariant> = [
    .boundedFailures, .preferredMFAHonoured, .challengesUsableFactor, .failedResponseNeverVerifies,
  ]

  /// When being at `step` breaks `invariant` (nil: never).
  public func stateCondition(_ invariant: Invariant, step: Int) -> Expr? {
    switch invariant {
    case .preferredMFAHonoured:
      guard let required = model.mfaRequirement, let preference = model.preference(for: .mfa),
        isMFAStep(step)
      else { return nil }
      let wrong: [Expr] = preference.values.compactMap { entry in
        guard !isChallenge(step, of: entry.factor), let usable = model.availability(of: entry.factor)?.usable
        else { return nil }
        return .and([.equal(.variable(preference.variable), .constant(entry.value)), usable])
      }
      return wrong.isEmpty ? nil : .and([required, .or(wrong)])
    default:
      return nil
    }
  }

  /// When taking `branch` breaks `invariant` (nil: never), over the branch's pre-state.
  public func branchCondition(_ invariant: Invariant, branch: TransitionSystem.Branch) -> Expr? {
    func post(_ variable: Int) -> Expr { branch.effects[variable] ?? .variable(variable) }
    switch invariant {
    case .challengesUsableFactor:
      // Entering a challenge or setup step: its factor must be usable (set-up-able), unless the
      // flow comes from setting up that very factor (a code to the address just given).
      guard case .step(let target) = branch.outcome, let condition = usableCondition(target) else { return nil }
      let source = model.steps[branch.step].facts
      if source.action == .setup, source.factor == model.steps[target].facts.factor { return nil }
      return .not(condition.substituting(branch.effects))
    case .boundedFailures:
      guard let attempts = model.failedAttempts else { return nil }
      let counter = Expr.variable(attempts.counter)
      let restarts: Bool
      if case .restart = branch.outcome { restarts = true } else { restarts = false }
      if restarts { return nil }
      // Within a flow the counter never goes down …
      var bad: [Expr] = [.less(post(attempts.counter), counter)]
      if attempts.counts(response: branch.response, outcome: branch.outcome) {
        // … a failed attempt the flow survives adds one, and only below the limit.
        bad.append(.less(post(attempts.counter), .add(counter, .constant(1))))
        bad.append(.lessOrEqual(.constant(attempts.limit), .add(counter, .constant(1))))
      }
      return .or(bad)
    case .failedResponseNeverVerifies:
      // An error keeps the flow; a restart counts when a failed response or the define trigger caused it.
      switch branch.outcome {
      case .error: break
      case .restart:
        let failed = model.failedAttempts?.responses.contains(branch.response) ?? false
        if !failed && !branch.failsAuthentication { return nil }
      case .step, .route: return nil
      }
      let flags = [model.builtins.firstFactorVerified, model.builtins.mfaVerified]
      return .or(
        flags.map { flag in
          .and([.equal(.variable(flag), .constant(0)), .notEqual(post(flag), .constant(0))])
        })
    default:
      return nil
    }
  }

  /// Why a branch breaks `invariant`, in the model's terms, given its pre- and post-state.
  public func explain(
    _ invariant: Invariant, branch: TransitionSystem.Branch, before: [Int], after: [Int]
  ) -> String {
    let response = model.responses[branch.response].name
    let at = "'\(response)' at step '\(model.steps[branch.step].id)'"
    switch invariant {
    case .boundedFailures:
      guard let attempts = model.failedAttempts else { return "" }
      let name = model.variables[attempts.counter].name
      let (old, new) = (before[attempts.counter], after[attempts.counter])
      if new < old { return "\(at) lowers \(name) from \(old) to \(new) without a new flow" }
      if old + 1 >= attempts.limit {
        return "\(at) is failed attempt \(old + 1) of the limit \(attempts.limit), yet the flow goes on"
      }
      return "\(at) is a failed attempt but \(name) goes from \(old) to \(new), not \(old + 1)"
    case .failedResponseNeverVerifies:
      let flags = [model.builtins.firstFactorVerified, model.builtins.mfaVerified].filter {
        before[$0] == 0 && after[$0] != 0
      }
      let names = flags.map { model.variables[$0].name }.joined(separator: " and ")
      return "\(at) ends in an error or a failed restart, yet sets \(names)"
    case .challengesUsableFactor:
      guard case .step(let target) = branch.outcome else { return "" }
      return explainUnusable(target)
    default:
      return ""
    }
  }

  /// Why being at `step` breaks `invariant`.
  public func explain(_ invariant: Invariant, step: Int) -> String {
    "MFA is required and the user's preferred type is usable, yet the flow is at step '\(model.steps[step].id)'"
  }

  /// The factor an option offered at selection step `step` stands for, and when the user can
  /// use it (set it up, at a setup selection): through the step's `choices:`, else through a
  /// preference whose values name the option. An option the step's `choices:` leaves out stands
  /// for no factor (never usable). Nil when the model maps the step's options to no factor.
  public func offeredFactor(step: Int, option name: String) -> (condition: Expr, description: String)? {
    let facts = model.steps[step].facts
    let setup = facts.action == .selectSetup
    let ref: FactorRef
    if !facts.choices.isEmpty {
      guard let choice = facts.choices.first(where: { $0.option == name }) else {
        return (.false, "\(name), which stands for no factor (the step's choices: does not name it)")
      }
      ref = choice.factor
    } else {
      let named = model.preferences.lazy.compactMap { preference -> FactorRef? in
        let domain = model.variables[preference.variable].domain
        return preference.values.first { domain.render($0.value) == name }?.factor
      }
      guard let found = named.first else { return nil }
      ref = found
    }
    guard let availability = model.availability(of: ref) else {
      return (.false, "\(name), the factor \(ref), which factors: does not describe")
    }
    if setup {
      return (
        availability.setUp ?? .false,
        "\(name), the factor \(ref), which cannot be set up here (setUp: \(availability.setUpText ?? "none"))"
      )
    }
    return (
      availability.usable,
      "\(name), the factor \(ref), which this user cannot use (\(availability.usableText) is false)"
    )
  }

  /// When the factor a challenge or setup step asks for is usable (set-up-able); nil for other steps.
  func usableCondition(_ step: Int) -> Expr? {
    let facts = model.steps[step].facts
    guard facts.factor != nil, facts.action == nil || facts.action == .challenge || facts.action == .setup
    else { return nil }
    return model.factorCondition(ofStep: step)
  }

  func explainUnusable(_ step: Int) -> String {
    let s = model.steps[step]
    let ref = s.facts.factorRef.map(\.description) ?? "?"
    let availability = s.facts.factorRef.flatMap { model.availability(of: $0) }
    if s.facts.action == .setup {
      return "step '\(s.id)' sets up \(ref), which cannot be set up here (\(availability?.setUpText ?? "no setUp"))"
    }
    return "step '\(s.id)' challenges \(ref), which this user cannot use (\(availability?.usableText ?? "?") is false)"
  }

  /// A step that challenges, sets up or selects an MFA factor.
  func isMFAStep(_ step: Int) -> Bool {
    let facts = model.steps[step].facts
    if let factor = facts.factor, factor.isMFA { return true }
    return facts.choices.contains { $0.factor.factor.isMFA }
  }

  /// Whether `step` is the challenge of `ref` (not its setup, not a selection).
  func isChallenge(_ step: Int, of ref: FactorRef) -> Bool {
    let facts = model.steps[step].facts
    return facts.factor == ref.factor && (facts.action == nil || facts.action == .challenge)
  }
}
