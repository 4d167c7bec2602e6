import SignInModel

/// What a call reports besides where the flow goes: the exception behind the outcome and the
/// error each platform's client shows for it.
///
/// `exception` is the name the model gives the outcome: Cognito's exception
/// (`EnableSoftwareTokenMFAException`), or for a failure that never reached Cognito the
/// model's neutral name (`NetworkError`, `ValidationError`, `ServiceError` for an answer passed
/// through by type). A step some platform throws (`resetPassword`, thrown as
/// `PasswordResetRequiredException` on Android) names that exception on every platform.
/// `error` is what a client reports when no `platforms:` entry says otherwise; `platforms`
/// holds the entries that do (nil: the client reports no error there, e.g. signed out).
public struct ReportedError: Sendable, Equatable, Codable {
  public let exception: String?
  public let error: String?
  public let platforms: [String: String?]

  public static let none = ReportedError(exception: nil, error: nil, platforms: [:])

  public init(exception: String?, error: String?, platforms: [String: String?]) {
    self.exception = exception
    self.error = error
    self.platforms = platforms
  }

  /// The error `platform`'s client reports (nil platform: the model's own name).
  public func error(on platform: String?) -> String? {
    if let platform, let entry = platforms[platform] { return entry }
    return error
  }

  /// Platform names that report something other than `error`, with what they report, in
  /// platform order: `swift: AuthError.service.softwareTokenMFANotEnabled; android, flutter: …`.
  public func differences(platformOrder: [String]) -> String? {
    var groups: [(name: String, platforms: [String])] = []
    for p in platformOrder {
      guard let entry = platforms[p], entry != error else { continue }
      let name = entry ?? "no error"
      if let k = groups.firstIndex(where: { $0.name == name }) {
        groups[k].platforms.append(p)
      } else {
        groups.append((name, [p]))
      }
    }
    return groups.isEmpty
      ? nil
      : groups.map { $0.platforms.joined(separator: ", ") + ": " + $0.name }
        .joined(separator: "; ")
  }
}

extension SignInModel {
  /// What `outcome`, decided by the rules at `ruleLines` (step rule first, then routes),
  /// reports: see `ReportedError`.
  public func reported(_ outcome: TraceOutcome, ruleLines: [Int]) -> ReportedError {
    let rules = ruleLines.compactMap { rule(atLine: $0) }
    var exception: String?
    var error: String?
    var thrownByStep: [String: String] = [:]
    switch outcome {
    case .error(let name, _):
      exception = name
      error = name
    case .restart(let reason):
      exception = rules.last?.exception ?? Rule.exception(inReason: reason)
      error = exception
    case .step(let id):
      if let s = stepIndex(named: id) {
        for name in steps[s].names {
          if case .error(let thrown) = name.form { thrownByStep[name.platform] = thrown }
        }
        exception = platforms.lazy.compactMap { thrownByStep[$0] }.first ?? thrownByStep.values.sorted().first
      }
    case .undetermined:
      break
    }
    var overrides: [String: String?] = [:]
    for p in platforms {
      if let form = rules.reversed().lazy.compactMap({ $0.platformOutcomes.form(on: p) }).first {
        switch form {
        case .error(let name): overrides[p] = name
        case .signedOut: overrides[p] = .some(nil)
        }
      } else if let thrown = thrownByStep[p] {
        overrides[p] = thrown
      }
    }
    return ReportedError(exception: exception, error: error, platforms: overrides)
  }

  /// The rule written at `line` of the model file (a step's, a default's, or a route's).
  public func rule(atLine line: Int) -> Rule? {
    for step in steps {
      for response in step.responses {
        if let rule = response.rules.first(where: { $0.line == line }) { return rule }
      }
    }
    for route in routes {
      if let rule = route.rules.first(where: { $0.line == line }) { return rule }
    }
    return nil
  }
}
