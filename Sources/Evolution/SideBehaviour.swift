import SignInModel

/// One transition of a model in the terms two models share: step id, response name, and the
/// outcome (`step X`, `error NAME`, `restart`). A restart's reason is free text and not compared.
public struct TransitionKey: Hashable, Sendable, Comparable {
  public let step: String
  public let response: String
  public let outcome: String

  public init(step: String, response: String, outcome: String) {
    self.step = step
    self.response = response
    self.outcome = outcome
  }

  public static func < (a: TransitionKey, b: TransitionKey) -> Bool {
    (a.step, a.response, a.outcome) < (b.step, b.response, b.outcome)
  }

  public var description: String { "\(step) --\(response)--> \(outcome)" }
}

/// One call of a trace: at `step`, the response given, and what followed.
public struct TraceCall: Sendable, Equatable {
  public let step: String
  public let response: String
  public let outcome: String
}

/// What one configuration class does on one model: every reachable transition with the
/// shortest trace that takes it, the steps reached, the options offered, and whether `done`
/// can be reached.
public struct SideBehaviour: Sendable {
  public internal(set) var transitions: Set<TransitionKey> = []
  /// Reached step (model index) → the shortest trace that reaches it.
  public internal(set) var stepTraces: [Int: [TraceCall]] = [:]
  /// Transition → the shortest trace ending with it.
  public internal(set) var transitionTraces: [TransitionKey: [TraceCall]] = [:]
  /// Selection step (model index) → the options it offers in some reachable state.
  public internal(set) var offered: [Int: Set<String>] = [:]
  public internal(set) var doneReachable = false
  /// States explored (for figures).
  public internal(set) var states = 0

  public var reachedSteps: [Int] { stepTraces.keys.sorted() }
}
