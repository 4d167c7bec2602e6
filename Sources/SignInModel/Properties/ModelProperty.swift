/// A property a model states in its `properties:` section (format 2): a name, one of five
/// temporal kinds, and state predicates over the model's variables and the path facts
/// (`PathFacts`). Both engines read it through `TransitionSystem.propertyChecks`.
public struct ModelProperty: Sendable {
  /// The temporal vocabulary.
  public enum Kind: String, Sendable, CaseIterable {
    /// The predicate holds in every reachable state.
    case always
    /// The predicate holds in no reachable state.
    case never
    /// Some path from signIn reaches a state where the predicate holds (non-vacuity).
    case reachable
    /// Every maximal path from signIn (to done, a restart, a dead end, or forever) reaches it.
    case eventually
    /// After a state where `from` holds, every maximal path reaches `to`.
    case leadsTo
    /// Two runs whose configurations `relation` relates, given related responses call by
    /// call, show the same observations (a hyperproperty; format 3).
    case indistinguishable
  }

  /// The built-in invariants' names (ModelChecking's `Invariant.builtins`), which no model property may take.
  public static let builtinNames = [
    "terminates", "failAuthenticationRestarts", "noFactorSkipped", "offersAreUsable", "deterministic",
    "isSignedInIffDone", "staysInDomain", "stepsReachable", "doneReachable", "boundedFailures",
    "preferredMFAHonoured", "challengesUsableFactor", "failedResponseNeverVerifies",
  ]

  public let name: String
  public let kind: Kind
  public let description: String
  /// The line of the property's name in the model file.
  public let line: Int
  /// The state predicate; for `leadsTo`, its `from`.
  public let predicate: Expr
  public let predicateText: String
  /// `leadsTo`'s `to`.
  public let target: Expr?
  public let targetText: String?
  /// `indistinguishable`'s two runs and their inputs.
  public let relation: Indistinguishability?

  public init(
    name: String, kind: Kind, description: String, line: Int, predicate: Expr, predicateText: String,
    target: Expr? = nil, targetText: String? = nil, relation: Indistinguishability? = nil
  ) {
    self.name = name
    self.kind = kind
    self.description = description
    self.line = line
    self.predicate = predicate
    self.predicateText = predicateText
    self.target = target
    self.targetText = targetText
    self.relation = relation
  }

  /// What the property says, as written: `never: EXPR`, `leadsTo: A ~> B`.
  public var statement: String {
    switch kind {
    case .leadsTo: return "leadsTo: \(predicateText) ~> \(targetText ?? "")"
    case .indistinguishable: return "indistinguishable: \(predicateText)"
    default: return "\(kind.rawValue): \(predicateText)"
    }
  }
}
