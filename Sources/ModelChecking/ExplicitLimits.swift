import Dispatch
import Foundation

/// Resource limits of one explicit search. Past one, the search stops taking new work and the
/// report says which limit was reached (`CheckReport.incomplete`): violations found so far are
/// real, but nothing can be said to hold.
public struct ExplicitLimits: Sendable, Equatable {
  /// Most states over all configuration classes.
  public var maxStates: Int
  /// Most configuration classes explored.
  public var maxConfigurationClasses: Int
  /// Longest shortest path, in calls, within one class.
  public var maxDepth: Int
  /// Most bytes the classes waiting to be explored may hold (`PendingMemory`).
  public var maxPendingBytes: Int

  public init(
    maxStates: Int = .max, maxConfigurationClasses: Int = .max, maxDepth: Int = .max, maxPendingBytes: Int = .max
  ) {
    self.maxStates = maxStates
    self.maxConfigurationClasses = maxConfigurationClasses
    self.maxDepth = maxDepth
    self.maxPendingBytes = maxPendingBytes
  }

  /// No limit at all.
  public static let none = ExplicitLimits()
}

/// The running totals the workers charge against `ExplicitLimits`, under a lock.
final class LimitBudget: @unchecked Sendable {
  private let limits: ExplicitLimits
  private let lock = NSLock()
  private var states = 0
  private var classes = 0
  private(set) var reason: String?
  private let progress: (@Sendable (Int, Int) -> Void)?
  private var nextReport = DispatchTime.now().uptimeNanoseconds + 1_000_000_000
  /// What the workers' waiting classes hold.
  let pending: PendingMemory

  init(_ limits: ExplicitLimits, progress: (@Sendable (Int, Int) -> Void)? = nil) {
    self.limits = limits
    self.progress = progress
    pending = PendingMemory(limitBytes: limits.maxPendingBytes)
  }

  /// `PendingMemory.push` of a fork's children; false (with the reason set) once the waiting
  /// classes hold more than `--max-pending-memory`.
  func push<Item>(_ children: [Item], holding bytes: [Int], onto stack: inout [(Item, Int)]) -> Bool {
    if pending.push(children, holding: bytes, onto: &stack) { return true }
    lock.lock()
    defer { lock.unlock() }
    if reason == nil {
      reason =
        "--max-pending-memory \(pending.limitMegabytes) MB reached (configuration classes waiting to be explored "
        + "held about \(pending.peakMegabytes) MB)"
    }
    return false
  }

  var exhausted: Bool {
    lock.lock()
    defer { lock.unlock() }
    return reason != nil
  }

  /// States one more class may explore before `--max-states` is passed.
  var remainingStates: Int {
    lock.lock()
    defer { lock.unlock() }
    return max(0, limits.maxStates - states)
  }

  var maxDepth: Int { limits.maxDepth }

  /// Charges one finished class; false once any limit is passed.
  func charge(_ leaf: ExplicitChecker.Leaf) -> Bool {
    guard let graph = leaf.graph else { return !exhausted }
    let depth = graph.depth.last ?? 0
    lock.lock()
    defer { lock.unlock() }
    states += graph.nodeCount * leaf.classes
    classes += leaf.classes
    if let progress {
      let now = DispatchTime.now().uptimeNanoseconds
      if now >= nextReport {
        nextReport = now + 1_000_000_000
        progress(classes, states)
      }
    }
    if reason == nil {
      if states > limits.maxStates {
        reason = "--max-states \(limits.maxStates) reached (\(states) states explored)"
      } else if classes > limits.maxConfigurationClasses {
        reason = "--max-configurations \(limits.maxConfigurationClasses) reached (configuration classes explored)"
      } else if depth > limits.maxDepth {
        reason = "--max-depth \(limits.maxDepth) reached (a class has a state \(depth) calls deep)"
      }
    }
    return reason == nil
  }
}
