/// Configurations whose behaviour changed for the same first cause, with a witness.
public struct BehaviourGroup: Sendable {
  /// The first differing transition: at `step`, on `response` (empty for added/removed groups).
  public let step: String
  /// The shared flow variables' values in that state.
  public let state: String
  public let response: String
  public let oldOutcomes: [String]
  public let newOutcomes: [String]
  /// Configurations (exact) and configuration classes in the group.
  public internal(set) var configurations: Double
  public internal(set) var classes: Int
  /// The witness class's fixed variables; every other variable may take any value.
  public let witness: [(name: String, value: String)]
  public let oldTrace: [TraceCall]?
  public let newTrace: [TraceCall]?
  /// For added or removed configurations: why they are (e.g. `user.status = passwordless`),
  /// and the steps they reach on the side they exist in.
  public let reason: String
  public internal(set) var reachedSteps: [String]
}

/// An old client of a platform stuck on NEW: a step name it does not know, an option it
/// cannot select, or a step it cannot leave with the responses it knows.
public struct CompatibilityFinding: Sendable {
  public enum Kind: String, Sendable { case unknownStep, unknownOption, unsendableResponses }
  public let platform: String
  public let kind: Kind
  /// The model id of the step in NEW and its name on the platform (or why it has none).
  public let step: String
  public let stepName: String
  /// The unknown option values, or the responses that lead on.
  public let values: [String]
  public internal(set) var configurations: Double
  public internal(set) var classes: Int
  public let witness: [(name: String, value: String)]
  public let trace: [TraceCall]
}
