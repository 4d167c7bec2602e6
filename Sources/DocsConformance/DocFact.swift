/// One fact read from a page, with the page line it was first seen on.
public struct DocFact: Sendable {
  public enum Content: Sendable, Hashable {
    /// A step name in code, a table or prose.
    case stepName(String, context: Context)
    /// A sample flow: answering `answer` at step `from` leads to step `expected`.
    case flow(from: String, answer: String, expected: String)
    /// A set the page lists for a step (MFA types to select or set up, first factors).
    case set(step: String, members: [String])
    /// The page tells the reader to expect exception `name` where the section's step applies.
    case exception(name: String, section: String)
    /// A call of the API with its first argument label.
    case apiCall(method: String, label: String)
    /// A next-step table row: the step's name and its description.
    case tableRow(step: String, description: String)
  }

  /// Where a step name was found.
  public enum Context: String, Sendable, Hashable {
    case code, table, prose
  }

  public let content: Content
  public let line: Int
  public let platform: String?
  public let section: String?
  /// The page line's text, trimmed (the page side of a finding).
  public let text: String
}
