import SignInModel

/// Runs one concrete configuration through a model, one response at a time, the way a
/// client would see it. Tests use it to state documented transitions; the fuzzer's oracle
/// and the conformance runner ask it what the model expects.
public struct ModelSimulator: Sendable {
  /// Why a simulation could not go on.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    case unknownVariable(String, suggestion: String?)
    case badValue(variable: String, value: String, domain: String)
    case missingVariable(String)
    case constraintViolated(String)
    case unknownResponse(String, suggestion: String?)
    case responseNotAccepted(response: String, step: String)
    case flowEnded(String)
    case notDeterministic(String)

    public var description: String {
      switch self {
      case .unknownVariable(let n, let s):
        return "unknown variable '\(n)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
      case .badValue(let v, let value, let d): return "'\(value)' is not in the domain \(d) of '\(v)'"
      case .missingVariable(let n): return "the configuration gives no value for '\(n)'"
      case .constraintViolated(let c): return "the configuration breaks the constraint \(c)"
      case .unknownResponse(let n, let s):
        return "unknown response '\(n)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
      case .responseNotAccepted(let r, let s): return "step '\(s)' does not accept the response '\(r)'"
      case .flowEnded(let how): return "the flow has already ended (\(how)); a new signIn is needed"
      case .notDeterministic(let place): return "the model is not deterministic here: \(place)"
      }
    }
  }

  /// The rules it follows (the same transition system every engine reads).
  public var system: TransitionSystem { shared.system }
  public var model: SignInModel { shared.system.model }
  /// `system` behind one reference: a copy of the simulator (the fuzzer probes every candidate
  /// response on a copy) retains one object instead of every table of the system and model.
  private let shared: Context

  /// A transition system and the per-step facts the simulator's hot path reads, made once
  /// and shared by every simulator started from it (`init(context:…)`): starting a simulator
  /// then copies no table of the system.
  public final class Context: Sendable {
    public let system: TransitionSystem
    /// Per step: whether it is terminal, and whether it is the entry step (`signIn`).
    public var terminal: [Bool] { system.simulation.terminal }
    public var entry: [Bool] { system.simulation.entry }

    public init(_ system: TransitionSystem) { self.system = system }
  }

  /// The shared context this simulator reads (to start others from, `init(context:…)`).
  public var context: Context { shared }
  /// Whether the flow is over: it restarted, or its step is terminal (signed in, or a step
  /// that ends the flow).
  public var flowEnded: Bool { step.map { shared.terminal[$0] } ?? true }
  public private(set) var valuation: [Int]
  /// The current step (model index), or nil once the flow restarted.
  public private(set) var step: Int?
  public private(set) var trace: [TraceStep] = []
  /// The model lines of the rules the last response followed (kept with the trace off too).
  public var lastRuleLines: [Int] { lastBranch.map { system.branches[$0].ruleLines } ?? [] }
  /// The branch the last `respond` took (an index into `system.branches`).
  public private(set) var lastBranch: Int?
  /// The exception the last `respond` names: an `error:` outcome's name, or a restart's
  /// `exception` (nil when the model names none, or the outcome is a step).
  public var lastException: String? {
    guard let lastBranch else { return nil }
    let branch = system.branches[lastBranch]
    switch branch.outcome {
    case .error(let name): return name
    case .restart: return branch.exception
    default: return nil
    }
  }

  /// Whether `trace` is kept (the fuzzer's generator turns it off for speed).
  public var recordsTrace = true

  /// Starts at `signIn` with every configuration variable given by name (or by its `default:`).
  public init(model: SignInModel, configuration: [String: String], recordsTrace: Bool = true) throws(Failure) {
    try self.init(system: TransitionSystem(model: model), configuration: configuration, recordsTrace: recordsTrace)
  }

  /// Starts at `signIn` on an already built transition system (cheaper when many
  /// configurations of one model are simulated).
  public init(system: TransitionSystem, configuration: [String: String], recordsTrace: Bool = true) throws(Failure) {
    try self.init(context: Context(system), configuration: configuration, recordsTrace: recordsTrace)
  }

  /// Starts at `signIn` with every configuration variable given by name, on a shared context.
  public init(context: Context, configuration: [String: String], recordsTrace: Bool = true) throws(Failure) {
    let system = context.system
    let model = system.model
    shared = context
    self.recordsTrace = recordsTrace
    var values = [Int](repeating: unassigned, count: model.variables.count)
    for (name, text) in configuration {
      guard let i = system.configurationIndex[name], model.variables[i].scope == .configuration else {
        throw .unknownVariable(
          name,
          suggestion: Suggestions.closest(
            to: name, among: model.configurationIndices.map { model.variables[$0].name }))
      }
      guard let v = system.valueOfText[i][text] else {
        throw .badValue(variable: name, value: text, domain: model.variables[i].domain.spelling)
      }
      values[i] = v
    }
    // A variable the configuration does not name takes its `default:` (the behaviour before the
    // variable existed), so a case saved before a variable was added still means what it meant.
    for i in model.configurationIndices where values[i] == unassigned {
      guard let value = model.variables[i].defaultValue else { throw .missingVariable(model.variables[i].name) }
      values[i] = value
    }
    try Self.start(&values, context)
    valuation = values
    step = 0
  }

  /// Starts at `signIn` with the configuration variables given by value (`values[i]` for each
  /// configuration index; the rest is ignored), as a generator that drew them has them: no
  /// names to look up. The values must be in their domains and meet the constraints.
  public init(system: TransitionSystem, configurationValues: [Int], recordsTrace: Bool = true) throws(Failure) {
    try self.init(context: Context(system), configurationValues: configurationValues, recordsTrace: recordsTrace)
  }

  /// Starts at `signIn` with the configuration variables given by value, on a shared context.
  public init(context: Context, configurationValues: [Int], recordsTrace: Bool = true) throws(Failure) {
    // Read through the context's tables: a local copy of the system or the model would retain
    // each of their arrays at every start.
    let tables = context.system.simulation
    shared = context
    self.recordsTrace = recordsTrace
    var values = [Int](repeating: unassigned, count: tables.valueBounds.count)
    for i in 0..<tables.configurationCount {
      let v = i < configurationValues.count ? configurationValues[i] : unassigned
      guard v != unassigned else { throw .missingVariable(context.system.model.variables[i].name) }
      guard tables.valueBounds[i].low <= v && v <= tables.valueBounds[i].high else {
        let variable = context.system.model.variables[i]
        throw .badValue(variable: variable.name, value: variable.domain.render(v), domain: variable.domain.spelling)
      }
      values[i] = v
    }
    try Self.start(&values, context)
    valuation = values
    step = 0
  }

  /// The end of every start: the configuration in `values` must meet the model's constraints,
  /// then the flow variables take their initial values.
  private static func start(_ values: inout [Int], _ context: Context) throws(Failure) {
    let tables = context.system.simulation
    for k in tables.constraintCodes.indices where (try? tables.constraintCodes[k].holds(values)) != true {
      throw .constraintViolated(context.system.model.constraints[k].text)
    }
    values.replaceSubrange(tables.configurationCount..<values.count, with: tables.initialFlow)
  }

  /// The current step's model id, or nil after a restart.
  public var stepID: String? { step.map { model.steps[$0].id } }

  /// The options the current step offers, if it is a selection step.
  public var offered: [String] {
    guard let step else { return [] }
    let offers = system.simulation.offers[step]
    if offers.isEmpty { return [] }
    return offers.filter { (try? $0.when.holds(valuation)) == true }.map(\.option)
  }

  /// Gives `response` at the current step and returns what it produced.
  @discardableResult
  public mutating func respond(_ response: String) throws(Failure) -> TraceOutcome {
    guard let step else { throw .flowEnded(trace.last.map { "\($0.outcome)" } ?? "restart") }
    if shared.terminal[step] { throw .flowEnded("step \(model.steps[step].id)") }
    guard let r = system.responseIndex[response] else {
      throw .unknownResponse(
        response, suggestion: Suggestions.closest(to: response, among: model.responses.map(\.name)))
    }
    return try respond(responseIndex: r)
  }

  /// `respond` by the response's index in `model.responses` (no name to look up): what the
  /// fuzzer's generator and harness call.
  @discardableResult
  public mutating func respond(responseIndex r: Int) throws(Failure) -> TraceOutcome {
    guard let step else { throw .flowEnded(trace.last.map { "\($0.outcome)" } ?? "restart") }
    if shared.terminal[step] { throw .flowEnded("step \(model.steps[step].id)") }
    let only = try branch(step: step, response: r)
    let branch = system.branches[only]
    lastBranch = only
    let before = recordsTrace ? valuation : []
    do { try branch.apply(inPlace: &valuation) } catch { throw .missingVariable(model.variables[error.index].name) }
    let outcome: TraceOutcome
    switch branch.outcome {
    case .step(let s):
      outcome = .step(model.steps[s].id)
      self.step = s
    case .error(let name):
      outcome = .error(name, stays: model.steps[step].id)
    case .restart(let reason):
      outcome = .restart(reason)
      self.step = nil
    case .route:
      outcome = .restart("internal: unresolved route")
      self.step = nil
    }
    if recordsTrace {
      var changes: [String: String] = [:]
      for i in model.flowIndices where valuation[i] != before[i] {
        let d = model.variables[i].domain
        changes[model.variables[i].name] = "\(d.render(before[i])) -> \(d.render(valuation[i]))"
      }
      trace.append(
        TraceStep(
          call: shared.entry[step] ? "signIn" : "confirmSignIn", response: model.responses[r].name,
          stepBefore: model.steps[step].id, outcome: outcome, changes: changes, ruleLines: branch.ruleLines))
    }
    return outcome
  }

  /// The branch (an index into `system.branches`) response `r` takes at `step` in the current
  /// valuation, or why `respond` refuses it.
  private func branch(step: Int, response r: Int) throws(Failure) -> Int {
    let slot = system.responseSlots[step][r]
    guard slot >= 0 else {
      throw .responseNotAccepted(response: model.responses[r].name, step: model.steps[step].id)
    }
    do {
      // The common case (exactly one rule matches in every rule list on the way) without the
      // bookkeeping; otherwise the full walk says where the model is not deterministic.
      if let only = try system.uniqueBranch(step: step, responseSlot: slot, valuation: valuation) { return only }
      var mismatches: [TransitionSystem.Mismatch] = []
      let matching = try system.matchingBranches(
        step: step, responseSlot: slot, valuation: valuation, mismatches: &mismatches)
      guard matching.count == 1, mismatches.isEmpty, let first = matching.first else {
        throw Failure.notDeterministic(
          mismatches.first?.place ?? "response '\(model.responses[r].name)' at step '\(model.steps[step].id)'")
      }
      return first
    } catch let error as UnassignedVariable {
      throw .missingVariable(model.variables[error.index].name)
    } catch let error as Failure {
      throw error
    } catch {
      throw .notDeterministic("response '\(model.responses[r].name)' at step '\(model.steps[step].id)'")
    }
  }

  /// What `respond(responseIndex: r)` would do, without doing it: the branch it takes, or nil
  /// when it would refuse. Nothing is copied or allocated, so the fuzzer's generator can ask
  /// it of every candidate response. (Every variable has a value from `init` on and effects
  /// only write values, so the effects of a branch `respond` takes never refuse.)
  public func peek(responseIndex r: Int) -> TransitionSystem.Branch? {
    guard let step, !shared.terminal[step], let only = try? branch(step: step, response: r) else { return nil }
    return system.branches[only]
  }
}
