import Foundation

/// Extra values a step carries (challenge parameters), as in Amplify Swift.
public typealias AdditionalInfo = [String: String]

/// An MFA type, with Cognito's wire value as raw value.
public enum MFAType: String, Sendable, Hashable, CaseIterable {
  case sms = "SMS_MFA"
  case totp = "SOFTWARE_TOKEN_MFA"
  case email = "EMAIL_OTP"

  /// The value to pass to `confirmSignIn` to choose this type.
  public var challengeResponse: String { rawValue }

  /// Parses Cognito's value or the JS-style short name (SMS, TOTP, EMAIL), case-insensitively.
  public init?(answer: String) {
    switch answer.uppercased() {
    case "SMS_MFA", "SMS": self = .sms
    case "SOFTWARE_TOKEN_MFA", "TOTP": self = .totp
    case "EMAIL_OTP", "EMAIL": self = .email
    default: return nil
    }
  }
}

/// A first factor of choice-based sign-in (USER_AUTH), with Cognito's wire value.
public enum AuthFactorType: String, Sendable, Hashable, CaseIterable {
  case password = "PASSWORD"
  case passwordSRP = "PASSWORD_SRP"
  case smsOTP = "SMS_OTP"
  case emailOTP = "EMAIL_OTP"
  case webAuthn = "WEB_AUTHN"

  public var challengeResponse: String { rawValue }
}

/// Where a code was sent.
public struct AuthCodeDeliveryDetails: Sendable, Equatable {
  public enum Medium: String, Sendable {
    case sms = "SMS"
    case email = "EMAIL"
    case unknown = "UNKNOWN"
  }
  public let destination: String
  public let medium: Medium

  public init(destination: String, medium: Medium) {
    self.destination = destination
    self.medium = medium
  }
}

/// What the user needs to add a TOTP authenticator.
public struct TOTPSetupDetails: Sendable, Equatable {
  public let sharedSecret: String
  public let username: String

  public init(sharedSecret: String, username: String) {
    self.sharedSecret = sharedSecret
    self.username = username
  }

  /// An `otpauth://totp/…` URI that authenticator apps and password managers accept.
  public func getSetupURI(appName: String) throws -> URL {
    let label = "\(appName):\(username)".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? username
    let issuer = appName.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? appName
    guard let url = URL(string: "otpauth://totp/\(label)?secret=\(sharedSecret)&issuer=\(issuer)") else {
      throw AuthError.validation("cannot make a setup URI for the app name \(appName)")
    }
    return url
  }
}

/// The next step of a sign-in, with the 2026 Amplify Swift cases.
public enum AuthSignInStep: Sendable, Equatable {
  case confirmSignInWithSMSMFACode(AuthCodeDeliveryDetails, AdditionalInfo?)
  case confirmSignInWithCustomChallenge(AdditionalInfo?)
  case confirmSignInWithNewPassword(AdditionalInfo?)
  case confirmSignInWithPassword
  case confirmSignInWithTOTPCode
  case continueSignInWithTOTPSetup(TOTPSetupDetails)
  case continueSignInWithMFASelection(Set<MFAType>)
  case continueSignInWithEmailMFASetup
  case continueSignInWithMFASetupSelection(Set<MFAType>)
  case confirmSignInWithOTP(AuthCodeDeliveryDetails)
  case continueSignInWithFirstFactorSelection(Set<AuthFactorType>)
  case resetPassword(AdditionalInfo?)
  case confirmSignUp(AdditionalInfo?)
  case done

  /// Every case's `name`, in declaration order.
  public static let caseNames = [
    "confirmSignInWithSMSMFACode", "confirmSignInWithCustomChallenge", "confirmSignInWithNewPassword",
    "confirmSignInWithPassword", "confirmSignInWithTOTPCode", "continueSignInWithTOTPSetup",
    "continueSignInWithMFASelection", "continueSignInWithEmailMFASetup", "continueSignInWithMFASetupSelection",
    "confirmSignInWithOTP", "continueSignInWithFirstFactorSelection", "resetPassword", "confirmSignUp", "done",
  ]

  /// The case name, as Amplify Swift spells it (and the models' `swift:` names).
  public var name: String {
    switch self {
    case .confirmSignInWithSMSMFACode: return "confirmSignInWithSMSMFACode"
    case .confirmSignInWithCustomChallenge: return "confirmSignInWithCustomChallenge"
    case .confirmSignInWithNewPassword: return "confirmSignInWithNewPassword"
    case .confirmSignInWithPassword: return "confirmSignInWithPassword"
    case .confirmSignInWithTOTPCode: return "confirmSignInWithTOTPCode"
    case .continueSignInWithTOTPSetup: return "continueSignInWithTOTPSetup"
    case .continueSignInWithMFASelection: return "continueSignInWithMFASelection"
    case .continueSignInWithEmailMFASetup: return "continueSignInWithEmailMFASetup"
    case .continueSignInWithMFASetupSelection: return "continueSignInWithMFASetupSelection"
    case .confirmSignInWithOTP: return "confirmSignInWithOTP"
    case .continueSignInWithFirstFactorSelection: return "continueSignInWithFirstFactorSelection"
    case .resetPassword: return "resetPassword"
    case .confirmSignUp: return "confirmSignUp"
    case .done: return "done"
    }
  }
}

/// The result of `signIn` and `confirmSignIn`: the next step, and whether the user is now
/// signed in, as Amplify's `AuthSignInResult` reports both (a caller reads `isSignedIn` from
/// the result, not from the client).
public struct AuthSignInResult: Sendable, Equatable {
  public let nextStep: AuthSignInStep
  public let isSignedIn: Bool

  /// `isSignedIn` defaults to whether `nextStep` is `.done`.
  public init(nextStep: AuthSignInStep, isSignedIn: Bool? = nil) {
    self.nextStep = nextStep
    self.isSignedIn = isSignedIn ?? (nextStep == .done)
  }
}

/// The auth flow `signIn` uses.
public enum AuthFlowType: Sendable, Equatable {
  case userSRP
  case userPassword
  case customWithSRP
  case customWithoutSRP
  case userAuth(preferredFirstFactor: AuthFactorType?)
}

/// Options of `signIn`.
public struct SignInOptions: Sendable {
  public var authFlow: AuthFlowType
  public init(authFlow: AuthFlowType = .userSRP) { self.authFlow = authFlow }
}
