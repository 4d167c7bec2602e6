import SignInModel

/// Step, response and outcome names shared by the sides of a comparison, numbered, so a
/// transition of either model is one integer and behaviours compare as integer sets.
public final class Vocabulary: @unchecked Sendable {
  public private(set) var steps: [String] = []
  public private(set) var responses: [String] = []
  public private(set) var outcomes: [String] = []
  private var stepIDs: [String: Int] = [:]
  private var responseIDs: [String: Int] = [:]
  private var outcomeIDs: [String: Int] = [:]
  /// The packing of a transition into one integer: the outcome in the low 24 bits, the
  /// response in the next 16, the step-in-a-state above them (23 bits). A model's loader
  /// limits keep every count far below these (a 10,000-step model has about 10,000 outcomes,
  /// which overflowed the 13-bit fields this packing had before).
  static let outcomeBits = 24
  static let responseBits = 16
  static let outcomeMask = (1 << outcomeBits) - 1
  static let responseMask = (1 << responseBits) - 1

  func step(_ name: String) -> Int { id(name, &steps, &stepIDs) }
  func response(_ name: String) -> Int { id(name, &responses, &responseIDs) }
  func outcome(_ name: String) -> Int { id(name, &outcomes, &outcomeIDs) }

  private func id(_ name: String, _ list: inout [String], _ ids: inout [String: Int]) -> Int {
    if let i = ids[name] { return i }
    list.append(name)
    ids[name] = list.count - 1
    return list.count - 1
  }

  /// The step id of each entry of `steps` made by `stepState` (nil for others), so a code's
  /// step is read without splitting its text.
  private var stepOfState: [String?] = []

  /// A step in a state: the step id, and the values of the flow variables both models share.
  func stepState(_ step: String, _ state: String) -> Int {
    let id = self.step(step + "\u{1}" + state)
    if id >= stepOfState.count { stepOfState += [String?](repeating: nil, count: id + 1 - stepOfState.count) }
    stepOfState[id] = step
    return id
  }

  /// A code's step id, response and outcome names: `decode` without the state.
  public func stepResponseOutcome(_ code: Int) -> (step: String, response: String, outcome: String) {
    let id = code >> (Self.responseBits + Self.outcomeBits)
    let response = responses[(code >> Self.outcomeBits) & Self.responseMask]
    let outcome = outcomes[code & Self.outcomeMask]
    if id < stepOfState.count, let step = stepOfState[id] { return (step, response, outcome) }
    let k = decode(code)
    return (k.step, k.response, k.outcome)
  }

  func code(step: Int, response: Int, outcome: Int) -> Int {
    (step << (Self.responseBits + Self.outcomeBits)) | (response << Self.outcomeBits) | outcome
  }

  /// The index in `responses` of a transition code's response, without decoding its step and
  /// state (the linter reads only the responses of every transition of every class).
  public func responseIndex(_ code: Int) -> Int { (code >> Self.outcomeBits) & Self.responseMask }

  public func decode(_ code: Int) -> TransitionKey {
    let outcome = code & Self.outcomeMask
    let response = (code >> Self.outcomeBits) & Self.responseMask
    let parts = steps[code >> (Self.responseBits + Self.outcomeBits)].split(
      separator: "\u{1}", omittingEmptySubsequences: false)
    return TransitionKey(
      step: String(parts[0]), state: parts.count > 1 ? String(parts[1]) : "", response: responses[response],
      outcome: outcomes[outcome])
  }
}
