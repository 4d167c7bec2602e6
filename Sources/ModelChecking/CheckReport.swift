import SignInModel

/// The verdict on one invariant of one model.
public enum Verdict: Sendable, Equatable {
  case holds
  /// Holds, but only because what it talks about never happens (reported as a failure).
  case vacuous(reason: String)
  case violated(Counterexample)
  /// The model lacks the facts the property reads (`Invariant.missingFacts(in:)`): nothing was
  /// checked. A finding (exit 1) unless the model's `lint:` acknowledges it (`acknowledged`, the reason).
  case notChecked(reason: String, acknowledged: String?)

  /// True when the verdict does not fail the run: it holds, or it was not checked and the model says why.
  public var passed: Bool {
    switch self {
    case .holds: return true
    case .notChecked(_, let acknowledged): return acknowledged != nil
    case .vacuous, .violated: return false
    }
  }
}

/// An invariant with its verdict.
public struct InvariantResult: Sendable {
  public let invariant: Invariant
  public let verdict: Verdict
}

/// Sizes and time of one explicit check.
public struct CheckStatistics: Sendable, Equatable {
  /// Configuration classes explored (partial assignments under which the flow reads no other variable).
  public var configurationClasses = 0
  /// Concrete configurations they cover (constraints included).
  public var configurations: Double = 0
  /// Classes excluded because a constraint is false.
  public var excludedClasses = 0
  public var states = 0
  public var transitions = 0
  public var seconds = 0.0
  /// How many `indistinguishable` properties' self-compositions these figures count (each pair
  /// of runs a state of the product): only a check of nothing but such properties reports
  /// them; 0 is the model's own search.
  public var selfCompositions = 0

  /// These figures and `other`'s together (`selfCompositions` apart: its caller counts them).
  mutating func add(_ other: CheckStatistics) {
    configurationClasses += other.configurationClasses
    configurations += other.configurations
    excludedClasses += other.excludedClasses
    states += other.states
    transitions += other.transitions
    seconds += other.seconds
  }
}

/// Everything the explicit checker found on one model.
public struct CheckReport: Sendable {
  public let model: SignInModel
  public let statistics: CheckStatistics
  public let results: [InvariantResult]
  /// Set when the search stopped at a limit (`ExplicitLimits`): which one. A violation found is
  /// real; a verdict that holds is then not established.
  public var incomplete: String? = nil

  public var allHold: Bool { results.allSatisfy { $0.verdict.passed } }
}
