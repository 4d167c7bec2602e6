import SignInClient

/// The exception name a model gives for each error the client throws (`error: NAME`, a
/// restart's `exception:`), so the error a user catches is compared by type.
package enum ErrorType {
  /// Whether `error` is the exception the model names. One alias, both ways: the same refusal
  /// of a malformed answer, made locally (the Amplify clients' ValidationError, no request) or by
  /// Cognito (InvalidParameterException, the session kept): the Swift client checks locally what
  /// Cognito would refuse, and a client of the plain SDK (the boto3 adapter) lets Cognito refuse
  /// what Amplify checks locally (an unknown MFA type or first factor).
  package static func matches(_ error: AuthError, _ expected: String) -> Bool {
    let name = name(of: error)
    return name == expected || (refusals.contains(name) && refusals.contains(expected))
      || (name == "EnableSoftwareTokenMFAException" && expected == "AuthError.service.softwareTokenMFANotEnabled")
  }

  /// The two names of the same refusal of a malformed answer (see `matches`).
  static let refusals: Set<String> = ["ValidationError", "InvalidParameterException"]

  /// The exception name a model gives for "the exception Cognito sent, by its type" (the
  /// `serviceError` rules): the harness compares it with the error it made the pool send.
  package static let passedThrough = "ServiceError"

  /// The exception a client reports for a `serviceError`: the documented error's type, or
  /// `SignInError.invalidServiceResponse` for a 5xx without an error body or an unreadable body.
  package static func passedThrough(_ documentedError: String?) -> String {
    documentedError ?? name(of: .invalidServiceResponse(""))
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
