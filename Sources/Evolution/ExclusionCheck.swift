import Foundation
import SignInModel

/// Configurations an exclusion keeps out of the check although they cannot reach `done`:
/// for each constraint, those it alone excludes; for each conjunct of `canSignIn`, the valid
/// configurations where it fails. Each is counted exactly, with the steps they reach, class by
/// class as lint explores them (`add`), so no class is kept.
struct ExclusionCheck {
  let model: SignInModel
  private let counter: ConfigurationCounter
  /// One per exclusion: its warning's target, the start of its message, its line, and the
  /// query counting the configurations it alone excludes.
  private let exclusions: [(target: String, message: String, line: Int, query: ConfigurationCounter.Query)]
  /// Per exclusion: the configurations counted so far, and the steps they reach.
  private var totals: [Double]
  private var reached: [Set<Int>]

  init(model: SignInModel, counter: ConfigurationCounter) {
    self.model = model
    self.counter = counter
    var exclusions: [(target: String, message: String, line: Int, query: ConfigurationCounter.Query)] = []
    let constraints = model.constraints.map { ConfigurationCounter.Predicate(side: 0, expr: $0.expr) }
    for (k, c) in model.constraints.enumerated() {
      var predicates = constraints
      predicates[k] = .init(side: 0, expr: c.expr, negated: true)
      // Users the model says can sign in (canSignIn) but who are kept out and stuck.
      if let canSignIn = model.canSignIn { predicates.append(.init(side: 0, expr: canSignIn)) }
      exclusions.append(
        (c.text, "constraint '\(c.text)' excludes", c.line, counter.query(members: [0], predicates: predicates)))
    }
    let conjuncts = Self.canSignInConjuncts(model)
    let line = model.definitions.first { $0.name == "canSignIn" }?.line ?? 0
    for (k, (target, expr)) in conjuncts.enumerated() {
      // This conjunct alone keeps them out: every other one holds.
      let others = conjuncts.enumerated().filter { $0.offset != k }.map {
        ConfigurationCounter.Predicate(side: 0, expr: $0.element.1)
      }
      let predicates = constraints + others + [.init(side: 0, expr: expr, negated: true)]
      exclusions.append(
        (target, "canSignIn excludes (by '\(target)')", line, counter.query(members: [0], predicates: predicates)))
    }
    self.exclusions = exclusions
    totals = Array(repeating: 0, count: exclusions.count)
    reached = Array(repeating: [], count: exclusions.count)
  }

  /// Tallies a class explored with one broken constraint allowed: only one that cannot reach
  /// `done` counts.
  mutating func add(_ c: ClassSummary) {
    guard !c.doneReachable else { return }
    for (k, exclusion) in exclusions.enumerated() {
      let n = counter.count(c.assignment, exclusion.query)
      guard n > 0 else { continue }
      totals[k] += n
      reached[k].formUnion(c.reachedSteps)
    }
  }

  /// Warns of each exclusion that keeps out a configuration that cannot reach `done`.
  func report(_ warn: (String, String, String, Int) -> Void) {
    for (k, exclusion) in exclusions.enumerated() where totals[k] > 0 {
      let steps = reached[k].sorted().filter { $0 != 0 }.map { model.steps[$0].id }
      warn(
        "excludedConfigurations", exclusion.target,
        "\(exclusion.message) \(DiffTextReport.n(totals[k])) configurations that cannot reach done; "
          + "they reach " + steps.joined(separator: ", "), exclusion.line)
    }
  }

  /// `canSignIn`'s top-level conjuncts with their text: a conjunct `!name` or `name` is
  /// targeted by the definition's name.
  private static func canSignInConjuncts(_ model: SignInModel) -> [(String, Expr)] {
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
