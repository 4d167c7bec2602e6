/// The security policy a model states apart from its rules (`policy:`, format 3): when `done`
/// needs an MFA factor, and the only ways to `done` without one where it does. It is written
/// over configuration and flow variables, never over the model's definitions, so a change to a
/// definition the rules read cannot move the rule and its judge together. `noFactorSkipped`
/// and `preferredMFAHonoured` judge against it (`SignInModel.mfaRequirement`).
public struct SecurityPolicy: Sendable {
  /// When `done` needs an MFA factor verified (`policy: mfa: required:`).
  public let mfaRequired: PolicyClause
  /// The legitimate ways to `done` without an MFA factor where `mfaRequired` holds
  /// (`policy: mfa: exemptions:`), each named, with its source.
  public let exemptions: [PolicyClause]

  /// When an MFA factor must have been verified on reaching `done`: required and no exemption applies.
  public let requirement: Expr

  public init(mfaRequired: PolicyClause, exemptions: [PolicyClause] = []) {
    self.mfaRequired = mfaRequired
    self.exemptions = exemptions
    requirement =
      exemptions.isEmpty ? mfaRequired.expr : .and([mfaRequired.expr, .not(.or(exemptions.map(\.expr)))])
  }
}

/// One condition of the policy, as written, with its source and line.
public struct PolicyClause: Sendable {
  /// `required` for the requirement, the exemption's key for an exemption.
  public let name: String
  public let expr: Expr
  public let text: String
  /// Where the condition comes from (a seed page, the reference, a client's code or test).
  public let source: String
  public let line: Int

  public init(name: String, expr: Expr, text: String, source: String, line: Int) {
    self.name = name
    self.expr = expr
    self.text = text
    self.source = source
    self.line = line
  }
}

extension SignInModel {
  /// When reaching `done` without an MFA factor breaks `noFactorSkipped`: the policy's
  /// requirement when the model states a policy, else the definition `mfaRequired` (which
  /// `signin-spec lint` flags when it shares a definition with the rules), else nil.
  public var mfaRequirement: Expr? { policy?.requirement ?? mfaRequired }

  /// Why MFA was required, for messages: "the policy requires one (mfa.required, file:line, holds
  /// and no exemption applies)", or "mfaRequired holds".
  public var mfaRequirementSource: String {
    guard let policy else { return "mfaRequired holds" }
    let name = file.split(separator: "/").last.map(String.init) ?? file
    return "the policy requires one (mfa.required at \(name):\(policy.mfaRequired.line) holds"
      + (policy.exemptions.isEmpty ? ")" : " and no exemption applies)")
  }
}
