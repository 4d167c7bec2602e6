/// Bad input to `signin-spec docs`: a page that cannot be read.
public struct DocsError: Error, CustomStringConvertible, Sendable {
  public let description: String
  public init(_ description: String) { self.description = description }
}
