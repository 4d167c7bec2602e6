import Foundation
import SignInModel

/// Configurations an exclusion keeps out of the check although they cannot reach `done`:
/// for each constraint, those it alone excludes; for each conjunct of `canSignIn`, the valid
/// configurations where it fails. Each is counted exactly, with the steps they reach.
struct ExclusionCheck {
  let model: SignInModel

  /// `explored`: the model's classes, explored with one broken constraint allowed.
  func run(_ explored: [ClassSummary], _ counter: ConfigurationCounter, _ warn: (String, String, String, Int) -> Void) {
    let classes = explored.filter { !$0.doneReachable }
    let constraints = model.constraints.map { ConfigurationCounter.Predicate(side: 0, expr: $0.expr) }
    for (k, c) in model.constraints.enumerated() {
      var predicates = constraints
      predicates[k] = .init(side: 0, expr: c.expr, negated: true)
      // Users the model says can sign in (canSignIn) but who are kept out and stuck.
      if let canSignIn = model.canSignIn { predicates.append(.init(side: 0, expr: canSignIn)) }
      let (count, steps) = tally(classes, counter, predicates)
      if count > 0 {
        warn(
          "excludedConfigurations", c.text,
          "constraint '\(c.text)' excludes \(DiffTextReport.n(count)) configurations that cannot reach done; "
            + "they reach " + steps.joined(separator: ", "), c.line)
      }
    }
    let conjuncts = canSignInConjuncts()
    for (k, (target, expr)) in conjuncts.enumerated() {
      // This conjunct alone keeps them out: every other one holds.
      let others = conjuncts.enumerated().filter { $0.offset != k }.map {
        ConfigurationCounter.Predicate(side: 0, expr: $0.element.1)
      }
      let (count, steps) = tally(classes, counter, constraints + others + [.init(side: 0, expr: expr, negated: true)])
      if count > 0 {
        warn(
          "excludedConfigurations", target,
          "canSignIn excludes (by '\(target)') \(DiffTextReport.n(count)) configurations that cannot reach done; "
            + "they reach " + steps.joined(separator: ", "),
          model.definitions.first { $0.name == "canSignIn" }?.line ?? 0)
      }
    }
  }

  private func tally(
    _ classes: [ClassSummary], _ counter: ConfigurationCounter, _ predicates: [ConfigurationCounter.Predicate]
  ) -> (Double, [String]) {
    let query = counter.query(members: [0], predicates: predicates)
    var total = 0.0
    var reached = Set<Int>()
    for c in classes {
      let n = counter.count(c.assignment, query)
      guard n > 0 else { continue }
      total += n
      reached.formUnion(c.reachedSteps)
    }
    return (total, reached.sorted().filter { $0 != 0 }.map { model.steps[$0].id })
  }

  /// `canSignIn`'s top-level conjuncts with their text: a conjunct `!name` or `name` is
  /// targeted by the definition's name.
  private func canSignInConjuncts() -> [(String, Expr)] {
    guard let expr = model.canSignIn, let text = model.definitions.first(where: { $0.name == "canSignIn" })?.text else {
      return []
    }
    let parts = Self.topLevelConjuncts(text)
    guard case .and(let xs) = expr, xs.count == parts.count else {
      return [(StructuralDiff.normalized(text), expr)]
    }
    return zip(parts, xs).map { part, x in
      var name = part
      if name.hasPrefix("!") { name.removeFirst() }
      name = name.trimmingCharacters(in: .whitespaces)
      let isName = model.definitions.contains { $0.name == name }
      return (isName ? name : part, x)
    }
  }

  static func topLevelConjuncts(_ text: String) -> [String] {
    var parts: [String] = []
    var depth = 0
    var current = ""
    let chars = Array(StructuralDiff.normalized(text))
    var i = 0
    while i < chars.count {
      let c = chars[i]
      if c == "(" || c == "[" { depth += 1 }
      if c == ")" || c == "]" { depth -= 1 }
      if depth == 0 && c == "&" && i + 1 < chars.count && chars[i + 1] == "&" {
        parts.append(current.trimmingCharacters(in: .whitespaces))
        current = ""
        i += 2
        continue
      }
      current.append(c)
      i += 1
    }
    parts.append(current.trimmingCharacters(in: .whitespaces))
    return parts
  }
}
