import SignInModel

/// Turns `NAME=VALUE` settings and the model's `default:` values into a full configuration,
/// refusing unknown variables, values outside a domain, missing values and broken constraints.
public struct ConfigurationResolver: Sendable {
  public let model: SignInModel

  public init(model: SignInModel) { self.model = model }

  public func resolve(_ settings: [(name: String, value: String)]) throws(SimulationError) -> [String: String] {
    var values: [Int: Int] = [:]
    let names = model.configurationIndices.map { model.variables[$0].name }
    for (name, text) in settings {
      guard let i = model.variableIndex(named: name), model.configurationIndices.contains(i) else {
        throw SimulationError(
          "unknown configuration variable '\(name)'\(SimulationSession.hint(name, names)); the model's variables: "
            + names.joined(separator: ", "))
      }
      let domain = model.variables[i].domain
      guard let v = domain.values.first(where: { domain.render($0) == text }) else {
        let spelled = domain.values.map { domain.render($0) }
        throw SimulationError(
          "'\(text)' is not a value of '\(name)'\(SimulationSession.hint(text, spelled)); its domain is "
            + domain.spelling)
      }
      values[i] = v
    }
    let missing = model.configurationIndices.filter { values[$0] == nil && model.variables[$0].defaultValue == nil }
    if !missing.isEmpty {
      let list = missing.map { "\(model.variables[$0].name) (domain \(model.variables[$0].domain.spelling))" }
      throw SimulationError(
        "no value for " + list.joined(separator: ", ") + ": the model gives no default; set it with --set NAME=VALUE")
    }
    var valuation = [Int](repeating: 0, count: model.variables.count)
    for i in model.configurationIndices {
      guard let value = values[i] ?? model.variables[i].defaultValue else {
        preconditionFailure("variable \(model.variables[i].name) has a value: missing ones were reported above")
      }
      valuation[i] = value
    }
    for c in model.constraints where (try? c.expr.holds(valuation)) != true {
      throw SimulationError(
        "the configuration breaks the constraint '\(c.text)' (\(model.file):\(c.line))")
    }
    var result: [String: String] = [:]
    for i in model.configurationIndices {
      result[model.variables[i].name] = model.variables[i].domain.render(valuation[i])
    }
    return result
  }
}
