/// The response classes of the models that the harness knows how to give a client, by
/// their names in the model files. A model may name others; the harness then cannot give
/// them (see `Harness.supports`).
package enum ResponseName: String, Sendable, CaseIterable {
  case correctPassword, wrongPassword
  case correctCode, wrongCode
  case selectSMS, selectTOTP, selectEMAIL, selectUnknown
  case selectPASSWORD, selectPASSWORD_SRP, selectSMS_OTP, selectEMAIL_OTP, selectWEB_AUTHN
  case validEmail, invalidEmail
  case goodNewPassword, badNewPassword
  case correctAnswer, wrongAnswer, failingAnswer
  case networkFault, expiredSession
  /// Faults: a documented error no other class names, a 5xx, an unreadable body; and a fault
  /// on the request that prepares the next step once Cognito took the answer.
  case serviceError, setupFault
  /// AssociateSoftwareToken refused with a documented error once Cognito took the answer.
  case setupError
  case malformedCode, expiredCode, statusResetRequired, statusUnconfirmed
  /// Cognito answers with a challenge the client cannot know (a future enum value), or with
  /// DEVICE_SRP_AUTH the client did not ask for.
  case unknownChallenge, unexpectedDeviceChallenge

  /// Faults the harness injects into the pool before the call rather than answers it sends.
  package var isFault: Bool {
    [
      .networkFault, .expiredSession, .statusResetRequired, .statusUnconfirmed, .serviceError, .setupFault,
      .setupError, .unknownChallenge, .unexpectedDeviceChallenge,
    ].contains(self)
  }

  /// Faults the harness arms on the pool before the call, which must fire during it (else the
  /// case is refused as `faultNotReached`): the others change the pool's state outright.
  package static let firedDuringCall: Set<ResponseName> = [
    .networkFault, .serviceError, .setupFault, .setupError, .unknownChallenge, .unexpectedDeviceChallenge,
  ]

  /// Faults on AssociateSoftwareToken after Cognito took the answer: given only where the
  /// answer leads to the TOTP setup.
  package static let setupClasses: Set<ResponseName> = [.setupFault, .setupError]

  /// Faults that answer the call with what the pool would not send: they end the flow on
  /// every client, so the generator gives them less often than the others.
  package static let rare: Set<ResponseName> = [.unknownChallenge, .unexpectedDeviceChallenge, .setupError]

  /// Answers the client sends to Cognito, which counts them as failed attempts (the pool's
  /// lockout); the others a failing client refuses locally (ValidationError) and the pool
  /// never sees, so the generator does not run those up to the limit.
  package static let countedByPool: Set<ResponseName> = [.wrongCode, .badNewPassword, .wrongPassword]

  /// Responses the client cannot give here: passkeys (no platform authenticator).
  package static let unsupported: Set<ResponseName> = [.selectWEB_AUTHN]
}

/// Model step ids the harness treats specially.
package enum StepID {
  /// Selection steps whose answer the client handles locally: no fault can reach the pool.
  package static let localSelections: Set<String> = [
    "continueSignInWithFirstFactorSelection", "continueSignInWithMFASetupSelection",
  ]
  package static let mfaSelection = "continueSignInWithMFASelection"
  package static let emailMFASetup = "continueSignInWithEmailMFASetup"
  package static let newPassword = "confirmSignInWithNewPassword"
  package static let customChallenge = "confirmSignInWithCustomChallenge"
  package static let password = "confirmSignInWithPassword"
}
