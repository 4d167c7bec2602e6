/// What an `indistinguishable:` property relates (format 3): two runs of the flow, *left* and
/// *right*, whose configurations agree on every configuration variable except those `left`
/// and `right` read, and which receive related responses call by call. The property holds
/// when, for every such pair of runs, each call has the same observation in both: the outcome
/// (a step, an error, a restart), the step, the error or exception type, and the message.
/// Both engines check it on the self-composition of the transition system
/// (ModelChecking's `SelfComposition`).
public struct Indistinguishability: Sendable {
  /// Holds in both runs' configurations (`when:`).
  public let shared: Expr
  public let sharedText: String
  /// The left run's configuration (`left:`).
  public let left: Expr
  public let leftText: String
  /// The right run's configuration (`right:`).
  public let right: Expr
  public let rightText: String
  /// The response pairs (left, right) allowed at each call (`inputs:`); by default every
  /// response, the same in both runs.
  public let inputs: [ResponsePair]
  /// The configuration variables the two runs may disagree on: those `left` or `right` reads.
  public let differing: [Int]
  /// Where the property's sources are (`source:`), if given.
  public let source: String

  /// A response of the left run and the one the right run receives at the same call.
  public struct ResponsePair: Sendable, Equatable {
    public let left: Int
    public let right: Int

    public init(left: Int, right: Int) {
      self.left = left
      self.right = right
    }
  }

  public init(
    shared: Expr, sharedText: String, left: Expr, leftText: String, right: Expr, rightText: String,
    inputs: [ResponsePair], differing: [Int], source: String = ""
  ) {
    self.shared = shared
    self.sharedText = sharedText
    self.left = left
    self.leftText = leftText
    self.right = right
    self.rightText = rightText
    self.inputs = inputs
    self.differing = differing
    self.source = source
  }
}
