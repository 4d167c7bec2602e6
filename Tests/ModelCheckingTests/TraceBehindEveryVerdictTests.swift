import Foundation
import ModelChecking
import Reporting
import SignInModel
import Testing

/// Every kind of violation the explicit engine reports comes with a configuration and the
/// shortest calls from `signIn` to the violating state or route, in every output format.
/// Shortest is checked against an independent breadth-first search that drives
/// `ModelSimulator` through every configuration, or against lengths worked out by hand.
@Suite("A trace behind every verdict")
struct TraceBehindEveryVerdictTests {
  /// A broken small model, the invariant it breaks and what the trace must look like.
  struct Case: Sendable, CustomStringConvertible {
    let name: String
    let invariant: Invariant
    let model: @Sendable () throws -> SignInModel
    /// The shortest length, by hand.
    let length: Int
    /// When set, the independent search must find the same shortest length with this goal.
    let goal: Goal?
    /// What the last call must show.
    let last: String
    var description: String { name }
  }

  /// What the independent search looks for after a call.
  enum Goal: Sendable {
    /// A call whose rules decide no single outcome.
    case undetermined
    /// A call that reaches `done` without an MFA factor.
    case doneWithoutMFA
    /// A call after which a flow variable is outside its domain.
    case outOfDomain
  }

  static let mfaSignIn = """
        correctPassword:
          - when: "pool.mfa == off"
            goto: done
            verifies: firstFactor
          - when: "pool.mfa == required"
            goto: code
            verifies: firstFactor
    """
  static let wrongCode = """
          wrongCode:
            - when: "flow.tries < 2"
              error: CodeMismatchException
              set: {flow.tries: "flow.tries + 1"}
            - when: "flow.tries == 2"
              restart: lockout
    """

  static let cases: [Case] = [
    Case(
      name: "deterministic: two rules match at signIn", invariant: .deterministic,
      model: {
        try smallModel(
          signIn: "    correctPassword:\n      - goto: done\n        verifies: firstFactor\n"
            + "      - when: \"pool.mfa == required\"\n        goto: code\n        verifies: firstFactor",
          steps: "  code:\n    responses:\n      correctCode:\n        - goto: done\n          verifies: mfa")
      }, length: 1, goal: .undetermined, last: "signIn(correctPassword) -> undetermined"),
    Case(
      name: "deterministic: no rule of a route matches, two calls deep", invariant: .deterministic,
      model: {
        try smallModel(
          signIn: mfaSignIn,
          steps: "  code:\n    responses:\n      correctCode:\n        - goto: afterMFA\n          verifies: mfa\n"
            + wrongCode,
          routes: "routes:\n  afterMFA:\n    - when: \"user.phone\"\n      goto: done")
      }, length: 2, goal: .undetermined, last: "confirmSignIn(correctCode) -> undetermined route 'afterMFA'"),
    Case(
      name: "terminates: a dead end at signIn", invariant: .terminates,
      model: {
        try smallModel(
          signIn: "    correctPassword:\n      - when: \"pool.mfa == required\"\n        goto: code\n"
            + "        verifies: firstFactor",
          steps: "  code:\n    responses:\n      correctCode:\n        - goto: done\n          verifies: mfa")
      }, length: 1, goal: .undetermined, last: "signIn(correctPassword) -> undetermined"),
    Case(
      name: "terminates: a cycle", invariant: .terminates,
      model: {
        try smallModel(
          signIn: mfaSignIn,
          steps: "  code:\n    responses:\n      correctCode:\n        - goto: done\n          verifies: mfa\n"
            + "      wrongCode:\n        - error: CodeMismatchException")
      }, length: 2, goal: nil, last: "confirmSignIn(wrongCode) -> error CodeMismatchException"),
    Case(
      name: "noFactorSkipped: done without MFA", invariant: .noFactorSkipped,
      model: {
        try smallModel(
          signIn: "    correctPassword:\n      - goto: done\n        verifies: firstFactor",
          steps: "  code:\n    responses:\n      correctCode:\n        - goto: done\n          verifies: mfa")
      }, length: 1, goal: .doneWithoutMFA, last: "signIn(correctPassword) -> done"),
    Case(
      name: "staysInDomain: a count past its range", invariant: .staysInDomain,
      model: {
        try smallModel(
          signIn: mfaSignIn,
          steps: "  code:\n    responses:\n      correctCode:\n        - goto: done\n          verifies: mfa\n"
            + wrongCode.replacingOccurrences(of: "< 2", with: "< 3").replacingOccurrences(of: "== 2", with: "== 3"))
      }, length: 4, goal: .outOfDomain, last: "confirmSignIn(wrongCode) -> error CodeMismatchException"),
    Case(
      name: "isSignedInIffDone: a step that claims to be signed in", invariant: .isSignedInIffDone,
      model: {
        try smallModel(
          signIn: mfaSignIn,
          steps: "  code:\n    isSignedIn: true\n    responses:\n      correctCode:\n        - goto: done\n"
            + "          verifies: mfa\n" + wrongCode)
      }, length: 1, goal: nil, last: "signIn(correctPassword) -> code"),
    Case(
      name: "failAuthenticationRestarts: a failed trigger that goes on", invariant: .failAuthenticationRestarts,
      model: {
        try smallModel(
          definitions: "  canSignIn: \"true\"",
          signIn: "    correctPassword:\n      - goto: custom\n        verifies: firstFactor",
          steps: "  custom:\n    responses:\n      correctAnswer:\n        - goto: done\n"
            + "      failingAnswer:\n        - when: \"flow.tries < 2\"\n          error: NotAuthorizedException\n"
            + "          failAuthentication: true\n          set: {flow.tries: \"flow.tries + 1\"}\n"
            + "        - when: \"flow.tries == 2\"\n          restart: gave up\n          failAuthentication: true")
      }, length: 3, goal: nil, last: "confirmSignIn(correctAnswer) -> done"),
    Case(
      name: "offersAreUsable: SMS offered to a user without a phone", invariant: .offersAreUsable,
      model: {
        try smallModel(
          signIn: "    correctPassword:\n      - goto: select\n        verifies: firstFactor",
          steps: "  select:\n    offers:\n      from: mfaType\n      when:\n        SMS: \"true\"\n"
            + "    responses:\n      selectSMS:\n        - when: \"offered(SMS)\"\n          goto: done\n"
            + "          verifies: mfa\n        - when: \"!offered(SMS)\"\n          restart: not offered")
      }, length: 1, goal: nil, last: "signIn(correctPassword) -> select"),
    Case(
      name: "stepsReachable: a step every way into is blocked", invariant: .stepsReachable,
      model: {
        try smallModel(
          signIn: "    correctPassword:\n      - when: \"pool.mfa == off || pool.mfa == required\"\n"
            + "        goto: done\n        verifies: firstFactor\n"
            + "      - when: \"pool.mfa == required && false\"\n        goto: code\n        verifies: firstFactor",
          steps: "  code:\n    responses:\n      correctCode:\n        - goto: done\n          verifies: mfa")
      }, length: 1, goal: nil, last: "signIn(correctPassword) -> done"),
    Case(
      name: "doneReachable: the furthest point and the rule that blocks it", invariant: .doneReachable,
      model: {
        try smallModel(
          definitions: "  mfaRequired: \"pool.mfa == required\"\n  canSignIn: \"true\"", signIn: mfaSignIn,
          steps: "  code:\n    responses:\n      correctCode:\n        - when: \"user.phone\"\n          goto: done\n"
            + "          verifies: mfa\n        - when: \"!user.phone\"\n          restart: no phone\n" + wrongCode)
      }, length: 2, goal: nil, last: "confirmSignIn(correctCode) -> restart no phone"),
  ]

  static func counterexample(_ c: Case) throws -> (CheckReport, Counterexample) {
    let report = ExplicitChecker(model: try c.model(), jobs: 1).check()
    let found = try #require(report.counterexample(c.invariant), "\(c.name): no violation of \(c.invariant)")
    return (report, found)
  }

  @Test("the trace starts at signIn, is shortest and ends in the violation", arguments: cases)
  func shortestTrace(c: Case) throws {
    let (report, found) = try Self.counterexample(c)
    #expect(found.steps.first?.call == "signIn" && found.steps.first?.stepBefore == "signIn")
    #expect(found.length == c.length, "\(found.calls)")
    #expect(found.calls.last?.hasPrefix(c.last) == true, "\(found.calls)")
    #expect(found.configuration.count == report.model.configurationIndices.count, "the configuration is shown")
    if let goal = c.goal {
      #expect(try Self.shortest(goal, in: report.model) == found.length, "an independent search agrees")
    }
    // Every call but a route-level last one is a real transition of the model, replayed as such.
    var configuration: [String: String] = [:]
    for a in found.configuration {
      let domain = report.model.variables[report.model.variableIndex(named: a.variable)!].domain
      configuration[a.variable] = a.value ?? domain.render(domain.values[0])
    }
    var simulator = try ModelSimulator(model: report.model, configuration: configuration)
    for step in found.steps {
      var outcome: TraceOutcome? = nil
      do { outcome = try simulator.respond(step.response) } catch {
        #expect(error == .notDeterministic(step.place), "only a route-level last call has no single outcome")
      }
      if outcome != nil { #expect(outcome == step.outcome) }
    }
  }

  @Test("route-level findings end in the route itself, with the rule lines that do not decide")
  func routeLevel() throws {
    let (_, found) = try Self.counterexample(Self.cases[1])
    let last = try #require(found.steps.last)
    #expect(last.outcome == .undetermined("route 'afterMFA': no rule matches"))
    #expect(!last.ruleLines.isEmpty, "the route's rules are named")
    #expect(found.value(of: "user.phone") == .some("false"))
  }

  @Test("doneReachable names the furthest step reached, its line and the guard that blocks done")
  func doneReachableExplained() throws {
    let (_, found) = try Self.counterexample(Self.cases[10])
    #expect(found.message.contains("the furthest step reached is 'code' (small.yaml:"))
    #expect(found.message.contains("(when \"user.phone\")"))
    #expect(found.message.hasSuffix("every path ends in restart: no phone or restart: lockout"))
    #expect(found.value(of: "user.phone") == .some("false") && found.value(of: "pool.mfa") == .some("required"))
  }

  @Test("stepsReachable names the step, its line and the guard on every way into it")
  func vacuityExplained() throws {
    let (_, found) = try Self.counterexample(Self.cases[9])
    #expect(found.message.hasPrefix("unreachable under every configuration: 'code' (small.yaml:"))
    #expect(
      found.message.hasSuffix(
        "every way in is blocked: from 'signIn' on correctPassword, the rule at small.yaml:27 "
          + "(when \"pool.mfa == required && false\")"))
  }

  @Test("every output format carries the whole trace", arguments: cases)
  func everyFormat(c: Case) throws {
    let (report, found) = try Self.counterexample(c)
    let first = "1. \(found.steps[0].call)(\(found.steps[0].response))"
    let lastCall = "\(found.length). \(found.steps.last!.call)(\(found.steps.last!.response))"
    let text = TextReport.render(report)
    #expect(text.contains("shortest counterexample, \(found.length) call"))
    #expect(text.contains(first) && text.contains(lastCall))
    #expect(JUnitReport.render([report]).contains(lastCall))
    #expect(VerifyFindings.markdown([report]).contains(lastCall))

    let json = try #require(
      try JSONSerialization.jsonObject(
        with: Data(JSONReport(reports: [report], version: "test").encoded().utf8)) as? [String: Any])
    let invariants = ((json["models"] as? [[String: Any]])?.first?["invariants"] as? [[String: Any]]) ?? []
    let entry = try #require(invariants.first { $0["name"] as? String == c.invariant.rawValue })
    let steps = ((entry["counterexample"] as? [String: Any])?["steps"] as? [Any]) ?? []
    #expect(steps.count == found.length)

    let sarif = try #require(
      try JSONSerialization.jsonObject(
        with: Data(VerifyFindings.sarif([report], toolVersion: "test").encoded().utf8)) as? [String: Any])
    let results = ((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
    let result = try #require(results.first { $0["ruleId"] as? String == c.invariant.rawValue })
    let flow =
      (((result["codeFlows"] as? [[String: Any]])?.first?["threadFlows"] as? [[String: Any]])?.first?[
        "locations"] as? [Any]) ?? []
    #expect(flow.count == found.length, "SARIF codeFlows hold every call")
  }

  // MARK: - An independent search

  /// The fewest calls, over every configuration, after which `goal` holds: a breadth-first
  /// search that drives `ModelSimulator` with every response each step accepts.
  static func shortest(_ goal: Goal, in model: SignInModel) throws -> Int? {
    var best: Int? = nil
    for configuration in allConfigurations(model) {
      guard let start = try? ModelSimulator(model: model, configuration: configuration) else { continue }
      var seen = Set<[Int]>()
      var frontier = [start]
      var depth = 0
      search: while !frontier.isEmpty && depth < 20 {
        depth += 1
        var next: [ModelSimulator] = []
        for state in frontier {
          guard let s = state.step, !model.steps[s].isTerminal else { continue }
          for accepted in model.steps[s].responses {
            var after = state
            do {
              let outcome = try after.respond(model.responses[accepted.response].name)
              if reached(goal, after, outcome, model) {
                best = min(best ?? depth, depth)
                break search
              }
            } catch {
              if case .notDeterministic = error, goal == .undetermined {
                best = min(best ?? depth, depth)
                break search
              }
              continue
            }
            if after.step != nil, seen.insert(after.valuation + [after.step!]).inserted { next.append(after) }
          }
        }
        frontier = next
      }
    }
    return best
  }

  static func reached(_ goal: Goal, _ state: ModelSimulator, _ outcome: TraceOutcome, _ model: SignInModel) -> Bool {
    switch goal {
    case .undetermined: return false
    case .doneWithoutMFA:
      guard case .step(let id) = outcome, model.steps[model.stepIndex(named: id)!].kind == .signedIn else {
        return false
      }
      return state.valuation[model.builtins.mfaVerified] == 0
        && (try? model.mfaRequired?.holds(state.valuation)) == true
    case .outOfDomain:
      return model.flowIndices.contains { !model.variables[$0].domain.contains(state.valuation[$0]) }
    }
  }

  static func allConfigurations(_ model: SignInModel) -> [[String: String]] {
    var result: [[String: String]] = [[:]]
    for i in model.configurationIndices {
      let variable = model.variables[i]
      result = result.flatMap { partial in
        variable.domain.values.map { partial.merging([variable.name: variable.domain.render($0)]) { $1 } }
      }
    }
    return result
  }
}

extension TraceStep {
  /// The place an `undetermined` call names, as `ModelSimulator` reports it.
  var place: String {
    guard case .undetermined(let what) = outcome, let colon = what.range(of: ": ", options: .backwards) else {
      return ""
    }
    return String(what[..<colon.lowerBound])
  }
}
