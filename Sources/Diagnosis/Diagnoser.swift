import ModelChecking
import Recordings
import SignInModel

/// Which configurations of a model explain one user's recorded calls: a search over the model's
/// transition system that starts with every configuration variable unassigned and forks on one
/// only when a rule the calls reach reads it (as the explicit engine does), keeping each state
/// whose model outcome matches what the call showed for some response class the call could be.
package struct Diagnoser: Sendable {
  package let system: TransitionSystem
  package var model: SignInModel { system.model }
  /// The most states one call may have (the search is inconclusive past it).
  package let maxStates: Int
  let counter: ExplicitChecker

  package static let defaultMaxStates = 200_000
  /// The platform whose step names the verdicts use (`swift`, `js`, `android`, `flutter`; nil:
  /// the model's step ids).
  package let platform: String?

  /// The exceptions the model's rules name (errors and restarts' exceptions): a Cognito error
  /// of one of these is never the model's passed-through service error.
  let namedExceptions: Set<String>

  package init(model: SignInModel, maxStates: Int = defaultMaxStates, platform: String? = nil) {
    let system = TransitionSystem(model: model)
    self.system = system
    self.maxStates = maxStates
    self.platform = platform
    counter = ExplicitChecker(model: model)
    var named = Set<String>()
    for branch in system.branches {
      if case .error(let name) = branch.outcome { named.insert(name) }
      if let exception = branch.exception { named.insert(exception) }
    }
    named.subtract(["ServiceError", "NetworkError", "SignInError.invalidServiceResponse"])
    namedExceptions = named
  }

  /// A step as the verdicts name it: the platform's name for it, else its model id.
  package func stepName(_ step: Int) -> String { model.displayName(ofStep: step, platform: platform) }

  /// A model state the search carries: a valuation (configuration variables possibly unassigned)
  /// and the step (nil after a restart).
  struct State: Hashable {
    var valuation: [Int]
    var step: Int?
  }

  /// The verdict on one user's calls.
  package struct Verdict: Sendable {
    package enum Kind: String, Sendable { case consistent, inconsistent, inconclusive }
    package var kind: Kind
    /// How many configurations explain the calls (consistent), as a count.
    package var count: Double = 0
    /// For each configuration variable the explaining configurations do not leave free, the
    /// values they take (by name).
    package var values: [String: [String]] = [:]
    /// The call where no configuration explains the recording any more.
    package var failingCall: ObservedCall?
    /// The request reported: the call's last when what it showed is what no configuration
    /// explains (its answer came with that request), its first when the call itself does not fit.
    package var failingRequest: RecordedExchange?
    /// What the model allows there, over the configurations still possible.
    package var allowed: [String] = []
    /// The model lines of the rules involved there.
    package var ruleLines: [Int] = []
    /// Why the search stopped (inconclusive).
    package var reason: String?
    /// For a recording that starts mid-flow, the steps its first request could answer (the
    /// search starts there); empty when it starts with a sign-in.
    package var midFlow: [String] = []
  }

  /// Diagnoses `calls` (one user's, in order).
  package func diagnose(_ calls: [ObservedCall]) -> Verdict {
    var initial = [Int](repeating: unassigned, count: model.variables.count)
    for i in model.flowIndices { initial[i] = model.variables[i].initial }
    var states: Set<State> = [State(valuation: initial, step: nil)]
    var midFlow: [String] = []
    if let first = calls.first, first.moves.first != .signIn, let answers = first.answers {
      // A recording that starts mid-flow: its first call answers one of these steps, reached by
      // requests it does not hold (whether the configuration reaches them is not checked).
      let steps = model.steps.indices.filter { answers.contains(model.steps[$0].id) }
      states = Set(steps.map { State(valuation: initial, step: $0) })
      midFlow = steps.map(stepName)
    }
    var verdict = search(calls, from: states)
    verdict.midFlow = midFlow
    return verdict
  }

  /// `diagnose` from `states`.
  func search(_ calls: [ObservedCall], from start: Set<State>) -> Verdict {
    var states = start
    for call in calls {
      var next = Set<State>()
      var allowed = Set<String>()
      var lines = Set<Int>()
      var outcomeChecked = false
      var work = Array(states)
      var visited = 0
      while let state = work.popLast() {
        visited += 1
        if visited > maxStates {
          return Verdict(
            kind: .inconclusive, reason: "more than \(maxStates) model states at request \(call.request) (--max-states)"
          )
        }
        guard mayHold(state.valuation) else { continue }
        // What the requests show of the configuration: fork on it, keeping the values shown.
        if let (variable, values) = shown(call, in: state.valuation) {
          for value in values {
            var child = state
            child.valuation[variable] = value
            work.append(child)
          }
          continue
        }
        guard agrees(call, state.valuation) else {
          allowed.insert(
            "a configuration whose " + call.settings.keys.sorted().joined(separator: " and ") + " the request shows")
          continue
        }
        switch advance(state, call, 0, &allowed, &lines, &outcomeChecked) {
        case .fork(let variable):
          for value in model.variables[variable].domain.values {
            var child = state
            child.valuation[variable] = value
            work.append(child)
          }
        case .done(let reached):
          next.formUnion(reached)
        }
      }
      if next.isEmpty {
        return Verdict(
          kind: .inconsistent, failingCall: call,
          failingRequest: outcomeChecked ? call.exchanges.last : call.exchanges.first,
          allowed: allowed.sorted(), ruleLines: lines.sorted())
      }
      states = next
    }
    return summary(of: states)
  }

  /// The first variable `call` shows a value of that `valuation` leaves unassigned, with the
  /// values it may take (those of the model's domain it names).
  func shown(_ call: ObservedCall, in valuation: [Int]) -> (Int, [Int])? {
    for (name, texts) in call.settings.sorted(by: { $0.key < $1.key }) {
      guard let i = system.configurationIndex[name], valuation[i] == unassigned else { continue }
      return (i, texts.compactMap { system.valueOfText[i][$0] }.sorted())
    }
    return nil
  }

  /// Whether `valuation` takes the values `call` shows (a variable the model lacks is no condition).
  func agrees(_ call: ObservedCall, _ valuation: [Int]) -> Bool {
    call.settings.allSatisfy { name, texts in
      guard let i = system.configurationIndex[name] else { return true }
      return texts.contains { system.valueOfText[i][$0] == valuation[i] }
    }
  }

  enum Advance {
    case fork(Int)
    case done(Set<State>)
  }

  /// The states `call`'s moves from `index` on lead to from `state`, or the variable to fork on.
  func advance(
    _ state: State, _ call: ObservedCall, _ index: Int, _ allowed: inout Set<String>, _ lines: inout Set<Int>,
    _ outcomeChecked: inout Bool
  ) -> Advance {
    var state = state
    let last = index == call.moves.count - 1
    let classes: Set<String>?
    switch call.moves[index] {
    case .signIn:
      for i in model.flowIndices { state.valuation[i] = model.variables[i].initial }
      state.step = 0
      classes = nil
    case .answer(let given):
      classes = given
    case .answerNot(let excluded):
      let step = state.step.map { model.steps[$0] }
      classes = Set(
        (step?.responses ?? []).map { model.responses[$0.response].name }.filter {
          !excluded.contains($0) && !CallReader.selections.contains($0)
        })
    }
    guard let step = state.step, !model.steps[step].isTerminal else {
      allowed.insert("no answer: the flow has ended (a new signIn is needed)")
      return .done([])
    }
    if call.moves[index] != .signIn, step == 0 {
      allowed.insert("no answer: the flow is at \(stepName(0))")
      return .done([])
    }
    if index == 0, let answers = call.answers, !answers.contains(model.steps[step].id) {
      allowed.insert("an answer to \(stepName(step)), not to another step")
      return .done([])
    }
    var reached = Set<State>()
    for slot in model.steps[step].responses.indices {
      let name = model.responses[model.steps[step].responses[slot].response].name
      if let classes {
        guard classes.contains(name) else { continue }
      } else if CallReader.selections.contains(name) {
        continue
      }
      let branchIndex: Int?
      do { branchIndex = try system.uniqueBranch(step: step, responseSlot: slot, valuation: state.valuation) } catch {
        return .fork(error.index)
      }
      guard let branchIndex else { continue }
      let branch = system.branches[branchIndex]
      let after: [Int]
      do { after = try branch.apply(to: state.valuation) } catch { return .fork(error.index) }
      let outcome = describe(branch)
      if !last {
        // A local step (a selection the client handles itself): the next move goes on from it.
        guard case .step(let target) = branch.outcome else { continue }
        let moved = State(valuation: after, step: target)
        switch advance(moved, call, index + 1, &allowed, &lines, &outcomeChecked) {
        case .fork(let v): return .fork(v)
        case .done(let states): reached.formUnion(states)
        }
        continue
      }
      allowed.insert("\(name): \(outcome)")
      lines.formUnion(branch.ruleLines)
      outcomeChecked = true
      if matches(branch, in: call) {
        reached.insert(State(valuation: after, step: branch.target))
      }
    }
    return .done(reached)
  }

  /// Whether the model's branch shows what the call showed. An error a class carries (such as
  /// AssociateSoftwareToken's for `setupError`) is shown only by a call that made that request.
  func matches(_ branch: TransitionSystem.Branch, in call: ObservedCall) -> Bool {
    switch (branch.outcome, call.observed) {
    case (.step(let s), .steps(let ids, _)): return ids.contains(model.steps[s].id)
    case (.error(let name), .error(let type)): return sameError(name, type)
    case (.restart, .error(let type)):
      if let exception = branch.exception { return sameError(exception, type) }
      // A class that carries errors (setupError) shows one of them, from AssociateSoftwareToken;
      // a restart naming no exception, any error.
      let carried = model.responses[branch.response].errors
      guard !carried.isEmpty else { return true }
      return carried.contains { sameError($0.exception, type) }
        && call.exchanges.contains { $0.operation == "AssociateSoftwareToken" }
    case (.restart, .unusable), (.error, .unusable): return true
    default: return false
    }
  }

  /// Whether an observed error is the exception the model names: the same name; ValidationError
  /// and InvalidParameterException (one refusal, local or Cognito's); any Cognito error for the
  /// model's "the exception Cognito sent" (`ServiceError`).
  func sameError(_ named: String, _ observed: String) -> Bool {
    if named == observed { return true }
    let refusals: Set<String> = ["ValidationError", "InvalidParameterException"]
    if refusals.contains(named) && refusals.contains(observed) { return true }
    // "The exception Cognito sent": an error no other response of the model names.
    if named == "ServiceError" { return observed != "NetworkError" && !namedExceptions.contains(observed) }
    if named == "EnableSoftwareTokenMFAException" && observed == "CodeMismatchException" { return true }
    return false
  }

  /// A branch's outcome in words.
  func describe(_ branch: TransitionSystem.Branch) -> String {
    switch branch.outcome {
    case .step(let s): return stepName(s)
    case .error(let name): return "error \(name)"
    case .restart: return "the flow ends" + (branch.exception.map { " with \($0)" } ?? "")
    case .route: return "route"
    }
  }

  /// True unless a constraint is already false under the partial assignment.
  func mayHold(_ valuation: [Int]) -> Bool { counter.mayHold(valuation) }

  /// The configurations the surviving states stand for: their classes made disjoint (every
  /// class assigned on every variable any of them assigns), each counted with the constraints.
  func summary(of states: Set<State>) -> Verdict {
    let configuration = Array(model.configurationIndices)
    var assigned = Set<Int>()
    for state in states {
      for i in configuration where state.valuation[i] != unassigned { assigned.insert(i) }
    }
    var classes = Set<[Int]>()
    var budget = maxStates
    func expand(_ config: [Int], _ rest: ArraySlice<Int>) -> Bool {
      guard let v = rest.first else {
        classes.insert(config)
        budget -= 1
        return budget > 0
      }
      if config[v] != unassigned { return expand(config, rest.dropFirst()) }
      for value in model.variables[v].domain.values {
        var child = config
        child[v] = value
        guard mayHold(child) else { continue }
        if !expand(child, rest.dropFirst()) { return false }
      }
      return true
    }
    let order = assigned.sorted()
    for state in states {
      let config = configuration.map { state.valuation[$0] }
      guard expand(config, order[...]) else {
        return Verdict(kind: .inconclusive, reason: "more than \(maxStates) configuration classes (--max-states)")
      }
    }
    var total = 0.0
    var valueSets: [Int: Set<Int>] = [:]
    var cache = ConstraintCache()
    for config in classes {
      let count = counter.coveredConfigurations(config, cache: &cache)
      guard count > 0 else { continue }
      total += count
      for i in configuration {
        if config[i] != unassigned {
          valueSets[i, default: []].insert(config[i])
        } else {
          // A free variable: the values some satisfying completion gives it.
          for value in model.variables[i].domain.values where !(valueSets[i]?.contains(value) ?? false) {
            var fixed = config
            fixed[i] = value
            if counter.coveredConfigurations(fixed, cache: &cache) > 0 { valueSets[i, default: []].insert(value) }
          }
        }
      }
    }
    guard total > 0 else {
      return Verdict(kind: .inconsistent, allowed: ["no configuration meets the model's constraints"])
    }
    var values: [String: [String]] = [:]
    for (i, set) in valueSets where set.count < model.variables[i].domain.count {
      let domain = model.variables[i].domain
      values[model.variables[i].name] = domain.values.filter(set.contains).map(domain.render)
    }
    return Verdict(kind: .consistent, count: total, values: values)
  }
}
