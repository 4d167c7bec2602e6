import Foundation

/// What the reader threads, the termination handler and the calls of an `AdapterProcess`
/// share, under one lock: lines read and not yet taken, the call waiting for a line, the
/// adapter's last message, the tail of its stderr and its exit. `@unchecked Sendable` is safe:
/// every member is read and written only under `lock`.
final class SharedState: @unchecked Sendable {
  /// What a call waiting for a line gets.
  enum Event: Sendable {
    case line(String)
    case ended
    case timedOut
  }

  /// The longest line kept, in bytes; the rest of a longer line is dropped (it is not an answer).
  static let maxLine = 1 << 20
  /// How much of the adapter's stderr is kept, in bytes.
  static let tailBytes = 2_048

  private let lock = NSLock()
  private var lines: [String] = []
  private var waiter: (token: Int, continuation: CheckedContinuation<Event, Never>)?
  private var tokens = 0
  private var ended = false
  private var last: String?
  private var tail: [UInt8] = []
  private var tailEnded = false
  private var exit: (status: Int32?, signal: Int32?)?
  private var answeredIDs = Set<Int>()
  private var closed = false
  private var lastID = 0

  /// A line from the adapter's stdout: to the waiting call, or kept for the next one.
  func received(_ line: String) {
    let waiting: CheckedContinuation<Event, Never>? = lock.withLock {
      last = line.count > 300 ? String(line.prefix(300)) + "…" : line
      if let w = waiter {
        waiter = nil
        return w.continuation
      }
      lines.append(line)
      return nil
    }
    waiting?.resume(returning: .line(line))
  }

  /// The adapter's stdout ended.
  func outputEnded() {
    lock.withLock { ended = true }
    resumeWaiter(.ended)
  }

  /// Resumes the waiting call, if any, with `event`.
  func resumeWaiter(_ event: Event) {
    let waiting = lock.withLock { () -> CheckedContinuation<Event, Never>? in
      defer { waiter = nil }
      return waiter?.continuation
    }
    waiting?.resume(returning: event)
  }

  /// The next line, or the end of the output, or `.timedOut` after `seconds`.
  func nextLine(within seconds: Double) async -> Event {
    await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
      let token: Int? = lock.withLock {
        if !lines.isEmpty {
          let line = lines.removeFirst()
          continuation.resume(returning: .line(line))
          return nil
        }
        if ended || closed {
          continuation.resume(returning: .ended)
          return nil
        }
        precondition(waiter == nil, "AdapterProcess: one call at a time (the protocol has one request in flight)")
        tokens += 1
        waiter = (tokens, continuation)
        return tokens
      }
      guard let token else { return }
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
        guard let self else { return }
        let late = self.lock.withLock { () -> CheckedContinuation<Event, Never>? in
          guard let w = self.waiter, w.token == token else { return nil }
          self.waiter = nil
          return w.continuation
        }
        late?.resume(returning: .timedOut)
      }
    }
  }

  func stderr(_ bytes: ArraySlice<UInt8>) {
    lock.withLock {
      tail.append(contentsOf: bytes)
      if tail.count > Self.tailBytes { tail.removeFirst(tail.count - Self.tailBytes) }
    }
  }

  func stderrDone() { lock.withLock { tailEnded = true } }

  func exited(status: Int32?, signal: Int32?) { lock.withLock { exit = (status, signal) } }

  /// The next request's id: 1, 2, 3, …
  func nextID() -> Int {
    lock.withLock {
      lastID += 1
      return lastID
    }
  }

  func answered(_ id: Int) { _ = lock.withLock { answeredIDs.insert(id) } }

  func wasAnswered(_ id: Int) -> Bool { lock.withLock { answeredIDs.contains(id) } }

  /// Marks the adapter closed; false when it already was.
  func close() -> Bool {
    lock.withLock {
      if closed { return false }
      closed = true
      return true
    }
  }

  var isClosed: Bool { lock.withLock { closed } }
  var lastMessage: String? { lock.withLock { last } }
  var stderrEnded: Bool { lock.withLock { tailEnded } }
  var exitStatus: (status: Int32?, signal: Int32?)? { lock.withLock { exit } }

  /// The end of the adapter's stderr as text, from the first whole line kept.
  var stderrTail: String {
    let bytes = lock.withLock { tail }
    var text = String(decoding: bytes, as: UTF8.self)
    if bytes.count >= Self.tailBytes, let newline = text.firstIndex(of: "\n") {
      text = String(text[text.index(after: newline)...])
    }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
