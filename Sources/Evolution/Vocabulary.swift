import SignInModel
import Synchronization

/// Step, response and outcome names shared by the sides of a comparison, numbered, so a
/// transition of either model is one integer and behaviours compare as integer sets. Threads
/// exploring classes side by side share one vocabulary: its tables are behind a lock.
public final class Vocabulary: Sendable {
  private struct Tables {
    var steps: [String] = []
    var responses: [String] = []
    var outcomes: [String] = []
    var stepIDs: [String: Int] = [:]
    var responseIDs: [String: Int] = [:]
    var outcomeIDs: [String: Int] = [:]
    /// The step id of each entry of `steps` made by `stepState` (nil for others), so a code's
    /// step is read without splitting its text.
    var stepOfState: [String?] = []
  }
  private let tables = Mutex(Tables())

  public init() {}

  public var steps: [String] { tables.withLock { $0.steps } }
  public var responses: [String] { tables.withLock { $0.responses } }
  public var outcomes: [String] { tables.withLock { $0.outcomes } }

  /// The packing of a transition into one integer: the outcome in the low 24 bits, the
  /// response in the next 16, the step-in-a-state above them (23 bits). A model's loader
  /// limits keep every count far below these (a 10,000-step model has about 10,000 outcomes,
  /// which overflowed the 13-bit fields this packing had before).
  static let outcomeBits = 24
  static let responseBits = 16
  static let outcomeMask = (1 << outcomeBits) - 1
  static let responseMask = (1 << responseBits) - 1

  func step(_ name: String) -> Int { tables.withLock { Self.id(name, &$0.steps, &$0.stepIDs) } }
  func response(_ name: String) -> Int { tables.withLock { Self.id(name, &$0.responses, &$0.responseIDs) } }
  func outcome(_ name: String) -> Int { tables.withLock { Self.id(name, &$0.outcomes, &$0.outcomeIDs) } }

  private static func id(_ name: String, _ list: inout [String], _ ids: inout [String: Int]) -> Int {
    if let i = ids[name] { return i }
    list.append(name)
    ids[name] = list.count - 1
    return list.count - 1
  }

  /// A step in a state: the step id, and the values of the flow variables both models share.
  func stepState(_ step: String, _ state: String) -> Int {
    tables.withLock { t in
      let id = Self.id(step + "\u{1}" + state, &t.steps, &t.stepIDs)
      if id >= t.stepOfState.count {
        t.stepOfState += [String?](repeating: nil, count: id + 1 - t.stepOfState.count)
      }
      t.stepOfState[id] = step
      return id
    }
  }

  /// A code's step id, response and outcome names: `decode` without the state.
  public func stepResponseOutcome(_ code: Int) -> (step: String, response: String, outcome: String) {
    let id = code >> (Self.responseBits + Self.outcomeBits)
    return tables.withLock { t in
      let response = t.responses[(code >> Self.outcomeBits) & Self.responseMask]
      let outcome = t.outcomes[code & Self.outcomeMask]
      if id < t.stepOfState.count, let step = t.stepOfState[id] { return (step, response, outcome) }
      let k = Self.decode(code, t)
      return (k.step, k.response, k.outcome)
    }
  }

  func code(step: Int, response: Int, outcome: Int) -> Int {
    (step << (Self.responseBits + Self.outcomeBits)) | (response << Self.outcomeBits) | outcome
  }

  /// The index in `responses` of a transition code's response, without decoding its step and
  /// state (the linter reads only the responses of every transition of every class).
  public func responseIndex(_ code: Int) -> Int { (code >> Self.outcomeBits) & Self.responseMask }

  public func decode(_ code: Int) -> TransitionKey { tables.withLock { Self.decode(code, $0) } }

  /// A code's outcome name: `decode(code).outcome` without splitting its step and state.
  public func outcomeName(_ code: Int) -> String { tables.withLock { $0.outcomes[code & Self.outcomeMask] } }

  private static func decode(_ code: Int, _ t: borrowing Tables) -> TransitionKey {
    let outcome = code & outcomeMask
    let response = (code >> outcomeBits) & responseMask
    let parts = t.steps[code >> (responseBits + outcomeBits)].split(
      separator: "\u{1}", omittingEmptySubsequences: false)
    return TransitionKey(
      step: String(parts[0]), state: parts.count > 1 ? String(parts[1]) : "", response: t.responses[response],
      outcome: t.outcomes[outcome])
  }
}
