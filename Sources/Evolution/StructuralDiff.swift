import SignInModel

/// One structural difference between two models.
public struct StructuralChange: Sendable, Equatable {
  public enum Kind: String, Sendable { case added, removed, renamed, changed }
  public let kind: Kind
  /// What changed: `step`, `platform`, `platformName`, `configurationVariable`, `flowVariable`,
  /// `value`, `default`, `optionSet`, `option`, `response`, `responseErrors` (the errors a class
  /// carries), `definition`, `constraint`, `route`,
  /// `policy` (a clause of `policy:`), `property` (one of `properties:`).
  public let category: String
  public let name: String
  public let detail: String
  /// The line in NEW (or in OLD for a removal).
  public let line: Int
}

/// Compares two models declaration by declaration; a removed and an added step (or definition,
/// or variable) that say the same is reported as a rename.
public enum StructuralDiff {
  public static func compare(_ old: SignInModel, _ new: SignInModel) -> (
    changes: [StructuralChange], stepRenames: [String: String]
  ) {
    var changes: [StructuralChange] = []
    func add(_ kind: StructuralChange.Kind, _ category: String, _ name: String, _ detail: String, _ line: Int) {
      changes.append(StructuralChange(kind: kind, category: category, name: name, detail: detail, line: line))
    }
    for p in new.platforms where !old.platforms.contains(p) { add(.added, "platform", p, "", 0) }
    for p in old.platforms where !new.platforms.contains(p) { add(.removed, "platform", p, "", 0) }

    // Steps, with renames: same kind and the same rules, by response.
    let oldSteps = Dictionary(old.steps.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let newSteps = Dictionary(new.steps.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    var removedSteps = old.steps.filter { newSteps[$0.id] == nil }
    var renames: [String: String] = [:]
    for step in new.steps where oldSteps[step.id] == nil {
      let signature = Self.signature(step, new)
      if let k = removedSteps.firstIndex(where: { Self.signature($0, old) == signature }) {
        renames[removedSteps[k].id] = step.id
        add(.renamed, "step", step.id, "was '\(removedSteps[k].id)'", step.line)
        removedSteps.remove(at: k)
      } else {
        add(.added, "step", step.id, Self.names(step, platforms: new.platforms), step.line)
      }
    }
    for step in removedSteps { add(.removed, "step", step.id, Self.names(step, platforms: old.platforms), step.line) }
    for step in new.steps {
      guard let before = oldSteps[step.id] ?? old.steps.first(where: { renames[$0.id] == step.id }) else { continue }
      for p in new.platforms {
        let a = before.names.first { $0.platform == p }.map { Self.render($0.form) } ?? "none"
        let b = step.names.first { $0.platform == p }.map { Self.render($0.form) } ?? "none"
        if a != b { add(.changed, "platformName", "\(step.id).\(p)", "\(a) → \(b)", step.line) }
      }
    }

    // Variables, their values and defaults.
    for v in new.variables where old.variableIndex(named: v.name) == nil {
      let category = v.scope == .configuration ? "configurationVariable" : "flowVariable"
      let d =
        v.defaultValue.map { ", default \(v.domain.render($0))" } ?? (v.scope == .configuration ? ", no default" : "")
      add(.added, category, v.name, v.domain.spelling + d, v.line)
    }
    for v in old.variables where new.variableIndex(named: v.name) == nil {
      add(
        .removed, v.scope == .configuration ? "configurationVariable" : "flowVariable", v.name, v.domain.spelling,
        v.line)
    }
    for v in new.variables {
      guard let i = old.variableIndex(named: v.name) else { continue }
      let before = old.variables[i]
      let a = before.domain.values.map { before.domain.render($0) }
      let b = v.domain.values.map { v.domain.render($0) }
      for value in b where !a.contains(value) { add(.added, "value", "\(v.name) = \(value)", "", v.line) }
      for value in a where !b.contains(value) { add(.removed, "value", "\(v.name) = \(value)", "", v.line) }
      let da = before.defaultValue.map { before.domain.render($0) }
      let db = v.defaultValue.map { v.domain.render($0) }
      if da != db { add(.changed, "default", v.name, "\(da ?? "none") → \(db ?? "none")", v.line) }
      if v.scope == .flow && before.initial != v.initial {
        add(
          .changed, "initial", v.name, "\(before.domain.render(before.initial)) → \(v.domain.render(v.initial))", v.line
        )
      }
    }

    // Option sets: a changed list of options is a generation change.
    for set in new.optionSets {
      let line = new.declarationLines["optionSet:\(set.name)"]
      guard let before = old.optionSets.first(where: { $0.name == set.name }) else {
        add(.added, "optionSet", set.name, "[" + set.options.map(\.name).joined(separator: ", ") + "]", line)
        continue
      }
      let a = before.options.map(\.name)
      let b = set.options.map(\.name)
      for o in b where !a.contains(o) {
        add(.added, "option", "\(set.name).\(o)", "", new.declarationLines["option:\(set.name).\(o)"])
      }
      for o in a where !b.contains(o) { add(.removed, "option", "\(set.name).\(o)", "", line) }
      if a != b {
        add(
          .changed, "optionSetGeneration", set.name,
          "[" + a.joined(separator: ", ") + "] → [" + b.joined(separator: ", ") + "]", line)
      }
    }
    for set in old.optionSets where !new.optionSets.contains(where: { $0.name == set.name }) {
      add(.removed, "optionSet", set.name, "", old.declarationLines["optionSet:\(set.name)"])
    }

    let oldResponses = old.responses.map(\.name)
    let newResponses = new.responses.map(\.name)
    for r in newResponses where !oldResponses.contains(r) {
      add(.added, "response", r, "", new.declarationLines["response:\(r)"])
    }
    for r in oldResponses where !newResponses.contains(r) {
      add(.removed, "response", r, "", old.declarationLines["response:\(r)"])
    }
    // The errors a class carries, and what platforms report for each (`errors:`).
    for newClass in new.responses {
      guard let oldClass = old.responses.first(where: { $0.name == newClass.name }) else { continue }
      let oldText = Self.carriedText(oldClass)
      let newText = Self.carriedText(newClass)
      if oldText != newText {
        add(
          .changed, "responseErrors", newClass.name, "(\(oldText) → \(newText))",
          new.declarationLines["response:\(newClass.name)"])
      }
    }
    let oldRoutes = old.routes.map(\.name)
    for r in new.routes where !oldRoutes.contains(r.name) { add(.added, "route", r.name, "", r.line) }
    for r in old.routes where !new.routes.contains(where: { $0.name == r.name }) {
      add(.removed, "route", r.name, "", r.line)
    }

    // Definitions (canSignIn among them), by name, with renames by text.
    var removedDefinitions = old.definitions.filter { d in !new.definitions.contains { $0.name == d.name } }
    for d in new.definitions {
      if let before = old.definitions.first(where: { $0.name == d.name }) {
        if normalized(before.text) != normalized(d.text) {
          add(.changed, "definition", d.name, "\(normalized(before.text)) → \(normalized(d.text))", d.line)
        }
      } else if let k = removedDefinitions.firstIndex(where: { normalized($0.text) == normalized(d.text) }) {
        add(.renamed, "definition", d.name, "was '\(removedDefinitions[k].name)'", d.line)
        removedDefinitions.remove(at: k)
      } else {
        add(.added, "definition", d.name, normalized(d.text), d.line)
      }
    }
    for d in removedDefinitions { add(.removed, "definition", d.name, normalized(d.text), d.line) }

    let oldConstraints = old.constraints.map { normalized($0.text) }
    let newConstraints = new.constraints.map { normalized($0.text) }
    for c in new.constraints where !oldConstraints.contains(normalized(c.text)) {
      add(.added, "constraint", c.text, "", c.line)
    }
    for c in old.constraints where !newConstraints.contains(normalized(c.text)) {
      add(.removed, "constraint", c.text, "", c.line)
    }

    // The policy, clause by clause, and the model's own properties, by name.
    func clauses(_ model: SignInModel) -> [(String, String, Int)] {
      guard let policy = model.policy else { return [] }
      return [("mfa.required", policy.mfaRequired.text, policy.mfaRequired.line)]
        + policy.exemptions.map { ("mfa.exemptions.\($0.name)", $0.text, $0.line) }
    }
    let (oldClauses, newClauses) = (clauses(old), clauses(new))
    for (name, text, line) in newClauses {
      if let before = oldClauses.first(where: { $0.0 == name }) {
        if normalized(before.1) != normalized(text) {
          add(.changed, "policy", name, "\(normalized(before.1)) → \(normalized(text))", line)
        }
      } else {
        add(.added, "policy", name, normalized(text), line)
      }
    }
    for (name, text, line) in oldClauses where !newClauses.contains(where: { $0.0 == name }) {
      add(.removed, "policy", name, normalized(text), line)
    }
    for p in new.properties {
      if let before = old.properties.first(where: { $0.name == p.name }) {
        if normalized(before.statement) != normalized(p.statement) {
          add(.changed, "property", p.name, "\(normalized(before.statement)) → \(normalized(p.statement))", p.line)
        }
      } else {
        add(.added, "property", p.name, normalized(p.statement), p.line)
      }
    }
    for p in old.properties where !new.properties.contains(where: { $0.name == p.name }) {
      add(.removed, "property", p.name, normalized(p.statement), p.line)
    }
    return (changes, renames)
  }

  static func normalized(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
  }

  static func render(_ form: PlatformName.Form) -> String {
    switch form {
    case .name(let n): return n
    case .error(let e): return "thrown as \(e)"
    case .absent(let why): return why.isEmpty ? "absent" : "absent (\(why))"
    }
  }

  static func names(_ step: Step, platforms: [String]) -> String {
    platforms.map { p in "\(p): " + (step.names.first { $0.platform == p }.map { render($0.form) } ?? "no name") }
      .joined(separator: ", ")
  }

  /// The errors a response class carries, each with its platform entries: `NotAuthorizedException
  /// {swift: AuthError.notAuthorized}, …`; empty for a class that carries none.
  static func carriedText(_ responseClass: ResponseClass) -> String {
    responseClass.errors.map { e in
      let entries = e.platforms.map { p -> String in
        switch p.form {
        case .error(let name): return "\(p.platform): \(name)"
        case .signedOut: return "\(p.platform): signedOut"
        }
      }
      return e.exception + (entries.isEmpty ? "" : " {" + entries.joined(separator: ", ") + "}")
    }
    .joined(separator: ", ")
  }

  /// What a step does, without its id: kind, then each response's rules as written.
  private static func signature(_ step: Step, _ model: SignInModel) -> [String] {
    [step.kind.rawValue]
      + step.responses.map { r in
        model.responses[r.response].name + ":"
          + r.rules.map { rule in
            let outcome: String
            switch rule.outcome {
            case .step(let s): outcome = model.steps[s].id == step.id ? "self" : model.steps[s].id
            case .route(let r): outcome = "route " + model.routes[r].name
            case .error(let e): outcome = "error " + e
            case .restart: outcome = "restart"
            }
            return normalized(rule.guardText) + "->" + outcome
          }.joined(separator: "|")
      }.sorted()
  }
}
