import SignInModel

/// What each built-in property needs the model to declare before it can fail. A property whose
/// facts are missing is NOT CHECKED, never "holds": a check that cannot fail must not look like
/// a check that passed. A model acknowledges a property it means to leave unchecked in its
/// `lint:` section (rule `notChecked`, the property as target, a reason).
extension Invariant {
  /// Why `doneReachable` holds only vacuously when `canSignIn` excludes every configuration.
  public static let nobodyCanSignIn = "canSignIn holds for no configuration the constraints allow"

  /// The lint rule that acknowledges a NOT CHECKED verdict.
  public static let notCheckedRule = "notChecked"

  /// Why `model` cannot be checked against this built-in property, in the model's terms
  /// ("the model declares no failedAttempts:"); nil when it can (and for model properties).
  public func missingFacts(in model: SignInModel) -> String? {
    switch self {
    case .boundedFailures:
      return model.failedAttempts == nil ? "the model declares no failedAttempts: (the counter and its limit)" : nil
    case .preferredMFAHonoured:
      guard let preference = model.preference(for: .mfa) else {
        return "the model declares no preferences: entry with role: mfa"
      }
      if model.mfaRequirement == nil {
        return "the model states no MFA requirement (policy: mfa: required:, or the definition mfaRequired)"
      }
      if !preference.values.contains(where: { model.availability(of: $0.factor) != nil }) {
        return "factors: declares none of the factors the MFA preference names"
      }
      return nil
    case .challengesUsableFactor:
      if model.factors.isEmpty { return "the model declares no factors: (when each factor is usable)" }
      let checked = model.steps.indices.contains { s in
        let facts = model.steps[s].facts
        return facts.factor != nil && (facts.action == nil || facts.action == .challenge || facts.action == .setup)
          && model.factorCondition(ofStep: s) != nil
      }
      return checked ? nil : "no challenge or setup step declares a factor: that factors: describes"
    case .noFactorSkipped:
      guard model.mfaRequirement == nil, model.verifiesMFA else { return nil }
      return "the model verifies an MFA factor (verifies: mfa) but states no MFA requirement "
        + "(policy: mfa: required:, or the definition mfaRequired); only the first factor could be checked"
    default:
      return nil
    }
  }

  /// The NOT CHECKED verdict for this property on `model`, if its facts are missing.
  public func notChecked(in model: SignInModel) -> Verdict? {
    guard let reason = missingFacts(in: model) else { return nil }
    return .notChecked(reason: reason, acknowledged: acknowledgement(in: model))
  }

  /// The reason the model's `lint:` section gives for leaving this property unchecked.
  public func acknowledgement(in model: SignInModel) -> String? {
    model.lintAcknowledgements.first { $0.rule == Self.notCheckedRule && $0.target == rawValue }?.reason
  }
}

extension SignInModel {
  /// Whether some rule verifies an MFA factor (`verifies: mfa`).
  public var verifiesMFA: Bool {
    let flag = builtins.mfaVerified
    let rules = steps.flatMap { $0.responses.flatMap(\.rules) } + routes.flatMap(\.rules)
    return rules.contains { rule in rule.effects.contains { $0.variable == flag } }
  }
}
