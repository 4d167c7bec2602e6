import ModelChecking
import SignInModel

/// One transition of a model in the terms two models share: step id, response name, and the
/// outcome (`step X`, `error NAME`, `restart EXCEPTION`, each followed by what platforms report
/// instead, `(swift: AuthError.unknown; …)`). A restart's reason is free text and not compared;
/// the exception it names is.
public struct TransitionKey: Hashable, Sendable, Comparable {
  public let step: String
  /// The values of the flow variables both models share, in that state (`flow.retries=2, …`).
  public let state: String
  public let response: String
  public let outcome: String

  public static func < (a: TransitionKey, b: TransitionKey) -> Bool {
    (a.step, a.state, a.response, a.outcome) < (b.step, b.state, b.response, b.outcome)
  }
}

/// One call of a trace: at `step`, the response given, and what followed.
public struct TraceCall: Sendable, Equatable {
  public let step: String
  public let response: String
  public let outcome: String
}

/// What one configuration class does on one model: its reachable transitions (as codes of a
/// shared `Vocabulary`), the steps reached, the options offered, whether `done` can be
/// reached, and the search tree, from which shortest traces are read on demand.
public struct SideBehaviour: @unchecked Sendable {
  let vocabulary: Vocabulary
  /// The transition codes, each once, ascending (compared as sets are: two classes behave alike
  /// when the arrays are equal).
  public internal(set) var transitions: [Int] = []
  /// Transition code → the state it was first taken from.
  var transitionSource = IntTable(capacity: 256)
  /// Model step → the first state on it (-1: not reached).
  var stepFirstState: [Int]
  /// State → (parent state, transition code), -1 for the start.
  var parents: [(Int, Int)] = [(-1, -1)]
  /// Selection step → options offered (option indices of its set) in some reachable state.
  public internal(set) var offered: [Int: Set<Int>] = [:]
  public internal(set) var doneReachable = false
  /// Per model response: given by some transition of the class. Kept only by an explorer that
  /// does not record transitions (`SideExplorer.recordsTransitions`), which leaves
  /// `transitions`, their sources and the search tree empty; empty otherwise.
  public internal(set) var responsesGiven: [Bool] = []

  init(vocabulary: Vocabulary, steps: Int) {
    self.vocabulary = vocabulary
    self.stepFirstState = [Int](repeating: -1, count: steps)
  }

  public var reachedSteps: [Int] { stepFirstState.indices.filter { stepFirstState[$0] >= 0 } }
  public var stateCount: Int { parents.count }
  /// About how many bytes its arrays hold (`PendingMemory`).
  var heldBytes: Int {
    8 * (transitions.count + 2 * transitionSource.count + stepFirstState.count + 2 * parents.count)
      + responsesGiven.count
  }

  func trace(toState state: Int) -> [TraceCall] {
    var calls: [TraceCall] = []
    var s = state
    while s > 0 {
      let (p, code) = parents[s]
      let k = vocabulary.stepResponseOutcome(code)
      calls.append(TraceCall(step: k.step, response: k.response, outcome: k.outcome))
      s = p
    }
    return calls.reversed()
  }

  /// The shortest trace that reaches model step `step`; nil where no state is on it, or where
  /// the explorer kept no search tree (`SideExplorer.recordsTransitions`) and that state is not
  /// the start.
  public func trace(toStep step: Int) -> [TraceCall]? {
    let state = stepFirstState[step]
    return state >= 0 && state < parents.count ? trace(toState: state) : nil
  }

  /// The shortest trace ending with the transition `code`.
  public func trace(through code: Int) -> [TraceCall]? {
    guard let source = transitionSource[code] else { return nil }
    let k = vocabulary.decode(code)
    return trace(toState: source) + [TraceCall(step: k.step, response: k.response, outcome: k.outcome)]
  }

  func traceLength(through code: Int) -> Int {
    var n = 0
    var s = transitionSource[code] ?? 0
    while s > 0 {
      n += 1
      s = parents[s].0
    }
    return n
  }
}
