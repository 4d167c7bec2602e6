/// Every error the client throws. Descriptions never contain passwords, codes or sessions.
public enum AuthError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The call is not allowed now (e.g. `confirmSignIn` with no sign-in in progress).
  case invalidState(String)
  /// The answer is malformed for the current step; nothing was sent. Retry with another answer.
  case validation(String)
  /// Wrong code (CodeMismatchException); retry on the same step.
  case codeMismatch
  /// The code expired, or a TOTP code was used twice in its window (ExpiredCodeException);
  /// retry on the same step with a new code.
  case codeExpired
  /// The new password breaks the pool's policy; retry on the same step.
  case invalidPassword
  /// Cognito rejected a parameter (InvalidParameterException); retry on the same step.
  case invalidParameter(String)
  /// Wrong credentials, an expired or used session, or a failed define trigger: the flow is
  /// over and a new `signIn` is needed.
  case notAuthorized(String)
  case userNotFound
  /// A wrong code at TOTP setup (EnableSoftwareTokenMFAException, as the Swift client's
  /// `softwareTokenMFANotEnabled`); retry on the same step.
  case softwareTokenMFANotEnabled
  /// Cognito answered a challenge this client does not know (for example a new one).
  case unknownChallenge(String)
  /// Cognito's answer could not be understood (bad JSON, missing fields).
  case invalidServiceResponse(String)
  /// Another Cognito error, by its type name.
  case service(type: String, message: String)
  /// The request did not get an answer (connection refused, timeout).
  case network(String)
  /// A feature this client does not support on this platform (passkeys).
  case unsupported(String)

  public var description: String {
    switch self {
    case .invalidState(let m): return "invalid state: \(m)"
    case .validation(let m): return "invalid input: \(m)"
    case .codeMismatch: return "the code does not match; enter the correct code"
    case .codeExpired: return "the code expired; request a new one"
    case .invalidPassword: return "the new password does not meet the pool's password policy"
    case .invalidParameter(let m): return "Cognito rejected a parameter: \(m)"
    case .notAuthorized(let m): return "not authorized: \(m); call signIn to start again"
    case .userNotFound: return "the user does not exist"
    case .softwareTokenMFANotEnabled: return "the code does not match the new authenticator; enter the code it shows"
    case .unknownChallenge(let name):
      return "Cognito asked for a challenge this client does not know: \(name); call signIn to start again"
    case .invalidServiceResponse(let m): return "Cognito's response could not be understood: \(m)"
    case .service(let type, let m): return "Cognito error \(type): \(m)"
    case .network(let m): return "no answer from Cognito: \(m)"
    case .unsupported(let m): return "not supported: \(m)"
    }
  }

  /// Whether the flow can go on on the same step after this error. A service error the
  /// client has no step for and an answer it cannot read keep the challenge (Swift's
  /// `resolvingChallenge(.error)` accepts another `confirmSignIn`), unless Cognito had
  /// already taken the answer (the client then ends the flow).
  public var isRetryable: Bool {
    switch self {
    case .validation, .codeMismatch, .codeExpired, .softwareTokenMFANotEnabled, .invalidPassword, .invalidParameter,
      .network, .service, .invalidServiceResponse:
      return true
    default: return false
    }
  }
}
