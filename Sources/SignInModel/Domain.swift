/// The finite set of values a variable may take. Every value is stored as an `Int`:
/// `false`/`true` as 0/1, an enumeration value as its index, a range value as itself.
public enum Domain: Hashable, Sendable {
  case bool
  case range(ClosedRange<Int>)
  case enumeration([String])

  /// The stored values, in declaration order.
  public var values: [Int] {
    switch self {
    case .bool: return [0, 1]
    case .range(let r): return Array(r)
    case .enumeration(let names): return Array(names.indices)
    }
  }

  public var count: Int {
    switch self {
    case .bool: return 2
    case .range(let r): return r.count
    case .enumeration(let names): return names.count
    }
  }

  /// The lowest and highest stored value (every domain is a range of them); nil for an empty
  /// enumeration. Read without listing the values.
  public var bounds: ClosedRange<Int>? {
    switch self {
    case .bool: return 0...1
    case .range(let r): return r
    case .enumeration(let names): return names.isEmpty ? nil : 0...(names.count - 1)
    }
  }

  public func contains(_ value: Int) -> Bool {
    switch self {
    case .bool: return value == 0 || value == 1
    case .range(let r): return r.contains(value)
    case .enumeration(let names): return names.indices.contains(value)
    }
  }

  /// How a stored value reads in the model's own terms (`true`, `3`, `required`).
  public func render(_ value: Int) -> String {
    switch self {
    case .bool: return value == 0 ? "false" : "true"
    case .range: return String(value)
    case .enumeration(let names): return names.indices.contains(value) ? names[value] : "<\(value)>"
    }
  }

  /// The domain as written in a model file: `bool`, `0..4`, `[off, optional, required]`.
  public var spelling: String {
    switch self {
    case .bool: return "bool"
    case .range(let r): return "\(r.lowerBound)..\(r.upperBound)"
    case .enumeration(let names): return "[" + names.joined(separator: ", ") + "]"
    }
  }
}

/// Where a variable lives: in the configuration (fixed for one sign-in) or in the
/// flow's own state (reset by every `signIn`, changed by transitions).
public enum VariableScope: String, Hashable, Sendable, Codable {
  case configuration
  case flow
}

/// A named variable of the model with a finite domain.
public struct Variable: Hashable, Sendable {
  public let name: String
  public let domain: Domain
  public let scope: VariableScope
  /// The value every `signIn` starts from (flow variables only).
  public let initial: Int
  public let doc: String
  public let line: Int
  /// The value a pool or user has unless stated (`default:`; configuration variables only).
  /// A variable added to a model declares the value that reproduces the behaviour before it.
  public let defaultValue: Int?

  public init(
    name: String, domain: Domain, scope: VariableScope, initial: Int = 0, doc: String = "", line: Int = 0,
    defaultValue: Int? = nil
  ) {
    self.name = name
    self.domain = domain
    self.scope = scope
    self.initial = initial
    self.doc = doc
    self.line = line
    self.defaultValue = defaultValue
  }
}
