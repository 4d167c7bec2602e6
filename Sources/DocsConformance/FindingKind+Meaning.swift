extension FindingKind {
  /// What a finding of this kind means, in one line (SARIF's rule list).
  public var meaning: String {
    switch self {
    case .unknownName: "A step name that is not the model's name for that platform."
    case .stepOrException: "A condition a page treats as a step where the model has an exception, or back."
    case .unexpectedNextStep: "A sample's next step that the model never produces from that step with that answer."
    case .ambiguousName: "A sample's next step whose name denotes several different steps on the platform."
    case .setDiffers: "A listed set (MFA types, first factors) that differs from what the model offers."
    case .apiNameDiffers: "The same API called with different names on two pages of the same platform."
    case .descriptionContradicts: "A next-step table description that contradicts the step."
    case .stepNotListed: "A next-step table that leaves out a step the model has on that platform."
    case .headingMismatch: "A section whose heading is about one step while its text names another."
    case .sampleUnexpectedNextStep:
      "A code sample that answers a selection and then expects a step the model never goes to from there."
    case .sampleStaleResult:
      "A code sample that answers a step and then tests an earlier result instead of the answer's."
    case .sampleCatchesStep:
      "A code sample that catches an exception which a table, prose or the model of its platform lists as a step."
    case .sampleSetDiffers: "A set literal in a code sample that differs from what the model offers at its step."
    case .sampleUndefinedName: "A code sample that reads or calls a name nothing on the page defines."
    case .sampleArmFallsThrough: "A Dart switch arm with no statement, which falls into the next arm's body."
    }
  }
}
