import Foundation
import SignInModel

/// One expected trace: a model, a platform, a configuration and each call with the outcome
/// the sources say it has (`scenarios/*.yaml`).
public struct Scenario: Sendable {
  /// One call and what it must lead to.
  public struct ExpectedCall: Sendable {
    /// `RESPONSE` or `ENTRY:RESPONSE`, as `simulate` reads it.
    public let call: String
    public let expected: Expectation
    public let line: Int
  }

  public let name: String
  /// Where the expectation comes from: a seed file and line, or a reference section.
  public let source: String
  public let file: String
  public let line: Int
  public let model: SignInModel
  public let platform: String
  public let settings: [(name: String, value: String)]
  public let calls: [ExpectedCall]
}

/// What a scenario expects of one call: a step by the platform's name (optionally with the
/// model's id in brackets), `done`, `error NAME` (optionally with the exception behind it in
/// brackets: `error AuthError.service.softwareTokenMFANotEnabled [EnableSoftwareTokenMFAException]`)
/// or `restart` (optionally with text the reason must contain).
public enum Expectation: Sendable, Equatable, CustomStringConvertible {
  case step(name: String, id: String?)
  case done
  case error(String, exception: String? = nil)
  case restart(containing: String?)
  /// `signedOut`: the call (`signOut`) signed the user out.
  case signedOut

  /// Reads `done`, `error NAME`, `error NAME [EXCEPTION]`, `restart [TEXT]`, `NAME` or `NAME [STEP_ID]`.
  public init?(parsing raw: String) {
    let text = raw.trimmingCharacters(in: .whitespaces)
    if text.isEmpty { return nil }
    if text == "done" {
      self = .done
    } else if text == "signedOut" {
      self = .signedOut
    } else if text.hasPrefix("error ") {
      var name = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
      var exception: String?
      if let open = name.firstIndex(of: "["), name.hasSuffix("]") {
        let inside = name[name.index(after: open)..<name.index(before: name.endIndex)]
        exception = inside.trimmingCharacters(in: .whitespaces)
        name = name[..<open].trimmingCharacters(in: .whitespaces)
        guard exception?.isEmpty == false, exception?.contains(" ") == false else { return nil }
      }
      guard !name.isEmpty, !name.contains(" ") else { return nil }
      self = .error(name, exception: exception)
    } else if text == "restart" || text.hasPrefix("restart ") {
      let rest = text.dropFirst(7).trimmingCharacters(in: .whitespaces)
      self = .restart(containing: rest.isEmpty ? nil : rest)
    } else if let open = text.firstIndex(of: "["), text.hasSuffix("]") {
      let name = text[..<open].trimmingCharacters(in: .whitespaces)
      let id = text[text.index(after: open)..<text.index(before: text.endIndex)].trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty, !id.isEmpty, !name.contains(" ") else { return nil }
      self = .step(name: name, id: id)
    } else {
      guard !text.contains(" ") else { return nil }
      self = .step(name: text, id: nil)
    }
  }

  /// Whether `record` is what this expects.
  public func matches(_ record: CallRecord) -> Bool {
    switch self {
    case .done: return record.kind == .done
    case .signedOut: return record.kind == .signedOut
    case .error(let name, let exception):
      return record.kind == .error && record.error == name && (exception == nil || record.exception == exception)
    case .restart(let text):
      return record.kind == .restart && (text.map { record.reason?.contains($0) == true } ?? true)
    case .step(let name, let id):
      // A platform's own name for done (`DONE`) is accepted as well as `done`.
      let isStep = record.kind == .step || record.kind == .done
      return isStep && record.step == name && (id == nil || id == record.stepID)
    }
  }

  public var description: String {
    switch self {
    case .done: return "done"
    case .signedOut: return "signedOut"
    case .error(let name, let exception): return "error \(name)" + (exception.map { " [\($0)]" } ?? "")
    case .restart(let text): return "restart" + (text.map { " \($0)" } ?? "")
    case .step(let name, let id): return name + (id.map { " [\($0)]" } ?? "")
    }
  }
}
