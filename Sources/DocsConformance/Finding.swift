/// What kind of disagreement a finding is; the same words go in a note's `kind:`.
public enum FindingKind: String, Sendable, CaseIterable, Codable {
  /// A step name that is not the model's name for that platform.
  case unknownName = "unknown-name"
  /// A condition a page treats as a step where the model (or another page) has an exception, or back.
  case stepOrException = "step-or-exception"
  /// A sample's expected next step that the model never produces from that step with that answer.
  case unexpectedNextStep = "unexpected-next-step"
  /// A sample's expected next step whose name denotes several different steps on the platform.
  case ambiguousName = "ambiguous-name"
  /// A listed set (MFA types, first factors) that differs from what the model offers.
  case setDiffers = "set-differs"
  /// The same API called with different names on two pages of the same platform.
  case apiNameDiffers = "api-name-differs"
  /// A next-step table description that contradicts the step.
  case descriptionContradicts = "description-contradicts"
  /// A next-step table that leaves out a step the model has on that platform.
  case stepNotListed = "step-not-listed"
  /// A section whose heading is about one step while its text names another.
  case headingMismatch = "heading-mismatch"
  /// A code sample that answers a selection and then tests for a step the model never goes to from there.
  case sampleUnexpectedNextStep = "sample-unexpected-next-step"
  /// A code sample that answers a step and then tests an earlier result instead of the answer's.
  case sampleStaleResult = "sample-stale-result"
  /// A code sample that catches an exception which a table or prose of its platform (or the model) lists as a step.
  case sampleCatchesStep = "sample-catches-step"
  /// A set literal in a code sample that differs from what the model offers at its step.
  case sampleSetDiffers = "sample-set-differs"
  /// A code sample that reads or calls a name nothing on the page defines.
  case sampleUndefinedName = "sample-undefined-name"
  /// A Dart switch arm with no statement, which falls into the next arm's body.
  case sampleArmFallsThrough = "sample-arm-falls-through"
}

/// One disagreement between a page and the model (or another page).
public struct Finding: Sendable {
  public let kind: FindingKind
  /// The page file and line.
  public let page: String
  public let line: Int
  public let platform: String?
  /// What the page says (the line's text, shortened).
  public let pageText: String
  /// The model file and line the comparison used, and what the model (or other page) says.
  public let modelFile: String
  public let modelLine: Int
  public let modelText: String
  /// A one-line explanation, with the suggestion where there is one.
  public let message: String
  /// The note that acknowledges it (model file:line), if one does.
  public var acknowledgedBy: String?

  public init(
    kind: FindingKind, page: String, line: Int, platform: String?, pageText: String, modelFile: String,
    modelLine: Int, modelText: String, message: String
  ) {
    self.kind = kind
    self.page = page
    self.line = line
    self.platform = platform
    self.pageText = pageText.count > 160 ? String(pageText.prefix(157)) + "..." : pageText
    self.modelFile = modelFile
    self.modelLine = modelLine
    self.modelText = modelText
    self.message = message
  }
}
