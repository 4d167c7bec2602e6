import CognitoWire

/// A failure the simulated pool produces on one backend request instead of answering it:
/// what a client can meet on the wire besides Cognito's rules.
package enum SimulatedFault: String, Sendable, CaseIterable, Codable {
  /// The connection is reset: no answer.
  case transport
  /// No answer within the client's timeout.
  case timeout

  /// The error the backend throws for this fault.
  var error: CognitoCallError {
    switch self {
    case .transport: return .network("simulated network fault: connection reset by peer")
    case .timeout: return .network("no answer within 10 s")
    }
  }

  /// Cognito's documented errors of each operation the pool serves (API reference,
  /// "Errors"), which `SimulatedUserPool.injectError` can return.
  package static let documentedErrors: [String: [String]] = [
    "InitiateAuth": [
      "InternalErrorException", "InvalidLambdaResponseException", "InvalidParameterException",
      "InvalidSmsRoleAccessPolicyException", "InvalidUserPoolConfigurationException", "NotAuthorizedException",
      "PasswordResetRequiredException", "ResourceNotFoundException", "TooManyRequestsException",
      "UnexpectedLambdaException", "UserLambdaValidationException", "UserNotConfirmedException",
      "UserNotFoundException", "LimitExceededException",
    ],
    "RespondToAuthChallenge": [
      "AliasExistsException", "CodeMismatchException", "ExpiredCodeException", "InternalErrorException",
      "InvalidLambdaResponseException", "InvalidParameterException", "InvalidPasswordException",
      "MFAMethodNotFoundException", "NotAuthorizedException", "PasswordResetRequiredException",
      "ResourceNotFoundException", "SoftwareTokenMFANotFoundException", "TooManyRequestsException",
      "UnexpectedLambdaException", "UserLambdaValidationException", "UserNotConfirmedException",
      "UserNotFoundException", "LimitExceededException",
    ],
    "AssociateSoftwareToken": [
      "ConcurrentModificationException", "InternalErrorException", "InvalidParameterException",
      "NotAuthorizedException", "ResourceNotFoundException", "SoftwareTokenMFANotFoundException",
      "LimitExceededException",
    ],
    "VerifySoftwareToken": [
      "CodeMismatchException", "EnableSoftwareTokenMFAException", "InternalErrorException",
      "InvalidParameterException", "InvalidUserPoolConfigurationException", "NotAuthorizedException",
      "PasswordResetRequiredException", "ResourceNotFoundException", "SoftwareTokenMFANotFoundException",
      "TooManyRequestsException", "UserNotConfirmedException", "UserNotFoundException", "LimitExceededException",
    ],
  ]
}
