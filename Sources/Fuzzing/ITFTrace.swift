import Foundation

/// A value in the Informal Trace Format of Apalache and Quint (ADR-015): integers as
/// `{"#bigint": "3"}`, booleans and strings as themselves, lists as arrays, sets, tuples and
/// maps tagged `#set`, `#tup`, `#map`, records as objects.
package indirect enum ITFValue: Sendable, Equatable, Codable {
  case bool(Bool)
  /// An integer of any size, as its decimal digits (with an optional leading `-`).
  case int(String)
  case string(String)
  case list([ITFValue])
  case set([ITFValue])
  case tuple([ITFValue])
  /// Key-value pairs, in the order written.
  case map([MapEntry])
  case record([String: ITFValue])
  case unserializable(String)

  /// One entry of a `#map`.
  package struct MapEntry: Sendable, Equatable {
    package let key: ITFValue
    package let value: ITFValue

    package init(key: ITFValue, value: ITFValue) {
      self.key = key
      self.value = value
    }
  }

  /// An integer value.
  package static func int(_ value: Int) -> ITFValue { .int(String(value)) }

  /// The integer, when it is one and fits in an `Int`.
  package var intValue: Int? { if case .int(let digits) = self { return Int(digits) } else { return nil } }

  /// Why a JSON value is not ITF.
  package struct Malformed: Error, CustomStringConvertible {
    package let description: String
  }

  package init(from decoder: Decoder) throws {
    let c = try decoder.singleValueContainer()
    if let b = try? c.decode(Bool.self) {
      self = .bool(b)
    } else if let n = try? c.decode(Int.self) {
      self = .int(String(n))  // plain JSON numbers: older Apalache output writes small integers so
    } else if let s = try? c.decode(String.self) {
      self = .string(s)
    } else if let a = try? c.decode([ITFValue].self) {
      self = .list(a)
    } else {
      let object = try c.decode([String: ITFValue].self)
      self = try Self.tagged(object) ?? .record(object)
    }
  }

  /// The value a single-key tagged object stands for, or nil for a record.
  private static func tagged(_ object: [String: ITFValue]) throws -> ITFValue? {
    guard object.count == 1, let (tag, inner) = object.first, tag.hasPrefix("#") else { return nil }
    switch (tag, inner) {
    case ("#bigint", .string(let digits)):
      let body = digits.hasPrefix("-") ? digits.dropFirst() : Substring(digits)
      guard !body.isEmpty, body.allSatisfy(\.isASCII), body.allSatisfy(\.isNumber) else {
        throw Malformed(description: "#bigint '\(digits)' is not an integer")
      }
      return .int(digits)
    case ("#set", .list(let items)): return .set(items)
    case ("#tup", .list(let items)): return .tuple(items)
    case ("#map", .list(let pairs)):
      return .map(
        try pairs.map { pair in
          guard case .list(let kv) = pair, kv.count == 2 else {
            throw Malformed(description: "a #map entry must be a [key, value] pair")
          }
          return MapEntry(key: kv[0], value: kv[1])
        })
    case ("#unserializable", .string(let text)): return .unserializable(text)
    default: throw Malformed(description: "\(tag) is not an ITF tag with that content")
    }
  }

  package func encode(to encoder: Encoder) throws {
    var c = encoder.singleValueContainer()
    switch self {
    case .bool(let b): try c.encode(b)
    case .int(let digits): try c.encode(["#bigint": digits])
    case .string(let s): try c.encode(s)
    case .list(let items): try c.encode(items)
    case .set(let items): try c.encode(["#set": items])
    case .tuple(let items): try c.encode(["#tup": items])
    case .map(let entries): try c.encode(["#map": entries.map { [$0.key, $0.value] }])
    case .record(let fields): try c.encode(fields)
    case .unserializable(let text): try c.encode(["#unserializable": text])
    }
  }
}

/// A trace in the Informal Trace Format: `#meta`, the variable names, and one state per
/// step, each with its own `#meta` and a value for every variable (plus, for model-based
/// testing, `mbt::actionTaken`).
package struct ITFTrace: Sendable, Equatable, Codable {
  /// One state: its `#meta` and its variables' values.
  package struct State: Sendable, Equatable, Codable {
    package var meta: [String: ITFValue]
    package var values: [String: ITFValue]

    package init(meta: [String: ITFValue], values: [String: ITFValue]) {
      self.meta = meta
      self.values = values
    }

    package init(from decoder: Decoder) throws {
      var all = try decoder.singleValueContainer().decode([String: ITFValue].self)
      guard case .record(let meta)? = all.removeValue(forKey: "#meta") else {
        throw ITFValue.Malformed(description: "a state has no #meta object")
      }
      self.meta = meta
      values = all
    }

    package func encode(to encoder: Encoder) throws {
      var all = values
      all["#meta"] = .record(meta)
      var c = encoder.singleValueContainer()
      try c.encode(all)
    }
  }

  package var meta: [String: ITFValue]
  /// Parameters of the specification (ITF's optional `params`).
  package var params: [String]?
  package var vars: [String]
  package var states: [State]
  /// For a lasso-shaped trace, the index of the state the loop returns to.
  package var loop: Int?

  package init(meta: [String: ITFValue], params: [String]? = nil, vars: [String], states: [State], loop: Int? = nil) {
    self.meta = meta
    self.params = params
    self.vars = vars
    self.states = states
    self.loop = loop
  }

  enum CodingKeys: String, CodingKey {
    case meta = "#meta"
    case params, vars, states, loop
  }

  /// Reads a trace from ITF JSON.
  package static func read(_ data: Data) throws -> ITFTrace {
    try JSONDecoder().decode(ITFTrace.self, from: data)
  }
}
