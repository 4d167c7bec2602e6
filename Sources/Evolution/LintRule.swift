/// The rules `Linter` reports, each with what it means (for SARIF's rule list and help texts).
public enum LintRule {
  /// Every rule id `Linter` can report, in docs/guide/evolution.md's order, with a one-line meaning.
  public static let all: [(id: String, meaning: String)] = [
    ("valueNeverCompared", "An enumeration value of a configuration variable that no guard compares."),
    ("optionNeverSelected", "An option that no response's offered(X) rule selects."),
    ("missingPlatformName", "A step without a name on one of the model's platforms."),
    ("stepNeverTargeted", "A step that is the goto: of no rule."),
    ("stepUnreachable", "A step that no configuration reaches."),
    ("responseAcceptedNowhere", "A response that no step accepts."),
    ("responseUnreachable", "A response accepted only at steps that no configuration reaches."),
    ("definitionUnused", "A definition that no guard, option, constraint or definition uses."),
    ("routeUnused", "A route that no rule names."),
    (
      "excludedConfigurations",
      "Configurations an exclusion (a constraint, a conjunct of canSignIn) alone keeps out although they "
        + "cannot reach done."
    ),
    ("notChecked", "A built-in property the model lacks the facts for (it is NOT CHECKED, never shown as holding)."),
    (
      "classLimit",
      "lint stopped at --max-classes configuration classes, so the checks that read every class were not made."
    ),
    (
      "policySharesDefinition",
      "A property (or noFactorSkipped through mfaRequired) reads a definition a rule's guard also reads: "
        + "the rule and its judge would move together."
    ),
  ]

  /// The meaning of `id`, or nil for a rule this list does not know.
  public static func meaning(_ id: String) -> String? { all.first { $0.id == id }?.meaning }
}
