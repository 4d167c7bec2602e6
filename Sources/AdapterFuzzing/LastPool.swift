import Foundation

/// The pool of a worker's previous case, removed when the next case makes its own (in process by
/// `ServedPools`, on a `serve` elsewhere by `RemotePools`). `@unchecked Sendable` is safe: `pool`
/// is read and written only under `lock`.
final class LastPool: @unchecked Sendable {
  private let lock = NSLock()
  private var pool: String?

  /// The pool kept, which is forgotten.
  func take() -> String? {
    lock.withLock {
      defer { pool = nil }
      return pool
    }
  }

  func set(_ new: String) { lock.withLock { pool = new } }
}
