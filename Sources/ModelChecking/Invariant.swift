import Foundation
import SignInModel

/// A named property a model is checked against: one of the built-in invariants every model
/// gets (`builtins`, the default set), or a property the model states in `properties:`
/// (`ModelProperty`), named by the model.
public struct Invariant: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  public var description: String { rawValue }

  public static let terminates = Invariant(rawValue: "terminates")
  public static let failAuthenticationRestarts = Invariant(rawValue: "failAuthenticationRestarts")
  public static let noFactorSkipped = Invariant(rawValue: "noFactorSkipped")
  public static let offersAreUsable = Invariant(rawValue: "offersAreUsable")
  public static let deterministic = Invariant(rawValue: "deterministic")
  public static let isSignedInIffDone = Invariant(rawValue: "isSignedInIffDone")
  public static let staysInDomain = Invariant(rawValue: "staysInDomain")
  public static let stepsReachable = Invariant(rawValue: "stepsReachable")
  public static let doneReachable = Invariant(rawValue: "doneReachable")
  public static let boundedFailures = Invariant(rawValue: "boundedFailures")
  public static let preferredMFAHonoured = Invariant(rawValue: "preferredMFAHonoured")
  public static let challengesUsableFactor = Invariant(rawValue: "challengesUsableFactor")
  public static let failedResponseNeverVerifies = Invariant(rawValue: "failedResponseNeverVerifies")

  /// The built-in invariants, in report order: the default property set of every model.
  public static let builtins: [Invariant] = ModelProperty.builtinNames.map(Invariant.init(rawValue:))
  /// The built-in invariants (kept under the name the enum had).
  public static var allCases: [Invariant] { builtins }

  /// Whether this is a built-in invariant (not a model property).
  public var isBuiltin: Bool { ModelProperty.builtinNames.contains(rawValue) }

  /// Every property `model` is checked against by default: the built-ins, then the model's own.
  public static func all(for model: SignInModel) -> [Invariant] {
    builtins + model.properties.map { Invariant(rawValue: $0.name) }
  }

  /// The model property this names in `model`, if any.
  public func property(in model: SignInModel) -> ModelProperty? {
    isBuiltin ? nil : model.properties.first { $0.name == rawValue }
  }

  /// One line saying what the property means; for a model property, its description (or its
  /// statement) and its line.
  public func meaning(in model: SignInModel) -> String {
    guard let property = property(in: model) else { return meaning }
    let text = property.description.isEmpty ? property.statement : property.description
    return "\(text) (\((model.file as NSString).lastPathComponent):\(property.line))"
  }

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
    default:
      return "a property the model states"
    }
  }
}
