import ArgumentParser
import ModelChecking
import SignInModel

/// `--invariant` / `--property` (both repeatable, same meaning): which properties to check,
/// validated once the models are loaded, since a model may define its own.
enum PropertySelection {
  /// Per model: every property (built-ins and its own) when no name is given; otherwise the
  /// named ones it has. A name no model defines and no built-in has is exit 64.
  static func resolve(
    invariantNames: [String], propertyNames: [String], models: [SignInModel]
  ) throws -> [ObjectIdentifier: [Invariant]] {
    var result: [ObjectIdentifier: [Invariant]] = [:]
    let names = invariantNames.map { ("--invariant", $0) } + propertyNames.map { ("--property", $0) }
    for (option, name) in names {
      let known =
        Invariant(rawValue: name).isBuiltin || models.contains { m in m.properties.contains { $0.name == name } }
      guard known else {
        let existing = Invariant.builtins.map(\.rawValue) + models.flatMap { $0.properties.map(\.name) }
        let suggestion = Suggestions.closest(to: name, among: existing)
        throw ValidationError(
          "\(option): unknown \(option == "--invariant" ? "invariant" : "property") '\(name)'"
            + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
            + "; known: " + existing.joined(separator: ", "))
      }
    }
    for model in models {
      let all = Invariant.all(for: model)
      if names.isEmpty {
        result[ObjectIdentifier(model)] = all
      } else {
        let chosen = Set(names.map(\.1))
        result[ObjectIdentifier(model)] = all.filter { chosen.contains($0.rawValue) }
      }
    }
    return result
  }
}
