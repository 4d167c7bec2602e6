import CognitoWire
import SignInClient

/// Bugs the client can be given through its `ClientHooks`, so the fuzzer's catalogue of
/// broken clients can show that `signin-spec fuzz` finds each kind. Only the CLI's
/// `--client` option, the benchmarks and the tests use this module; the client itself knows
/// nothing of it. `shortest` is the length of the shortest case that shows each.
package enum DeliberateBug: String, Sendable, CaseIterable {
  /// SOFTWARE_TOKEN_MFA is reported as the SMS code step.
  case wrongStepMapping
  /// A new session from Cognito is ignored; the first one is re-sent.
  case sessionNotRefreshed
  /// A wrong code ends the flow instead of allowing a retry.
  case retryRefusedAfterWrongCode
  /// After NotAuthorized the client stays on the step (the sticky error state of C.6).
  case noRestartAfterFailAuthentication
  /// The MFA selection step offers every MFA type, usable or not.
  case offersUnusableType
  /// An unknown challenge leaves the client on its previous step instead of ending the flow.
  case stuckOnUnknownChallenge
  /// The SMS code step says the code went by email.
  case wrongDeliveryMedium
  /// A one-time code step shows the phone's masked number whatever the destination.
  case wrongMaskedDestination
  /// The custom challenge's parameters are dropped.
  case droppedChallengeParameters
  /// The TOTP setup shows only the first 8 characters of the shared secret.
  case truncatedTOTPSecret
  /// `isSignedIn` is true while a code is awaited (the first factor passed).
  case signedInOnChallenge
  /// The result of a call that returns a code step says `isSignedIn` (the client's own
  /// `isSignedIn` stays right: only a caller that reads the result is misled).
  case resultSignedInOnChallenge
  /// `signOut` leaves a signed-in user signed in.
  case userKeptAfterSignOut
  /// NotAuthorizedException is reported as UserNotFoundException.
  case wrongErrorType
  /// Cognito's message is shown as received, request echo and all (no redaction).
  case secretInErrorText
  /// The client ends the flow itself at the fourth failed attempt, one before the lockout.
  case lockoutOneEarly
  /// The first answer of a new flow is sent with the last session of the flow before.
  case staleSessionAfterRestart
  /// A failed `signIn` puts back the challenge that was in progress before it.
  case staleChallengeAfterFailedSignIn
  /// A network error ends the flow instead of letting the user retry.
  case networkFaultEndsFlow
  /// The MFA selection step never offers EMAIL.
  case mfaSelectionDropsEmail
  /// The first-factor selection always offers WEB_AUTHN.
  case firstFactorOffersWebAuthn
  /// The email MFA code step is reported as the SMS code step.
  case emailCodeAsSMSStep
  /// A fault on AssociateSoftwareToken, after Cognito took the answer, leaves the client on
  /// the step whose session Cognito used up (the second request of a call).
  case setupFaultKeepsStep
  /// A Cognito error the client has no step for (TooManyRequestsException, a 5xx, …) ends the flow.
  case serviceErrorEndsFlow

  /// The fewest calls that show the bug (the shrinker must come within one of it).
  package var shortest: Int {
    switch self {
    case .wrongStepMapping, .offersUnusableType, .wrongDeliveryMedium, .wrongMaskedDestination,
      .droppedChallengeParameters, .truncatedTOTPSecret, .signedInOnChallenge, .resultSignedInOnChallenge,
      .wrongErrorType, .secretInErrorText,
      .mfaSelectionDropsEmail, .firstFactorOffersWebAuthn, .emailCodeAsSMSStep:
      return 1
    case .retryRefusedAfterWrongCode, .noRestartAfterFailAuthentication, .stuckOnUnknownChallenge,
      .userKeptAfterSignOut, .staleChallengeAfterFailedSignIn, .networkFaultEndsFlow, .setupFaultKeepsStep,
      .serviceErrorEndsFlow:
      return 2
    case .sessionNotRefreshed, .staleSessionAfterRestart: return 3
    case .lockoutOneEarly: return 5
    }
  }

  /// The client's decisions with this bug in them.
  package var hooks: ClientHooks { Self.hooks(for: [self]) }

  /// The client's decisions with every bug in `bugs`.
  package static func hooks(for bugs: Set<DeliberateBug>) -> ClientHooks {
    var hooks = ClientHooks.reference
    hooks.staysOnStepAfterError = { error, onChallenge, reference in
      if bugs.contains(.retryRefusedAfterWrongCode), error == .codeMismatch { return false }
      if bugs.contains(.noRestartAfterFailAuthentication), case .notAuthorized = error, onChallenge { return true }
      if bugs.contains(.stuckOnUnknownChallenge), case .unknownChallenge = error, onChallenge { return true }
      if bugs.contains(.networkFaultEndsFlow), case .network = error { return false }
      if bugs.contains(.serviceErrorEndsFlow), case .service = error { return false }
      if bugs.contains(.serviceErrorEndsFlow), case .invalidServiceResponse = error { return false }
      return reference
    }
    hooks.presentedStep = { name, parameters, reference in presented(bugs, name, parameters, reference) }
    hooks.keptSession = { received, current, last in
      if bugs.contains(.sessionNotRefreshed), let current { return current }
      if bugs.contains(.staleSessionAfterRestart), current == nil, let last { return last }
      return received
    }
    hooks.reportedError = { received, reference in
      if bugs.contains(.wrongErrorType), case .notAuthorized = reference { return .userNotFound }
      if bugs.contains(.secretInErrorText), case .service(_, let message) = received, case .notAuthorized = reference {
        return .notAuthorized(message)
      }
      return reference
    }
    hooks.reportsSignedIn = { reference, step in
      if bugs.contains(.signedInOnChallenge) {
        switch step {
        case .confirmSignInWithSMSMFACode?, .confirmSignInWithTOTPCode?, .confirmSignInWithOTP?: return true
        default: break
        }
      }
      return reference
    }
    hooks.resultSignedIn = { reference, step in
      if bugs.contains(.resultSignedInOnChallenge) {
        switch step {
        case .confirmSignInWithSMSMFACode, .confirmSignInWithTOTPCode, .confirmSignInWithOTP: return true
        default: break
        }
      }
      return reference
    }
    hooks.endsFlowAfterFailures = { count in bugs.contains(.lockoutOneEarly) && count >= 4 }
    hooks.keepsFlowOnFailedSignIn = { _ in bugs.contains(.staleChallengeAfterFailedSignIn) }
    hooks.keepsUserOnSignOut = bugs.contains(.userKeptAfterSignOut)
    // Errors once Cognito took the answer: a failed AssociateSoftwareToken, an unknown challenge.
    hooks.staysAfterTakenAnswer = { error in
      if bugs.contains(.setupFaultKeepsStep), case .network = error { return true }
      if bugs.contains(.stuckOnUnknownChallenge), case .unknownChallenge = error { return true }
      return false
    }
    return hooks
  }

  /// The step the broken clients show for a challenge.
  static func presented(
    _ bugs: Set<DeliberateBug>, _ name: String, _ parameters: [String: String], _ reference: AuthSignInStep
  ) -> AuthSignInStep {
    let destination = parameters["CODE_DELIVERY_DESTINATION"] ?? ""
    let medium = AuthCodeDeliveryDetails.Medium(rawValue: parameters["CODE_DELIVERY_DELIVERY_MEDIUM"] ?? "") ?? .unknown
    if bugs.contains(.wrongStepMapping), name == "SOFTWARE_TOKEN_MFA" {
      return .confirmSignInWithSMSMFACode(AuthCodeDeliveryDetails(destination: destination, medium: medium), nil)
    }
    if bugs.contains(.emailCodeAsSMSStep), name == "EMAIL_OTP" {
      return .confirmSignInWithSMSMFACode(AuthCodeDeliveryDetails(destination: destination, medium: medium), nil)
    }
    if bugs.contains(.offersUnusableType), name == "SELECT_MFA_TYPE" {
      return .continueSignInWithMFASelection(Set(MFAType.allCases))
    }
    if bugs.contains(.mfaSelectionDropsEmail), case .continueSignInWithMFASelection(var types) = reference,
      types.contains(.email)
    {
      types.remove(.email)
      return .continueSignInWithMFASelection(types)
    }
    if bugs.contains(.firstFactorOffersWebAuthn), case .continueSignInWithFirstFactorSelection(var factors) = reference
    {
      factors.insert(.webAuthn)
      return .continueSignInWithFirstFactorSelection(factors)
    }
    switch reference {
    case .confirmSignInWithSMSMFACode(let d, let info) where bugs.contains(.wrongDeliveryMedium):
      return .confirmSignInWithSMSMFACode(AuthCodeDeliveryDetails(destination: d.destination, medium: .email), info)
    case .confirmSignInWithOTP(let d) where bugs.contains(.wrongMaskedDestination):
      return .confirmSignInWithOTP(AuthCodeDeliveryDetails(destination: "+1***0100", medium: d.medium))
    case .confirmSignInWithSMSMFACode(let d, let info) where bugs.contains(.wrongMaskedDestination):
      return .confirmSignInWithSMSMFACode(AuthCodeDeliveryDetails(destination: "u***@e***", medium: d.medium), info)
    case .confirmSignInWithCustomChallenge where bugs.contains(.droppedChallengeParameters):
      return .confirmSignInWithCustomChallenge(nil)
    case .continueSignInWithTOTPSetup(let details) where bugs.contains(.truncatedTOTPSecret):
      return .continueSignInWithTOTPSetup(
        TOTPSetupDetails(sharedSecret: String(details.sharedSecret.prefix(8)), username: details.username))
    default: return reference
    }
  }
}
