/// When a factor is usable, and when it can be set up, in a configuration (`factors:`).
public struct FactorAvailability: Sendable {
  public let factor: FactorRef
  /// The configurations where the user can prove this factor now.
  public let usable: Expr
  public let usableText: String
  /// The configurations where the user can set this factor up during sign-in (nil: never).
  public let setUp: Expr?
  public let setUpText: String?
  public let line: Int

  public init(factor: FactorRef, usable: Expr, usableText: String, setUp: Expr?, setUpText: String?, line: Int) {
    self.factor = factor
    self.usable = usable
    self.usableText = usableText
    self.setUp = setUp
    self.setUpText = setUpText
    self.line = line
  }
}

/// What a preference variable's values mean (`preferences:`): the factor each value names.
/// Values not listed (e.g. `none`) state no preference.
public struct Preference: Sendable {
  /// Which decision the preference steers.
  public enum Role: String, CaseIterable, Sendable {
    /// The MFA type challenged after a password (`user.preferred`).
    case mfa
    /// The first factor under choice-based sign-in (`preferredFirstFactor`).
    case firstFactor
  }

  /// The configuration variable holding the preference.
  public let variable: Int
  public let role: Role
  /// Each listed domain value (stored form) and the factor it names.
  public let values: [(value: Int, factor: FactorRef)]
  public let line: Int

  public init(variable: Int, role: Role, values: [(value: Int, factor: FactorRef)], line: Int) {
    self.variable = variable
    self.role = role
    self.values = values
    self.line = line
  }

  /// The factor preferred in `valuation`, or nil when the value states no preference.
  public func preferredFactor(in valuation: [Int]) -> FactorRef? {
    values.first { $0.value == valuation[variable] }?.factor
  }
}

/// The failed-attempt event and the pool's limit on it (`failedAttempts:`).
///
/// A transition is a failed attempt when it answers one of `responses` and its outcome is an
/// error or a restart (a wrong code that moves on to another step is not counted). `counter`
/// is the flow variable that counts them; the `limit`-th failed attempt in one flow ends it.
public struct FailedAttempts: Sendable {
  public let counter: Int
  public let limit: Int
  public let responses: [Int]
  public let line: Int

  public init(counter: Int, limit: Int, responses: [Int], line: Int) {
    self.counter = counter
    self.limit = limit
    self.responses = responses
    self.line = line
  }

  /// Whether answering `response` with `outcome` counts as a failed attempt.
  public func counts(response: Int, outcome: Outcome) -> Bool {
    guard responses.contains(response) else { return false }
    switch outcome {
    case .error, .restart: return true
    case .step, .route: return false
    }
  }
}
