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
    /// A sample answers `answer` (bound to a fresh result) and then tests `variable`, which was
    /// bound at page line `boundAt` before the answer, for step `expected`.
    case staleResult(variable: String, boundAt: Int, answer: String, expected: String)
    /// A sample catches exception `name` (a `catch`, `instanceof`, `is … ->` or `on … catch`).
    case caughtException(name: String)
    /// A sample reads `name` (or calls it, `call`) where nothing on the page defines it;
    /// `function` is the page line of the enclosing function's header (nil at the top level).
    case undefinedName(name: String, call: Bool, function: Int?)
    /// A Dart switch whose empty arms `steps` fall into the arm of step `into` at page line `intoLine`.
    case armFallsThrough(steps: [String], into: String, intoLine: Int)
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
  /// Read from how a code sample behaves (its arms, answers, tests, literals), not from a name or prose.
  public var sample: Bool = false
}
