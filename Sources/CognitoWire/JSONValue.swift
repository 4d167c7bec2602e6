import Foundation

/// A JSON value, for AWS JSON 1.1 bodies.
public enum JSONValue: Sendable, Equatable, Codable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([String: JSONValue])

  public init(from decoder: Decoder) throws {
    let c = try decoder.singleValueContainer()
    if c.decodeNil() {
      self = .null
    } else if let b = try? c.decode(Bool.self) {
      self = .bool(b)
    } else if let n = try? c.decode(Double.self) {
      self = .number(n)
    } else if let s = try? c.decode(String.self) {
      self = .string(s)
    } else if let a = try? c.decode([JSONValue].self) {
      self = .array(a)
    } else {
      self = .object(try c.decode([String: JSONValue].self))
    }
  }

  public func encode(to encoder: Encoder) throws {
    var c = encoder.singleValueContainer()
    switch self {
    case .string(let s): try c.encode(s)
    case .number(let n): try c.encode(n)
    case .bool(let b): try c.encode(b)
    case .null: try c.encodeNil()
    case .array(let a): try c.encode(a)
    case .object(let o): try c.encode(o)
    }
  }

  public var string: String? { if case .string(let s) = self { return s } else { return nil } }
  public var object: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
  public var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

  /// A map of strings (ChallengeParameters); a non-string value (moto sends MFAS_CAN_SETUP as
  /// a JSON array) is kept as its JSON text.
  public var stringMap: [String: String] {
    guard let object else { return [:] }
    var result: [String: String] = [:]
    for (k, v) in object { result[k] = v.text }
    return result
  }

  /// The value as `stringMap` reads it: a string as itself, anything else as its JSON text.
  public var text: String? {
    if let s = string { return s }
    return (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) }
  }
}

/// A request body or response body: a JSON object.
public typealias JSONObject = [String: JSONValue]
