/// Reading the factor facts of a model: what properties and the fuzzer's oracle ask.
extension SignInModel {
  /// The `factors:` entry for `ref`: the one narrowed to its delivery if declared, else the factor's.
  public func availability(of ref: FactorRef) -> FactorAvailability? {
    factors.first { $0.factor == ref } ?? factors.first { $0.factor == FactorRef(ref.factor) }
  }

  /// When the factor step `index` challenges is usable (or, for a setup step, can be set up);
  /// nil when the step has no factor.
  public func factorCondition(ofStep index: Int) -> Expr? {
    let facts = steps[index].facts
    guard let ref = facts.factorRef, let availability = availability(of: ref) else { return nil }
    return facts.action == .setup ? availability.setUp ?? .false : availability.usable
  }

  /// The preference steering `role`, if the model declares one.
  public func preference(for role: Preference.Role) -> Preference? {
    preferences.first { $0.role == role }
  }
}
