import ModelChecking
import SignInModel

/// `signin-spec lint MODEL`: values no guard compares, options nothing selects, steps without a
/// platform's name, unused or unreachable steps, responses, definitions and routes, and
/// configurations that an exclusion (`canSignIn`, a constraint) keeps out although they cannot
/// reach `done` — so an exclusion never hides a new dead end unnoticed.
public struct Linter {
  public let model: SignInModel
  /// Per thread exploring the classes beside the checks, its own copy of the model
  /// (`ModelLoader.copyForThread`); none: the classes are explored on the calling thread.
  public var copies: [SignInModel] = []
  /// With copies, the most classes explored ahead of the checks (`ClassExplorer.explore(copies:)`).
  public var bufferedClasses = ClassExplorer.defaultBufferedClasses
  /// The most configuration classes explored (`lint --max-classes`): past it the rules that read
  /// every class (`classReadingRules`) are not checked, and the warning `classLimit` says so.
  /// 200,000 classes of 30 independent flags took about 250 MB.
  public var maxClasses = Linter.defaultMaxClasses
  /// The most bytes the classes waiting to be explored may hold (`lint --max-pending-memory`):
  /// past it lint stops as at `maxClasses`.
  public var maxPendingBytes = PendingMemory.defaultLimitMegabytes << 20

  /// The rules whose check reads every configuration class: not checked past `maxClasses` or
  /// `maxPendingBytes` (the warning `classLimit`).
  public static let classReadingRules: Set<String> = [
    "stepNeverTargeted", "stepUnreachable", "responseAcceptedNowhere", "responseUnreachable", "routeUnused",
    "excludedConfigurations",
  ]

  /// 200,000: the shipped 2026 model and the voice example have about 30,000 classes; 30
  /// independent flags each read by a guard have 2^30, which ran past 60 s and 6 GB.
  public static let defaultMaxClasses = 200_000

  public init(model: SignInModel) { self.model = model }

  public func warnings() -> [LintWarning] {
    var found: [(String, String, String, Int)] = []
    func warn(_ rule: String, _ target: String, _ message: String, _ line: Int) {
      found.append((rule, target, message, line))
    }
    let guards = allGuards()
    valuesNeverCompared(guards, warn)
    optionsNeverSelected(warn)
    for step in model.steps where step.kind != .entry {
      for p in model.platforms where !step.names.contains(where: { $0.platform == p }) {
        warn("missingPlatformName", "\(step.id).\(p)", "step '\(step.id)' has no name on \(p)", step.line)
      }
    }
    // Every class of the model, including those one constraint alone excludes.
    let space = JointSpace([model])
    let counter = ConfigurationCounter(space: space)
    // Each class is tallied as it is explored and not kept: a class of a model with many
    // variables and steps holds kilobytes, and lint may explore `maxClasses` of them.
    var reachability = ReachabilityTally(counter: counter)
    var exclusions = ExclusionCheck(model: model, counter: counter)
    // Lint reads no transition of a class, so the explorer keeps none (nor the search tree).
    let explorer = ClassExplorer(
      space: space, brokenConstraintsAllowed: 1, recordsTransitions: false,
      pending: PendingMemory(limitBytes: maxPendingBytes))
    var explored = 0
    var limited = false
    explorer.explore(copies: copies.map { [$0] }, bufferedClasses: bufferedClasses) { c in
      explored += 1
      guard explored <= maxClasses else {
        limited = true
        explorer.stop.request()
        return
      }
      guard let b = c.behaviours[0] else { return }
      let summary = ClassSummary(
        assignment: c.assignment, doneReachable: b.doneReachable, reachedSteps: b.reachedSteps,
        responsesGiven: b.responsesGiven)
      reachability.add(summary)
      exclusions.add(summary)
    }
    let unchecked =
      "unreachable and unused steps, responses and routes and the exclusion check were not checked: "
      + "raise the limit to check them"
    if limited {
      warn(
        "classLimit", "classes", "lint stopped after \(maxClasses) configuration classes (--max-classes); " + unchecked,
        1)
    } else if explorer.pending.exceeded {
      warn(
        "classLimit", "classes",
        "lint stopped when \(explorer.pending.exceededText); " + unchecked, 1)
    } else {
      referencesAndReachability(reachability, warn)
      exclusions.report(warn)
    }
    for d in model.definitions where d.uses == 0 && d.name != "canSignIn" && d.name != "mfaRequired" {
      warn(
        "definitionUnused", d.name, "definition '\(d.name)' is used by no guard, option, constraint or definition",
        d.line)
    }
    judges(warn)
    return found.map { rule, target, message, line in
      let ack = model.lintAcknowledgements.first { $0.rule == rule && $0.target == target }
      return LintWarning(
        rule: rule, target: target, message: message, file: model.file, line: line, acknowledged: ack?.reason)
    }.sorted { ($0.line, $0.rule, $0.target) < ($1.line, $1.rule, $1.target) }
  }

  /// Acknowledgements that match no warning (stale `lint:` entries); after `classLimit`, none of
  /// a rule that was not checked (`classReadingRules`).
  public func staleAcknowledgements(_ warnings: [LintWarning]) -> [LintAcknowledgement] {
    let limited = warnings.contains { $0.rule == "classLimit" }
    return model.lintAcknowledgements.filter { a in
      !(limited && Self.classReadingRules.contains(a.rule))
        && !warnings.contains { $0.rule == a.rule && $0.target == a.target }
    }
  }

  private func allGuards() -> [Expr] {
    var exprs: [Expr] = []
    for step in model.steps {
      for r in step.responses {
        for rule in r.rules {
          exprs.append(rule.guardExpr)
          exprs += rule.effects.map(\.value)
        }
      }
      if let offers = step.offers { exprs += offers.conditions.map(\.when) }
    }
    for route in model.routes {
      for rule in route.rules {
        exprs.append(rule.guardExpr)
        exprs += rule.effects.map(\.value)
      }
    }
    return exprs + [model.canSignIn, model.mfaRequirement].compactMap { $0 }
  }

  private func valuesNeverCompared(_ guards: [Expr], _ warn: (String, String, String, Int) -> Void) {
    var compared: [Int: Set<Int>] = [:]
    func visit(_ e: Expr) {
      switch e {
      case .equal(.variable(let i), .constant(let v)), .equal(.constant(let v), .variable(let i)),
        .notEqual(.variable(let i), .constant(let v)), .notEqual(.constant(let v), .variable(let i)):
        compared[i, default: []].insert(v)
      case .member(.variable(let i), let vs): compared[i, default: []].formUnion(vs)
      default: break
      }
      switch e {
      case .constant, .variable: break
      case .not(let a), .member(let a, _): visit(a)
      case .and(let xs), .or(let xs): xs.forEach(visit)
      case .implies(let a, let b), .equal(let a, let b), .notEqual(let a, let b), .less(let a, let b),
        .lessOrEqual(let a, let b), .add(let a, let b), .subtract(let a, let b):
        visit(a)
        visit(b)
      }
    }
    guards.forEach(visit)
    for i in model.configurationIndices {
      let v = model.variables[i]
      guard case .enumeration(let names) = v.domain else { continue }
      let seen = compared[i] ?? []
      guard !seen.isEmpty else { continue }  // a variable no guard reads at all is reported nowhere else; see below
      for (k, name) in names.enumerated() where !seen.contains(k) {
        warn(
          "valueNeverCompared", "\(v.name)=\(name)",
          "value '\(name)' of '\(v.name)' is compared by no guard; it behaves like whatever the guards' else gives",
          v.line)
      }
    }
  }

  private func optionsNeverSelected(_ warn: (String, String, String, Int) -> Void) {
    for (k, set) in model.optionSets.enumerated() {
      let offering = model.steps.filter { $0.offers?.optionSet == k }
      let offered = Set(offering.flatMap { $0.offers?.conditions.map(\.option) ?? [] })
      for (o, option) in set.options.enumerated() {
        let line = model.declarationLines["option:\(set.name).\(option.name)"]
        let selected = offering.contains { step in
          step.responses.contains { r in r.rules.contains { Self.selects($0.guardText, option.name) && !$0.keepsFlow } }
        }
        if !selected {
          let where_ =
            offering.isEmpty
            ? "no step offers the set"
            : (offered.contains(o)
              ? "offered by " + offering.map(\.id).joined(separator: ", ") : "never offered")
          warn(
            "optionNeverSelected", "\(set.name).\(option.name)",
            "option '\(option.name)' of '\(set.name)' is selected by no response (\(where_))", line)
        }
      }
    }
  }

  /// `offered(NAME)` occurs in the guard other than negated.
  static func selects(_ guardText: String, _ option: String) -> Bool {
    let needle = "offered(\(option))"
    var rest = guardText[...]
    while let r = rest.range(of: needle) {
      let before = rest[..<r.lowerBound].reversed().first { $0 != " " }
      if before != "!" && !rest[..<r.lowerBound].hasSuffix("not ") { return true }
      rest = rest[r.upperBound...]
    }
    return false
  }

  private func referencesAndReachability(
    _ tally: ReachabilityTally, _ warn: (String, String, String, Int) -> Void
  ) {
    var targetedSteps = Set<Int>()
    var targetedRoutes = Set<Int>()
    var accepted = Set<Int>()
    let allRules = model.steps.flatMap { $0.responses.flatMap(\.rules) } + model.routes.flatMap(\.rules)
    for rule in allRules {
      if case .step(let s) = rule.outcome { targetedSteps.insert(s) }
      if case .route(let r) = rule.outcome { targetedRoutes.insert(r) }
    }
    for step in model.steps where !step.isTerminal { for r in step.responses { accepted.insert(r.response) } }
    for (i, route) in model.routes.enumerated() where !targetedRoutes.contains(i) {
      warn("routeUnused", route.name, "route '\(route.name)' is named by no rule", route.line)
    }
    for (r, response) in model.responses.enumerated() where !accepted.contains(r) {
      warn(
        "responseAcceptedNowhere", response.name, "response '\(response.name)' is accepted at no step",
        model.declarationLines["response:\(response.name)"])
    }
    // Reachability over every configuration class of the model.
    let reached = tally.reached
    let usedResponses = Set(tally.usedResponses.map { model.responses[$0].name })
    for (s, step) in model.steps.enumerated() where s != 0 {
      if !targetedSteps.contains(s) {
        warn("stepNeverTargeted", step.id, "step '\(step.id)' is the goto: of no rule", step.line)
      } else if !reached.contains(s) {
        warn("stepUnreachable", step.id, "step '\(step.id)' is reached in no configuration", step.line)
      }
    }
    for (r, response) in model.responses.enumerated()
    where accepted.contains(r) && !usedResponses.contains(response.name) {
      warn(
        "responseUnreachable", response.name,
        "response '\(response.name)' is accepted only at steps no configuration reaches",
        model.declarationLines["response:\(response.name)"])
    }
  }
}

extension Rule {
  /// A rule that keeps the flow on `step` (an error to retry, or a restart).
  var keepsFlow: Bool {
    switch outcome {
    case .error, .restart: return true
    case .step, .route: return false
    }
  }
}

/// What lint reads of a configuration class as it is explored.
struct ClassSummary {
  let assignment: [Int]
  let doneReachable: Bool
  let reachedSteps: [Int]
  /// By response index: whether the class gives it at a step it reaches.
  let responsesGiven: [Bool]
}

/// The steps and responses the model's valid classes reach, tallied class by class.
struct ReachabilityTally {
  private let counter: ConfigurationCounter
  private let query: ConfigurationCounter.Query
  /// The steps some valid class reaches.
  private(set) var reached = Set<Int>()
  /// The responses (by index) some valid class gives.
  private(set) var usedResponses = Set<Int>()

  init(counter: ConfigurationCounter) {
    self.counter = counter
    query = counter.query(members: [0], predicates: counter.constraints(of: [0]))
  }

  /// Tallies a class explored with one broken constraint allowed: only a valid one counts.
  mutating func add(_ c: ClassSummary) {
    guard counter.count(c.assignment, query) > 0 else { return }
    reached.formUnion(c.reachedSteps)
    for (r, given) in c.responsesGiven.enumerated() where given { usedResponses.insert(r) }
  }
}
