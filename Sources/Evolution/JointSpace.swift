import SignInModel

/// The configuration variables of one or two models side by side, matched by name.
///
/// A joint configuration gives every joint variable one of the union of the values its sides
/// declare. It belongs to a side when each of that side's variables has a value of its domain,
/// and each variable the side lacks is at its `default:` (the value that reproduces the
/// behaviour before the variable existed, or after it was removed).
public struct JointSpace: Sendable {
  /// One model's view of the joint variables.
  public struct Side: Sendable {
    public let model: SignInModel
    /// Joint variable → the model's variable index, or nil when the model lacks it.
    public let variable: [Int?]
    /// Joint variable → joint value → the model's stored value, or nil when not in its domain.
    public let value: [[Int?]]
    /// Model variable index → joint variable (configuration variables only).
    public let joint: [Int: Int]
    /// Joint variable → the joint values a configuration of this side may have.
    public let allowed: [[Bool]]
  }

  public let names: [String]
  /// The rendered values of each joint variable: the first side's, then the second's new ones.
  public let values: [[String]]
  public let sides: [Side]
  /// Variables one side lacks and that declare no `default:` (compared at their first value).
  public let missingDefaults: [String]

  public var count: Int { names.count }

  public init(_ models: [SignInModel]) {
    var names: [String] = []
    var values: [[String]] = []
    for model in models {
      for i in model.configurationIndices {
        let v = model.variables[i]
        let rendered = v.domain.values.map { v.domain.render($0) }
        if let j = names.firstIndex(of: v.name) {
          for r in rendered where !values[j].contains(r) { values[j].append(r) }
        } else {
          names.append(v.name)
          values.append(rendered)
        }
      }
    }
    var missing: [String] = []
    var sides: [Side] = []
    for model in models {
      var variable: [Int?] = []
      var value: [[Int?]] = []
      var joint: [Int: Int] = [:]
      var allowed: [[Bool]] = []
      for (j, name) in names.enumerated() {
        if let i = model.variableIndex(named: name), model.variables[i].scope == .configuration {
          let d = model.variables[i].domain
          variable.append(i)
          joint[i] = j
          let mapped = values[j].map { r in d.values.first { d.render($0) == r } }
          value.append(mapped)
          allowed.append(mapped.map { $0 != nil })
        } else {
          variable.append(nil)
          value.append(values[j].map { _ in nil })
          let fallback = Self.defaultValue(of: name, in: models)
          if fallback.declared == false && !missing.contains(name) { missing.append(name) }
          allowed.append(values[j].map { $0 == fallback.value })
        }
      }
      sides.append(Side(model: model, variable: variable, value: value, joint: joint, allowed: allowed))
    }
    self.names = names
    self.values = values
    self.sides = sides
    self.missingDefaults = missing
  }

  /// The `default:` of a variable in the model that has it, rendered, or its first value.
  private static func defaultValue(of name: String, in models: [SignInModel]) -> (value: String, declared: Bool) {
    for model in models {
      guard let i = model.variableIndex(named: name) else { continue }
      let v = model.variables[i]
      if let d = v.defaultValue { return (v.domain.render(d), true) }
      return (v.domain.render(v.domain.values[0]), false)
    }
    return ("", false)
  }

  /// The model valuation of `side` for a joint assignment (-1 = not fixed), or nil when a
  /// fixed value is outside the side.
  func valuation(_ assignment: [Int], side s: Int) -> [Int]? {
    let side = sides[s]
    var values = [Int](repeating: unassigned, count: side.model.variables.count)
    for j in 0..<count {
      let a = assignment[j]
      guard a >= 0 else { continue }
      if !side.allowed[j][a] { return nil }
      if let i = side.variable[j], let v = side.value[j][a] { values[i] = v }
    }
    for i in side.model.flowIndices { values[i] = side.model.variables[i].initial }
    return values
  }

  /// How a joint assignment reads: `name = value` for each fixed variable.
  public func describe(_ assignment: [Int]) -> [(name: String, value: String)] {
    (0..<count).compactMap { j in assignment[j] >= 0 ? (names[j], values[j][assignment[j]]) : nil }
  }
}
