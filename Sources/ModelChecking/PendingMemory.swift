import Foundation

/// The memory that configuration classes waiting to be explored hold, shared by the threads of
/// one exploration. A class forks where a guard reads a variable it has not fixed, and each
/// child keeps a copy of the states explored before the fork until its turn comes: on a model
/// whose every step reads a new variable, depth-first exploration holds one copy per step, and
/// the memory grows with the square of the steps (10,000 boolean flags each read by its own step
/// took more than 8 GB). Past `limitBytes` the exploration stops and says so.
public final class PendingMemory: @unchecked Sendable {
  // `@unchecked Sendable` is safe: `held`, `peak` and `passed` are read and written under `lock` only.
  private let lock = NSLock()
  private var held = 0
  private var peak = 0
  private var passed = false
  /// The most bytes the waiting classes may hold (an estimate from the arrays they keep).
  public let limitBytes: Int

  /// 1,024 MB: the shipped models' waiting classes hold under a megabyte.
  public static let defaultLimitMegabytes = 1_024

  public init(limitBytes: Int) { self.limitBytes = limitBytes }

  /// Holds `bytes` more; false once the total has passed the limit (and from then on).
  public func hold(_ bytes: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    held += bytes
    peak = max(peak, held)
    if held > limitBytes { passed = true }
    return !passed
  }

  /// Pushes a fork's children onto a depth-first `stack` (the first child on top), each with the
  /// bytes it holds, after holding their sum; false, pushing none, once the limit is passed.
  public func push<Item>(_ children: [Item], holding bytes: [Int], onto stack: inout [(Item, Int)]) -> Bool {
    guard hold(bytes.reduce(0, +)) else { return false }
    stack.append(contentsOf: zip(children, bytes).reversed())
    return true
  }

  /// What passed the limit, in words, naming the option.
  public var exceededText: String {
    "the configuration classes waiting to be explored held more than \(limitMegabytes) MB (--max-pending-memory)"
  }

  /// Releases `bytes` a class held (its turn came).
  public func release(_ bytes: Int) {
    lock.lock()
    held -= bytes
    lock.unlock()
  }

  /// Whether the total has ever passed the limit.
  public var exceeded: Bool {
    lock.lock()
    defer { lock.unlock() }
    return passed
  }

  /// The most bytes held at once, in whole megabytes rounded up.
  public var peakMegabytes: Int {
    lock.lock()
    defer { lock.unlock() }
    return (peak + (1 << 20) - 1) >> 20
  }

  /// The limit, in megabytes, as the option gives it.
  public var limitMegabytes: Int { limitBytes >> 20 }
}
