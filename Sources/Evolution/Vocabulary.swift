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
  /// Fixed bounds for packing; names beyond them are refused (far above any real model).
  static let capacity = 8192

  func step(_ name: String) -> Int { id(name, &steps, &stepIDs) }
  func response(_ name: String) -> Int { id(name, &responses, &responseIDs) }
  func outcome(_ name: String) -> Int { id(name, &outcomes, &outcomeIDs) }

  private func id(_ name: String, _ list: inout [String], _ ids: inout [String: Int]) -> Int {
    if let i = ids[name] { return i }
    list.append(name)
    ids[name] = list.count - 1
    return list.count - 1
  }

  /// A step in a state: the step id, and the values of the flow variables both models share.
  func stepState(_ step: String, _ state: String) -> Int { self.step(step + "\u{1}" + state) }

  func code(step: Int, response: Int, outcome: Int) -> Int {
    (step << 26) | (response << 13) | outcome
  }

  /// The index in `responses` of a transition code's response, without decoding its step and
  /// state (the linter reads only the responses of every transition of every class).
  public func responseIndex(_ code: Int) -> Int { (code >> 13) & 8191 }

  public func decode(_ code: Int) -> TransitionKey {
    let outcome = code & 8191
    let response = (code >> 13) & 8191
    let parts = steps[code >> 26].split(separator: "\u{1}", omittingEmptySubsequences: false)
    return TransitionKey(
      step: String(parts[0]), state: parts.count > 1 ? String(parts[1]) : "", response: responses[response],
      outcome: outcomes[outcome])
  }
}
