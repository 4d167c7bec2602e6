/// How an adapter misbehaved: every way the process can fail the protocol, with the adapter's
/// command, its last line on stdout and the tail of its stderr, so the message says which
/// client under test did what.
public struct AdapterError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Error, Sendable, Equatable {
    /// The command could not be started (no such program, not executable, a bad command line).
    case couldNotStart(String)
    /// The adapter exited, or closed its stdout, before answering (`status`: its exit status;
    /// `signal`: the signal that ended it; both nil when it was still running).
    case exited(status: Int32?, signal: Int32?)
    /// No answer within the call's time limit (seconds).
    case timedOut(seconds: Double)
    /// A line that is not JSON.
    case notJSON
    /// JSON that is not an object.
    case notAnObject
    /// An object that is not the answer asked for (`reason` says which member is wrong).
    case wrongShape(String)
    /// A `hello` answer with another protocol version.
    case wrongProtocol(Int)
    /// An answer to a request that was already answered.
    case answeredTwice(id: Int)
    /// An answer whose id is no request's.
    case unexpectedID(Int)
    /// The answer to `reset` is not a fresh client: it shows a step, an error or a signed-in user.
    case resetIgnored
    /// The adapter was already closed when the call was made.
    case closed
  }

  public let kind: Kind
  /// The adapter's command line.
  public let command: String
  /// The request that was being answered (`type` and `id`), if any.
  public let request: String?
  /// The adapter's last line on stdout (cut to 300 characters), if any.
  public let lastMessage: String?
  /// The last lines of its stderr (at most 2 KiB), empty when it wrote none.
  public let stderrTail: String

  public init(kind: Kind, command: String, request: String?, lastMessage: String?, stderrTail: String) {
    self.kind = kind
    self.command = command
    self.request = request
    self.lastMessage = lastMessage
    self.stderrTail = stderrTail
  }

  /// What happened, in one line.
  public var summary: String {
    let asked = request ?? "a request"
    switch kind {
    case .couldNotStart(let why): return "could not be started: \(why)"
    case .exited(let status?, _): return "exited with status \(status) before answering \(asked)"
    case .exited(_, let signal?): return "was killed by signal \(signal) before answering \(asked)"
    case .exited: return "closed its stdout before answering \(asked)"
    case .timedOut(let seconds): return "did not answer \(asked) within \(Self.format(seconds)) s"
    case .notJSON: return "answered \(asked) with a line that is not JSON"
    case .notAnObject: return "answered \(asked) with JSON that is not an object"
    case .wrongShape(let reason): return "answered \(asked) with a message of the wrong shape: \(reason)"
    case .wrongProtocol(let version): return "speaks protocol \(version), not \(AdapterProcess.protocolVersion)"
    case .answeredTwice(let id): return "answered request \(id) a second time, waiting for the answer to \(asked)"
    case .unexpectedID(let id): return "answered id \(id), which it was not sent, waiting for the answer to \(asked)"
    case .resetIgnored: return "ignored reset: its answer shows a step, an error or a signed-in user"
    case .closed: return "was already closed"
    }
  }

  public var description: String {
    var text = "adapter `\(command)` \(summary)"
    if let lastMessage { text += "; its last message: \(lastMessage)" }
    if !stderrTail.isEmpty { text += "; the end of its stderr:\n\(stderrTail)" }
    return text
  }

  static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
