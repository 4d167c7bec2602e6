/// The closed vocabulary of factors a step can challenge, set up or let the user select
/// (`factor:` on a step, keys of `factors:`, values of `preferences:` and `choices:`).
public enum Factor: String, CaseIterable, Sendable, Hashable {
  /// The user's password (USER_SRP_AUTH, USER_PASSWORD_AUTH, PASSWORD/PASSWORD_SRP under USER_AUTH).
  case password
  /// A new password replacing a temporary one (NEW_PASSWORD_REQUIRED).
  case newPassword
  /// An MFA code sent by SMS (SMS_MFA).
  case sms
  /// An MFA code from an authenticator app (SOFTWARE_TOKEN_MFA).
  case totp
  /// An MFA code sent by email (EMAIL_OTP after a password).
  case email
  /// A passwordless one-time code as the first factor (SMS_OTP, EMAIL_OTP under USER_AUTH).
  case otp
  /// A passkey ceremony (WEB_AUTHN).
  case passkey
  /// A challenge of the custom auth triggers (CUSTOM_CHALLENGE).
  case custom

  /// The factors Cognito verifies as MFA, after a password first factor.
  public var isMFA: Bool { self == .sms || self == .totp || self == .email }

  /// Where this factor's code may be delivered (empty: it sends no code).
  public var deliveries: [Delivery] {
    switch self {
    case .sms: return [.sms]
    case .email: return [.email]
    case .otp: return [.sms, .email]
    default: return []
    }
  }

  /// The names a model may write.
  public static var spellings: [String] { allCases.map(\.rawValue) }
}

/// Where a one-time code is delivered (`delivery:` on a step).
public enum Delivery: String, CaseIterable, Sendable, Hashable {
  case sms
  case email

  public static var spellings: [String] { allCases.map(\.rawValue) }
}

/// A factor, optionally narrowed to one delivery: written `otp`, `otp.sms` or `otp.email`.
public struct FactorRef: Hashable, Sendable, CustomStringConvertible {
  public let factor: Factor
  public let delivery: Delivery?

  public init(_ factor: Factor, delivery: Delivery? = nil) {
    self.factor = factor
    self.delivery = delivery
  }

  /// Parses `FACTOR` or `FACTOR.DELIVERY`; nil when either part is not in the vocabulary.
  public init?(parsing text: String) {
    let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
    guard let factor = parts.first.flatMap(Factor.init(rawValue:)) else { return nil }
    var delivery: Delivery?
    if parts.count == 2 {
      guard let d = Delivery(rawValue: parts[1]) else { return nil }
      delivery = d
    }
    self.init(factor, delivery: delivery)
  }

  /// Every spelling a model may write, for suggestions.
  public static var spellings: [String] {
    Factor.spellings + Factor.spellings.flatMap { f in Delivery.spellings.map { "\(f).\($0)" } }
  }

  public var description: String { delivery.map { "\(factor.rawValue).\($0.rawValue)" } ?? factor.rawValue }
}
