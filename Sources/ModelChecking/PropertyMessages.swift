import SignInModel

/// What each engine says when a model property is violated, in the model's terms.
public enum PropertyMessages {
  static func safety(_ check: PropertyCheck, afterCalls calls: Int) -> String {
    let property = check.property
    let when = calls == 0 ? "at signIn" : "after call \(calls)"
    if property.kind == .never { return "\(property.predicateText) holds \(when) (never: \(property.predicateText))" }
    return "\(property.predicateText) does not hold \(when) (always: \(property.predicateText))"
  }

  static func eventually(_ check: PropertyCheck, loops: Bool) -> String {
    let how = loops ? "repeats forever" : "ends"
    return "a path from signIn \(how) without reaching \(check.property.predicateText)"
  }

  static func leadsTo(_ check: PropertyCheck, afterCalls calls: Int, loops: Bool) -> String {
    let property = check.property
    let when = calls == 0 ? "at signIn" : "after call \(calls)"
    let how = loops ? "repeats forever" : "ends"
    return "\(property.predicateText) holds \(when), then the path \(how) without reaching \(property.targetText ?? "")"
  }

  /// A `reachable` property no path satisfies.
  public static func unreachable(_ property: ModelProperty) -> String {
    "no path from signIn, under any configuration, reaches a state where \(property.predicateText) holds"
  }
}
