import SignInClient

/// Bugs the client can be given through its `ClientHooks`, so the fuzzer's catalogue of
/// broken clients can show that `signin-spec fuzz` finds each kind. Only the CLI's
/// `--client` option and the tests use this module; the client itself knows nothing of it.
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

  /// The client's decisions with this bug in them.
  package var hooks: ClientHooks { Self.hooks(for: [self]) }

  /// The client's decisions with every bug in `bugs`.
  package static func hooks(for bugs: Set<DeliberateBug>) -> ClientHooks {
    var hooks = ClientHooks.reference
    hooks.staysOnStepAfterError = { error, onChallenge, reference in
      if bugs.contains(.retryRefusedAfterWrongCode), error == .codeMismatch { return false }
      if bugs.contains(.noRestartAfterFailAuthentication), case .notAuthorized = error, onChallenge { return true }
      if bugs.contains(.stuckOnUnknownChallenge), case .unknownChallenge = error, onChallenge { return true }
      return reference
    }
    hooks.presentedStep = { name, parameters, reference in
      if bugs.contains(.wrongStepMapping), name == "SOFTWARE_TOKEN_MFA" {
        let medium = AuthCodeDeliveryDetails.Medium(rawValue: parameters["CODE_DELIVERY_DELIVERY_MEDIUM"] ?? "")
        let delivery = AuthCodeDeliveryDetails(
          destination: parameters["CODE_DELIVERY_DESTINATION"] ?? "", medium: medium ?? .unknown)
        return .confirmSignInWithSMSMFACode(delivery, nil)
      }
      if bugs.contains(.offersUnusableType), name == "SELECT_MFA_TYPE" {
        return .continueSignInWithMFASelection(Set(MFAType.allCases))
      }
      return reference
    }
    hooks.keptSession = { received, current in
      bugs.contains(.sessionNotRefreshed) ? (current ?? received) : received
    }
    return hooks
  }
}
