import CognitoWire

/// A failure the simulated pool produces on one backend request instead of answering it:
/// what a client can meet on the wire besides Cognito's rules.
package enum SimulatedFault: String, Sendable, CaseIterable, Codable {
  /// The connection is reset: no answer.
  case transport
  /// No answer within the client's timeout.
  case timeout
  /// An HTTP 500 without a Cognito error body (what `HTTPCognitoBackend` reports for it).
  case serverError
  /// A 200 answer whose body is not a JSON object.
  case malformedBody

  /// The error the backend throws for this fault.
  package var error: CognitoCallError {
    switch self {
    case .transport: return .network("simulated network fault: connection reset by peer")
    case .timeout: return .network("no answer within 10 s")
    case .serverError: return .malformed("HTTP status 500 without a Cognito error body")
    case .malformedBody: return .malformed("the response body is not a JSON object")
    }
  }

  /// Whether the fault is an answer the client cannot use (`serviceError`), not a lost request
  /// (`networkFault`).
  package var isServiceAnswer: Bool { self == .serverError || self == .malformedBody }

  /// Documented errors that a model response class of their own stands for (wrong codes and
  /// passwords, status changes, an invalid session), or that the reference client handles
  /// itself: ResourceNotFoundException is retried once on RespondToAuthChallenge (JS and
  /// Android, a remembered device Cognito forgot) and read as an invalid session elsewhere
  /// (moto answers it for a used session).
  package static let namedByModels: Set<String> = [
    "CodeMismatchException", "EnableSoftwareTokenMFAException", "ExpiredCodeException", "InvalidParameterException",
    "InvalidPasswordException", "NotAuthorizedException", "PasswordResetRequiredException",
    "ResourceNotFoundException", "UserNotConfirmedException", "UserNotFoundException",
  ]

  /// The documented errors of `operation` that the models' `serviceError` stands for: the
  /// client has no step for them, and passes their type through.
  package static func serviceErrors(of operation: String) -> [String] {
    serviceErrorsByOperation[operation] ?? []
  }

  /// `serviceErrors(of:)` for every operation, worked out once.
  private static let serviceErrorsByOperation: [String: [String]] = documentedErrors.mapValues { errors in
    errors.filter { !namedByModels.contains($0) }.sorted()
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
