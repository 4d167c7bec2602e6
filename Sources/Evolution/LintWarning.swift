/// One thing `verify` cannot see because no invariant is violated, at file:line.
public struct LintWarning: Sendable, Equatable {
  public let rule: String
  /// What the warning is about, as a `lint:` entry's `target:` names it.
  public let target: String
  public let message: String
  public let file: String
  public let line: Int
  /// The `lint:` entry's reason when the model acknowledges this warning.
  public let acknowledged: String?

  public var location: String { "\(file):\(line)" }
}
