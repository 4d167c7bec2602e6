import SignInModel

/// The factor facts in `signin-spec list`: per step, and the model's factors, preferences and
/// failed-attempt event.
extension ModelListing {
  /// One line on what a step does with a factor, or nil when it states nothing.
  static func factsLine(_ facts: StepFacts) -> String? {
    guard !facts.isEmpty else { return nil }
    var parts: [String] = []
    let verbs: [StepAction: String] = [
      .challenge: "challenges", .setup: "sets up", .select: "selects", .selectSetup: "selects what to set up",
    ]
    let verb = facts.action.flatMap { verbs[$0] }
    if let factor = facts.factor {
      parts.append("\(verb ?? "challenges") \(factor.rawValue)")
    } else if let verb {
      parts.append(verb)
    }
    if let delivery = facts.delivery { parts.append("delivered by \(delivery.rawValue)") }
    if !facts.choices.isEmpty {
      parts.append("choices: " + facts.choices.map { "\($0.option) = \($0.factor)" }.joined(separator: ", "))
    }
    if !facts.carries.isEmpty { parts.append("carries " + facts.carries.map(\.rawValue).joined(separator: ", ")) }
    return "      " + parts.joined(separator: "; ")
  }

  /// The model-level facts, or no lines when the model declares none.
  static func factLines(_ model: SignInModel) -> [String] {
    var lines: [String] = []
    if !model.factors.isEmpty {
      lines.append("Factors (usable / can be set up during sign-in):")
      let width = (model.factors.map(\.factor.description.count).max() ?? 0) + 2
      for f in model.factors {
        let name = f.factor.description.padding(toLength: width, withPad: " ", startingAt: 0)
        lines.append("  \(name)usable: \(f.usableText)" + (f.setUpText.map { "; set up: \($0)" } ?? ""))
      }
    }
    for p in model.preferences {
      let variable = model.variables[p.variable]
      let values = p.values.map { "\(variable.domain.render($0.value)) = \($0.factor)" }.joined(separator: ", ")
      lines.append("Preference \(variable.name) (\(p.role.rawValue)): \(values)")
    }
    if let f = model.failedAttempts {
      let responses = f.responses.map { model.responses[$0].name }.joined(separator: ", ")
      lines.append(
        "Failed attempts: \(responses) ending in an error or a restart; counted by "
          + "\(model.variables[f.counter].name), limit \(f.limit) per flow")
    }
    return lines
  }
}
