import SignInClient

/// The exception name a model gives for each error the client throws (`error: NAME`, a
/// restart's `exception:`), so the error a user catches is compared by type.
package enum ErrorType {
  /// Whether `error` is the exception the model names. One alias: the Swift client checks
  /// locally what Cognito would refuse with InvalidParameterException and throws its own
  /// ValidationError without a request (the models name Cognito's exception).
  package static func matches(_ error: AuthError, _ expected: String) -> Bool {
    let name = name(of: error)
    return name == expected || (name == "ValidationError" && expected == "InvalidParameterException")
      || (name == "EnableSoftwareTokenMFAException" && expected == "AuthError.service.softwareTokenMFANotEnabled")
  }

  /// The client's error as the models name it.
  package static func name(of error: AuthError) -> String {
    switch error {
    case .invalidState: return "InvalidStateError"
    case .validation: return "ValidationError"
    case .codeMismatch: return "CodeMismatchException"
    case .codeExpired: return "ExpiredCodeException"
    case .invalidPassword: return "InvalidPasswordException"
    case .invalidParameter: return "InvalidParameterException"
    case .notAuthorized: return "NotAuthorizedException"
    case .userNotFound: return "UserNotFoundException"
    case .softwareTokenMFANotEnabled: return "EnableSoftwareTokenMFAException"
    case .unknownChallenge: return "UnknownChallengeError"
    case .invalidServiceResponse: return "SignInError.invalidServiceResponse"
    case .service(let type, _): return type
    case .network: return "NetworkError"
    case .unsupported: return "UnsupportedError"
    }
  }
}
