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
  private let shared: Shared

  private final class Shared: Sendable {
    let system: TransitionSystem
    init(_ system: TransitionSystem) { self.system = system }
  }
  public private(set) var valuation: [Int]
  /// The current step (model index), or nil once the flow restarted.
  public private(set) var step: Int?
  public private(set) var trace: [TraceStep] = []
  /// The model lines of the rules the last response followed (kept with the trace off too).
  public private(set) var lastRuleLines: [Int] = []
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

  /// Starts at `signIn` with every configuration variable given by name (or by its `default:`).
  /// Whether `trace` is kept (the fuzzer's generator turns it off for speed).
  public var recordsTrace = true

  public init(model: SignInModel, configuration: [String: String], recordsTrace: Bool = true) throws(Failure) {
    try self.init(system: TransitionSystem(model: model), configuration: configuration, recordsTrace: recordsTrace)
  }

  /// Starts at `signIn` on an already built transition system (cheaper when many
  /// configurations of one model are simulated).
  public init(system: TransitionSystem, configuration: [String: String], recordsTrace: Bool = true) throws(Failure) {
    let model = system.model
    shared = Shared(system)
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
    for c in model.constraints where (try? c.expr.holds(values)) != true { throw .constraintViolated(c.text) }
    for i in model.flowIndices { values[i] = model.variables[i].initial }
    valuation = values
    step = 0
  }

  /// Starts at `signIn` with the configuration variables given by value (`values[i]` for each
  /// configuration index; the rest is ignored), as a generator that drew them has them: no
  /// names to look up. The values must be in their domains and meet the constraints.
  public init(system: TransitionSystem, configurationValues: [Int], recordsTrace: Bool = true) throws(Failure) {
    let model = system.model
    shared = Shared(system)
    self.recordsTrace = recordsTrace
    var values = [Int](repeating: unassigned, count: model.variables.count)
    for i in model.configurationIndices {
      let v = i < configurationValues.count ? configurationValues[i] : unassigned
      guard v != unassigned else { throw .missingVariable(model.variables[i].name) }
      guard model.variables[i].domain.values.contains(v) else {
        let domain = model.variables[i].domain
        throw .badValue(variable: model.variables[i].name, value: domain.render(v), domain: domain.spelling)
      }
      values[i] = v
    }
    for c in model.constraints where (try? c.expr.holds(values)) != true { throw .constraintViolated(c.text) }
    for i in model.flowIndices { values[i] = model.variables[i].initial }
    valuation = values
    step = 0
  }

  /// The current step's model id, or nil after a restart.
  public var stepID: String? { step.map { model.steps[$0].id } }

  /// The options the current step offers, if it is a selection step.
  public var offered: [String] {
    guard let step, let offers = model.steps[step].offers else { return [] }
    let set = model.optionSets[offers.optionSet]
    return offers.conditions.filter { (try? $0.when.holds(valuation)) == true }.map { set.options[$0.option].name }
  }

  /// Gives `response` at the current step and returns what it produced.
  @discardableResult
  public mutating func respond(_ response: String) throws(Failure) -> TraceOutcome {
    guard let step else { throw .flowEnded(trace.last.map { "\($0.outcome)" } ?? "restart") }
    let current = model.steps[step]
    if current.isTerminal { throw .flowEnded("step \(current.id)") }
    guard let r = system.responseIndex[response] else {
      throw .unknownResponse(
        response, suggestion: Suggestions.closest(to: response, among: model.responses.map(\.name)))
    }
    let slot = system.responseSlots[step][r]
    guard slot >= 0 else { throw .responseNotAccepted(response: response, step: current.id) }
    let branch: TransitionSystem.Branch
    let after: [Int]
    do {
      // The common case (exactly one rule matches in every rule list on the way) without the
      // bookkeeping; otherwise the full walk says where the model is not deterministic.
      var only = try system.uniqueBranch(step: step, responseSlot: slot, valuation: valuation)
      if only == nil {
        var mismatches: [TransitionSystem.Mismatch] = []
        let matching = try system.matchingBranches(
          step: step, responseSlot: slot, valuation: valuation, mismatches: &mismatches)
        guard matching.count == 1, mismatches.isEmpty, let first = matching.first else {
          throw Failure.notDeterministic(
            mismatches.first?.place ?? "response '\(response)' at step '\(current.id)'")
        }
        only = first
      }
      guard let only else { throw Failure.notDeterministic("response '\(response)' at step '\(current.id)'") }
      branch = system.branches[only]
      lastBranch = only
      after = try branch.apply(to: valuation)
    } catch let error as UnassignedVariable {
      throw .missingVariable(model.variables[error.index].name)
    } catch let error as Failure {
      throw error
    } catch {
      throw .notDeterministic("response '\(response)' at step '\(current.id)'")
    }
    let outcome: TraceOutcome
    switch branch.outcome {
    case .step(let s):
      outcome = .step(model.steps[s].id)
      self.step = s
    case .error(let name):
      outcome = .error(name, stays: current.id)
    case .restart(let reason):
      outcome = .restart(reason)
      self.step = nil
    case .route:
      outcome = .restart("internal: unresolved route")
      self.step = nil
    }
    if recordsTrace {
      var changes: [String: String] = [:]
      for i in model.flowIndices where after[i] != valuation[i] {
        let d = model.variables[i].domain
        changes[model.variables[i].name] = "\(d.render(valuation[i])) -> \(d.render(after[i]))"
      }
      trace.append(
        TraceStep(
          call: current.kind == .entry ? "signIn" : "confirmSignIn", response: response, stepBefore: current.id,
          outcome: outcome, changes: changes, ruleLines: branch.ruleLines))
    }
    valuation = after
    lastRuleLines = branch.ruleLines
    return outcome
  }
}
