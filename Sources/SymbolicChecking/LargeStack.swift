import Foundation

/// Holds a result across threads. `@unchecked Sendable` is safe: the worker thread writes
/// `value` once before signalling the semaphore, and the caller reads it only after waiting.
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}

/// Runs `work` on a thread with a large stack and waits for it. Z3 recurses over terms,
/// and the fixpoint formulas nest deeply, so the main thread's 8 MiB stack is not enough.
func onLargeStack<T>(megabytes: Int = 1024, _ work: @escaping @Sendable () -> T) -> T {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    box.value = work()
    done.signal()
  }
  thread.stackSize = megabytes << 20
  thread.start()
  done.wait()
  return box.value!
}
