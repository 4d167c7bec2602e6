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
  static let capacity = 4096

  func step(_ name: String) -> Int { id(name, &steps, &stepIDs) }
  func response(_ name: String) -> Int { id(name, &responses, &responseIDs) }
  func outcome(_ name: String) -> Int { id(name, &outcomes, &outcomeIDs) }

  private func id(_ name: String, _ list: inout [String], _ ids: inout [String: Int]) -> Int {
    if let i = ids[name] { return i }
    list.append(name)
    ids[name] = list.count - 1
    return list.count - 1
  }

  func code(step: Int, response: Int, outcome: Int) -> Int {
    (step * Self.capacity + response) * Self.capacity + outcome
  }

  public func decode(_ code: Int) -> TransitionKey {
    let outcome = code % Self.capacity
    let response = (code / Self.capacity) % Self.capacity
    let step = code / (Self.capacity * Self.capacity)
    return TransitionKey(step: steps[step], response: responses[response], outcome: outcomes[outcome])
  }
}
