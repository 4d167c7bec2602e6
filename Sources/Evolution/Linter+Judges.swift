import ModelChecking
import SignInModel

/// The lint rules about the model's judges: built-in properties that cannot be checked
/// (`notChecked`), and properties that share a definition with the rules they judge
/// (`policySharesDefinition`): edit that definition and the rule and its judge move together.
extension Linter {
  func judges(_ warn: (String, String, String, Int) -> Void) {
    for invariant in Invariant.builtins {
      guard let reason = invariant.missingFacts(in: model) else { continue }
      warn(Invariant.notCheckedRule, invariant.rawValue, "\(invariant.rawValue) is NOT CHECKED: \(reason)", 1)
    }
    let shared = definitionsReadByGuards()
    guard !shared.isEmpty else { return }
    func overlap(_ texts: [String]) -> [String] {
      closure(of: texts.flatMap(definitionNames)).filter { shared[$0] != nil }.sorted()
    }
    func describe(_ names: [String]) -> String {
      names.map { "'\($0)' (a guard at line \(shared[$0]!) reads it)" }.joined(separator: ", ")
    }
    for property in model.properties {
      var texts = [property.predicateText] + [property.targetText].compactMap { $0 }
      if let relation = property.relation { texts = [relation.sharedText, relation.leftText, relation.rightText] }
      let names = overlap(texts)
      guard !names.isEmpty else { continue }
      warn(
        "policySharesDefinition", property.name,
        "property '\(property.name)' reads the definition \(describe(names)): a change to it moves the rules and "
          + "this property together; state the property over configuration variables", property.line)
    }
    // `factors:` is what offersAreUsable and challengesUsableFactor judge offers and challenges by.
    for availability in model.factors {
      let names = overlap([availability.usableText] + [availability.setUpText].compactMap { $0 })
      guard !names.isEmpty else { continue }
      warn(
        "policySharesDefinition", "factors.\(availability.factor)",
        "factors: \(availability.factor) reads the definition \(describe(names)): the offers and challenges it "
          + "judges would move with it; state it over configuration variables", availability.line)
    }
    if model.policy == nil, model.mfaRequired != nil,
      let definition = model.definitions.first(where: { $0.name == "mfaRequired" })
    {
      let names = (shared["mfaRequired"] != nil ? ["mfaRequired"] : []) + overlap([definition.text])
      if !names.isEmpty {
        warn(
          "policySharesDefinition", Invariant.noFactorSkipped.rawValue,
          "noFactorSkipped judges against the definition mfaRequired, which reads \(describe(names)): weaken it "
            + "and the route and the property move together; state the requirement in policy: (format 3)",
          definition.line)
      }
    }
  }

  /// Each definition a rule's guard reads, directly or through other definitions, with the
  /// line of the first such rule.
  private func definitionsReadByGuards() -> [String: Int] {
    var rules: [Rule] = model.steps.flatMap { $0.responses.flatMap(\.rules) } + model.routes.flatMap(\.rules)
    rules.sort { $0.line < $1.line }
    var result: [String: Int] = [:]
    for rule in rules {
      for name in closure(of: definitionNames(rule.guardText)) where result[name] == nil { result[name] = rule.line }
    }
    return result
  }

  private func definitionNames(_ text: String) -> [String] {
    let known = Set(model.definitions.map(\.name))
    return Definition.names(in: text).filter(known.contains)
  }

  /// `names` and every definition they read, transitively.
  private func closure(of names: [String]) -> Set<String> {
    var seen = Set<String>()
    var work = names
    while let name = work.popLast() {
      guard seen.insert(name).inserted, let d = model.definitions.first(where: { $0.name == name }) else { continue }
      work += definitionNames(d.text)
    }
    return seen
  }
}
