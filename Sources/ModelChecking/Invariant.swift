/// The named properties every model is checked against.
public enum Invariant: String, CaseIterable, Sendable, Codable {
  case terminates
  case failAuthenticationRestarts
  case noFactorSkipped
  case offersAreUsable
  case deterministic
  case isSignedInIffDone
  case staysInDomain
  case stepsReachable
  case doneReachable
  case boundedFailures
  case preferredMFAHonoured
  case challengesUsableFactor
  case failedResponseNeverVerifies

  /// One line saying what the invariant means.
  public var meaning: String {
    switch self {
    case .terminates:
      return "every path from signIn reaches done or a restart (no dead end, no cycle that avoids both)"
    case .failAuthenticationRestarts:
      return "after the define trigger fails authentication, nothing but a new signIn proceeds"
    case .noFactorSkipped:
      return "done only after the first factor and, where pool and user require it, an MFA factor"
    case .offersAreUsable:
      return "a selection step offers a non-empty list of types the user can really use"
    case .deterministic:
      return "every (state, response) has exactly one outcome"
    case .isSignedInIffDone:
      return "isSignedIn is true exactly at the done step"
    case .staysInDomain:
      return "every update keeps flow variables inside their declared domains"
    case .stepsReachable:
      return "every declared step is reachable under some configuration (non-vacuity)"
    case .doneReachable:
      return "done is reachable for every configuration whose user can sign in (non-vacuity)"
    case .boundedFailures:
      return "a failed attempt counts, the limit-th ends the flow, and the count only resets with a new flow"
    case .preferredMFAHonoured:
      return "when MFA is required and the preferred type is usable, MFA is that type's challenge, never a selection"
    case .challengesUsableFactor:
      return "every challenge (setup) step asks for a factor usable (set-up-able) in that configuration"
    case .failedResponseNeverVerifies:
      return "an error or a restart never adds a verified factor"
    }
  }
}
