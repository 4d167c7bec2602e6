import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An adapter under test, running: a process that speaks the adapter protocol
/// (`schemas/adapter-protocol.v1.schema.json`, `docs/guide/adapters.md`) on its stdin and stdout.
///
/// Each call sends one request and waits for the answer with the same id, at most `timeLimit`
/// seconds; every way the adapter can fail the protocol ends the call with an `AdapterError`
/// naming the command, its last message and the end of its stderr, and closes the adapter (an
/// adapter that misbehaved once is not trusted with the next case). Calls are made one at a
/// time: the protocol has one request in flight.
///
/// ```swift
/// let adapter = try AdapterProcess(command: AdapterCommand(parsing: "python3 adapter.py"))
/// defer { adapter.close() }
/// let hello = try await adapter.hello(endpoint: "http://127.0.0.1:9229/")
/// _ = try await adapter.reset(poolId: pool, clientId: client, username: "user", password: "Passw0rd!")
/// let first = try await adapter.signIn(username: "user", password: "Passw0rd!")
/// ```
///
/// Closing (`close()`, or dropping the last reference) closes the adapter's stdin, which ends a
/// well-behaved adapter; one still running after `gracePeriod` gets SIGTERM (its process group),
/// and SIGKILL a second later. The adapter runs in a process group of its own (Foundation's `Process` starts each
/// child so), and the group is killed last, so nothing the adapter started outlives it.
///
/// Starting one makes this process ignore SIGPIPE: a write to an adapter that has exited must
/// fail with EPIPE rather than end the caller.
public final class AdapterProcess: @unchecked Sendable {
  /// The protocol version this side speaks.
  public static let protocolVersion = 1
  /// The default time limit of a call, in seconds: long enough for an SRP sign-in of a slow
  /// client on a loaded machine, short enough that a hung adapter is reported within a case.
  public static let defaultTimeLimit: Double = 30
  /// The default time an adapter has to exit once its stdin is closed, in seconds.
  public static let defaultGracePeriod: Double = 2

  public let command: AdapterCommand
  /// The time limit of each call, in seconds (a call may give its own).
  public let timeLimit: Double
  /// How long `close()` waits for the adapter to exit on its own before SIGTERM.
  public let gracePeriod: Double
  /// The adapter's process id (and process group id).
  public let processIdentifier: Int32

  private let process: Process
  private let input: Int32
  private let state: SharedState

  /// Starts `command` with pipes for its stdin, stdout and stderr.
  /// - Parameters:
  ///   - timeLimit: seconds a call may wait for its answer (default `defaultTimeLimit`).
  ///   - gracePeriod: seconds `close()` waits before SIGTERM (default `defaultGracePeriod`).
  ///   - environment: variables added to this process's environment for the adapter.
  public init(
    command: AdapterCommand, timeLimit: Double = AdapterProcess.defaultTimeLimit,
    gracePeriod: Double = AdapterProcess.defaultGracePeriod, environment: [String: String] = [:]
  ) throws(AdapterError) {
    self.command = command
    self.timeLimit = timeLimit
    self.gracePeriod = gracePeriod
    // A write to an adapter that has exited must fail with EPIPE, not end this process.
    signal(SIGPIPE, SIG_IGN)
    func failure(_ why: String) -> AdapterError {
      AdapterError(kind: .couldNotStart(why), command: command.text, request: nil, lastMessage: nil, stderrTail: "")
    }
    guard let executable = command.executable() else {
      throw failure(
        command.program.contains("/")
          ? "\(command.program) is not an executable file" : "no program \(command.program) in PATH")
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = command.arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    let state = SharedState()
    process.terminationHandler = { process in
      state.exited(
        status: process.terminationReason == .exit ? process.terminationStatus : nil,
        signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
    }
    do {
      try process.run()
    } catch {
      throw failure("\(executable.path): \(error.localizedDescription)")
    }
    self.process = process
    self.state = state
    self.processIdentifier = process.processIdentifier
    // Our own descriptors, so that closing them does not depend on FileHandle's lifetime.
    self.input = dup(stdin.fileHandleForWriting.fileDescriptor)
    try? stdin.fileHandleForWriting.close()
    // Writes never block: an adapter that stops reading its stdin is held to the time limit too.
    _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
    let output = dup(stdout.fileHandleForReading.fileDescriptor)
    try? stdout.fileHandleForReading.close()
    let errors = dup(stderr.fileHandleForReading.fileDescriptor)
    try? stderr.fileHandleForReading.close()
    Self.readLines(from: output, into: state)
    Self.readTail(from: errors, into: state)
  }

  /// Starts the adapter that `commandLine` names (split as `AdapterCommand(parsing:)` splits it).
  public convenience init(
    _ commandLine: String, timeLimit: Double = AdapterProcess.defaultTimeLimit,
    gracePeriod: Double = AdapterProcess.defaultGracePeriod, environment: [String: String] = [:]
  ) throws(AdapterError) {
    let command: AdapterCommand
    do {
      command = try AdapterCommand(parsing: commandLine)
    } catch {
      throw AdapterError(
        kind: .couldNotStart(error.description), command: commandLine, request: nil, lastMessage: nil,
        stderrTail: "")
    }
    try self.init(command: command, timeLimit: timeLimit, gracePeriod: gracePeriod, environment: environment)
  }

  deinit { close() }

  // MARK: - Calls

  /// An answer, by kind.
  public enum Answer: Sendable, Equatable {
    case hello(AdapterHello)
    case observation(AdapterObservation)
  }

  /// `hello`: the protocol version and the endpoint; the answer must speak the same version.
  public func hello(endpoint: String, timeLimit: Double? = nil) async throws(AdapterError) -> AdapterHello {
    guard
      case .hello(let hello) = try await send(
        .hello(protocol: Self.protocolVersion, endpoint: endpoint), timeLimit: timeLimit)
    else {
      preconditionFailure("send checks that hello is answered by hello")
    }
    return hello
  }

  /// `reset`: a new case with this pool, app client and user. The answer must show a fresh
  /// client (no step, no error, signed out), else the adapter ignored the reset.
  public func reset(poolId: String, clientId: String, username: String, password: String, timeLimit: Double? = nil)
    async throws(AdapterError) -> AdapterObservation
  {
    try await observe(.reset(poolId: poolId, clientId: clientId, username: username, password: password), timeLimit)
  }

  /// `signIn`.
  public func signIn(
    username: String, password: String?, options: SignInRequestOptions = SignInRequestOptions(),
    timeLimit: Double? = nil
  ) async throws(AdapterError) -> AdapterObservation {
    try await observe(.signIn(username: username, password: password, options: options), timeLimit)
  }

  /// `confirmSignIn` with `answer`.
  public func confirmSignIn(answer: String, timeLimit: Double? = nil) async throws(AdapterError) -> AdapterObservation {
    try await observe(.confirmSignIn(answer: answer), timeLimit)
  }

  /// `signOut`.
  public func signOut(timeLimit: Double? = nil) async throws(AdapterError) -> AdapterObservation {
    try await observe(.signOut, timeLimit)
  }

  private func observe(_ body: AdapterRequest.Body, _ timeLimit: Double?) async throws(AdapterError)
    -> AdapterObservation
  {
    guard case .observation(let observation) = try await send(body, timeLimit: timeLimit) else {
      preconditionFailure("send checks that a request other than hello is answered by an observation")
    }
    return observation
  }

  /// Sends `body` and waits for its answer, at most `timeLimit` seconds (default: the
  /// adapter's). On any misbehaviour the adapter is closed and the error thrown.
  public func send(_ body: AdapterRequest.Body, timeLimit: Double? = nil) async throws(AdapterError) -> Answer {
    let request = AdapterRequest(id: state.nextID(), body)
    let name = "\(body.type) (id \(request.id))"
    if state.isClosed { throw error(.closed, request: name) }
    do {
      let answer = try await exchange(request, name: name, timeLimit: timeLimit ?? self.timeLimit)
      state.answered(request.id)
      return answer
    } catch {
      close()
      throw self.error(error, request: name)
    }
  }

  private func exchange(_ request: AdapterRequest, name: String, timeLimit: Double) async throws(AdapterError.Kind)
    -> Answer
  {
    var line: [UInt8]
    do {
      line = Array(try JSONEncoder().encode(request))
    } catch {
      preconditionFailure("a request always encodes: \(error)")
    }
    line.append(0x0A)
    let deadline = Date().addingTimeInterval(timeLimit)
    switch write(line, before: deadline) {
    case .written: break
    case .closed: throw await ended()
    case .full: throw .timedOut(seconds: timeLimit)
    }
    switch await state.nextLine(within: max(0, deadline.timeIntervalSinceNow)) {
    case .line(let text): return try answer(to: request, line: text)
    case .ended: throw await ended()
    case .timedOut: throw .timedOut(seconds: timeLimit)
    }
  }

  /// Reads `line` as the answer to `request`.
  private func answer(to request: AdapterRequest, line: String) throws(AdapterError.Kind) -> Answer {
    let data = Data(line.utf8)
    guard let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
      throw .notJSON
    }
    guard json is [String: Any] else { throw .notAnObject }
    let envelope: Envelope
    do {
      envelope = try JSONDecoder().decode(Envelope.self, from: data)
    } catch {
      throw .wrongShape(Self.reason(error))
    }
    guard let id = envelope.id else { throw .wrongShape("no integer id") }
    if id != request.id {
      throw state.wasAnswered(id) ? AdapterError.Kind.answeredTwice(id: id) : AdapterError.Kind.unexpectedID(id)
    }
    let expected = if case .hello = request.body { "hello" } else { "observation" }
    guard envelope.type == expected else {
      throw .wrongShape("the type is \(envelope.type.map { "\"\($0)\"" } ?? "missing"), not \"\(expected)\"")
    }
    do {
      if case .hello = request.body {
        let hello = try JSONDecoder().decode(AdapterHello.self, from: data)
        guard hello.protocol == Self.protocolVersion else { throw AdapterError.Kind.wrongProtocol(hello.protocol) }
        return .hello(hello)
      }
      let observation = try JSONDecoder().decode(AdapterObservation.self, from: data)
      if case .reset = request.body,
        observation.step != nil || observation.error != nil || observation.isSignedIn
      {
        throw AdapterError.Kind.resetIgnored
      }
      return .observation(observation)
    } catch let kind as AdapterError.Kind {
      throw kind
    } catch {
      throw .wrongShape(Self.reason(error))
    }
  }

  /// The id and type of any answer, read leniently so a missing one is named.
  private struct Envelope: Decodable {
    var id: Int?
    var type: String?
  }

  /// A decoding error in a few words: the member and what was wrong with it.
  static func reason(_ error: any Error) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      keys.isEmpty ? "the message" : keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
    switch error as? DecodingError {
    case .keyNotFound(let key, let context)?: return "\(path(context.codingPath + [key])) is missing"
    case .typeMismatch(let type, let context)?: return "\(path(context.codingPath)) is not of type \(type)"
    case .valueNotFound(let type, let context)?: return "\(path(context.codingPath)) is null, not \(type)"
    case .dataCorrupted(let context)?: return "\(path(context.codingPath)): \(context.debugDescription)"
    default: return "\(error)"
    }
  }

  /// How a write to the adapter's stdin went.
  private enum Written {
    case written
    /// The adapter closed its stdin (it exited, most likely).
    case closed
    /// The adapter did not read its stdin before the deadline.
    case full
  }

  /// Writes all of `bytes` to the adapter's stdin, waiting for room in the pipe until `deadline`.
  private func write(_ bytes: [UInt8], before deadline: Date) -> Written {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
      if n >= 0 {
        offset += n
        continue
      }
      switch errno {
      case EINTR: continue
      case EAGAIN:
        let left = deadline.timeIntervalSinceNow
        if left <= 0 { return .full }
        var ready = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
        _ = poll(&ready, 1, Int32(min(left * 1000, 1000).rounded(.up)))
      default: return .closed
      }
    }
    return .written
  }

  /// The error for an adapter whose stdout ended: its exit status once it has exited (waiting
  /// a few seconds for that and for the rest of its stderr).
  private func ended() async -> AdapterError.Kind {
    for _ in 0..<500 {
      if state.exitStatus != nil && state.stderrEnded { break }
      try? await Task.sleep(nanoseconds: 10_000_000)
    }
    let exit = state.exitStatus
    return .exited(status: exit?.status, signal: exit?.signal)
  }

  private func error(_ kind: AdapterError.Kind, request: String?) -> AdapterError {
    AdapterError(
      kind: kind, command: command.text, request: request, lastMessage: state.lastMessage,
      stderrTail: state.stderrTail)
  }

  // MARK: - Closing

  /// Whether the adapter's process is still running.
  public var isRunning: Bool { process.isRunning }

  /// Ends the adapter: closes its stdin, waits `gracePeriod` seconds for it to exit, then sends
  /// SIGTERM to its process group, then SIGKILL a second later; and last SIGKILL to the group in
  /// any case, so that nothing the adapter started outlives it. Blocks until the adapter has
  /// exited. Calling it again does nothing.
  public func close() {
    guard state.close() else { return }
    Glibc.close(input)
    if !waitForExit(seconds: gracePeriod) {
      kill(-processIdentifier, SIGTERM)
      kill(processIdentifier, SIGTERM)
      if !waitForExit(seconds: 1) {
        kill(processIdentifier, SIGKILL)
      }
    }
    // Whatever the adapter started in its group (a shell's background child) goes with it.
    kill(-processIdentifier, SIGKILL)
    // Foundation notices the exit (and reaps the adapter) once every copy of the adapter's
    // descriptors is closed, which the group's end makes sure of.
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    state.resumeWaiter(.ended)
  }

  /// Whether the adapter exited within `seconds`: Foundation saw it exit, or it is a zombie
  /// (it exited, and a child it left behind still holds a descriptor Foundation watches).
  private func waitForExit(seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && !Self.isZombie(processIdentifier) {
      if Date() >= deadline { return false }
      usleep(5_000)
    }
    return true
  }

  /// Whether `pid` has exited and waits to be reaped (Linux: its state in `/proc/PID/stat`).
  private static func isZombie(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
  }

  // MARK: - Readers

  /// Reads `fd` on a thread of its own, line by line, into `state` until end of file.
  private static func readLines(from fd: Int32, into state: SharedState) {
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      var line: [UInt8] = []
      while true {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        for byte in buffer[0..<n] {
          if byte == 0x0A {
            state.received(String(decoding: line, as: UTF8.self))
            line.removeAll(keepingCapacity: true)
          } else if line.count < SharedState.maxLine {
            line.append(byte)
          }
        }
      }
      if !line.isEmpty { state.received(String(decoding: line, as: UTF8.self)) }
      Glibc.close(fd)
      state.outputEnded()
    }
    thread.start()
  }

  /// Reads `fd` on a thread of its own into `state`'s stderr tail until end of file.
  private static func readTail(from fd: Int32, into state: SharedState) {
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 16_384)
      while true {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        state.stderr(buffer[0..<n])
      }
      Glibc.close(fd)
      state.stderrDone()
    }
    thread.start()
  }
}
