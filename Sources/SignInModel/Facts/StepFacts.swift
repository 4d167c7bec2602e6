/// What a step does with a factor (`action:`).
public enum StepAction: String, CaseIterable, Sendable {
  /// The step asks the user to prove the factor (enter a code, a password, an answer).
  case challenge
  /// The step sets the factor up (associate an authenticator, give an email address).
  case setup
  /// The step lets the user pick one of several factors to prove (`offers:` with `choices:`).
  case select
  /// The step lets the user pick which factor to set up (`offers:` with `choices:`).
  case selectSetup

  /// Whether the step is a selection (it has `offers:` and `choices:`).
  public var isSelection: Bool { self == .select || self == .selectSetup }

  public static var spellings: [String] { allCases.map(\.rawValue) }
}

/// Details a step hands to the client beyond its name (`carries:`).
public enum StepDetail: String, CaseIterable, Sendable {
  /// Where the code was sent (CodeDeliveryDetails: medium and masked destination).
  case codeDeliveryDetails
  /// The TOTP shared secret (TOTPSetupDetails) to show or encode as a QR code.
  case sharedSecret
  /// The custom challenge's public parameters (additionalInfo).
  case challengeParameters
  /// The user attributes a new password must come with (NEW_PASSWORD_REQUIRED's requiredAttributes).
  case requiredAttributes

  public static var spellings: [String] { allCases.map(\.rawValue) }
}

/// The facts a step states about factors: which factor it challenges, sets up or selects,
/// where its code goes and what details it carries. All empty for steps without a factor
/// (`done`, `resetPassword`, `confirmSignUp`).
public struct StepFacts: Sendable {
  /// The factor challenged or set up (nil for a selection step and for steps without a factor).
  public let factor: Factor?
  public let action: StepAction?
  /// Where the step's code is delivered, if it sends one.
  public let delivery: Delivery?
  public let carries: [StepDetail]
  /// For a selection step: each option it can offer and the factor that option stands for.
  public let choices: [(option: String, factor: FactorRef)]
  /// The line of the step's `factor:` or `action:` key (0 when the step states no facts).
  public let line: Int

  public init(
    factor: Factor? = nil, action: StepAction? = nil, delivery: Delivery? = nil, carries: [StepDetail] = [],
    choices: [(option: String, factor: FactorRef)] = [], line: Int = 0
  ) {
    self.factor = factor
    self.action = action
    self.delivery = delivery
    self.carries = carries
    self.choices = choices
    self.line = line
  }

  /// The factor as `factors:` keys it: narrowed to the delivery when the step has one.
  public var factorRef: FactorRef? { factor.map { FactorRef($0, delivery: delivery) } }

  /// True when the step states nothing.
  public var isEmpty: Bool { factor == nil && action == nil && delivery == nil && carries.isEmpty && choices.isEmpty }
}
