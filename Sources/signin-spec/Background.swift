import Dispatch

/// A computation started on another thread, whose result `wait()` returns: `verify` lints
/// beside the explicit search (lint explores the configuration classes on one thread of its
/// own) and prints the warnings before the verdicts, as it always did.
final class Background<Value: Sendable>: @unchecked Sendable {
  private let group = DispatchGroup()
  private var value: Value?

  /// Starts `work` on `queue` (by default a concurrent one; a serial queue runs the works
  /// given to it one after another).
  init(on queue: DispatchQueue = .global(), _ work: @escaping @Sendable () -> Value) {
    group.enter()
    queue.async {
      self.value = work()
      self.group.leave()
    }
  }

  /// The result, once the work is done (the group's wait orders the write before this read).
  func wait() -> Value {
    group.wait()
    guard let value else { preconditionFailure("Background work finished without a value") }
    return value
  }
}
