/// A JSON object's members read one at a time as `JSONValue.stringMap` reads them (a string as
/// itself, any other value as its JSON text), without building the map: how the simulated pool
/// reads AuthParameters and ChallengeResponses.
public struct StringFields: Sendable {
  public let object: JSONObject

  /// The members of `value` (none when it is absent or not an object).
  public init(_ value: JSONValue?) { object = value?.object ?? [:] }

  public subscript(key: String) -> String? { object[key]?.text }
}
