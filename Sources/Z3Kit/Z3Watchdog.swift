import CZ3
import Foundation

/// The time limit of solver queries, kept by one thread of ours instead of Z3's own timer.
///
/// Z3 4.8.12 starts a timer for every query made with a `timeout` parameter (a third of
/// `prove`'s time on the shipped models went to it), and its timers are not safe when two
/// threads run timed queries at once. Here a query registers its deadline; the watchdog
/// thread calls `Z3_interrupt` on its context once the deadline passes while it still runs,
/// and the query answers unknown ("canceled"). The interrupt is sent under the same lock a
/// query takes to say it has ended, so it never reaches a later query or another call; an
/// interrupt that lands after Z3 returned and before the query said so is a no-op in Z3
/// (nothing is running to cancel, and Z3 4.8.12 keeps no pending cancel for the next call;
/// `Z3KitTests` checks both).
///
/// The thread is woken only for a deadline earlier than the one it already sleeps until: a
/// run of queries with the same time limit wakes it once per limit, not once per query (waking
/// it for each one cost about a tenth of `prove`'s CPU, in futex calls and thread switches).
final class Z3Watchdog: @unchecked Sendable {
  static let shared = Z3Watchdog()

  private struct Query {
    let context: Z3_context
    let deadline: UInt64
    var interrupted = false
  }

  private let condition = NSCondition()
  private var queries: [UInt64: Query] = [:]
  private var nextID: UInt64 = 0
  private var started = false
  /// When the watchdog thread looks next (`UInt64.max`: only when woken).
  private var wakeAt = UInt64.max
  private var wakeups = 0

  /// A watchdog of its own (`shared` serves every context); its thread starts with the first
  /// query and lives as long as the process.
  init() {}

  /// How many times a query woke the watchdog thread so far.
  var signalCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return wakeups
  }

  /// Runs `body` (one Z3 call on `context`), interrupting it once `milliseconds` have passed.
  /// Returns its result and whether the watchdog interrupted it.
  func run<T>(_ context: Z3_context, milliseconds: UInt32, _ body: () -> T) -> (T, interrupted: Bool) {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
    condition.lock()
    if !started {
      started = true
      let thread = Thread { [self] in watch() }
      thread.name = "Z3 watchdog"
      thread.start()
    }
    nextID += 1
    let id = nextID
    queries[id] = Query(context: context, deadline: deadline)
    // The watchdog sleeps until `wakeAt` (it looks at every pending query then); wake it only
    // for an earlier deadline.
    if deadline < wakeAt {
      wakeAt = deadline
      wakeups += 1
      condition.signal()
    }
    condition.unlock()
    let result = body()
    condition.lock()
    let interrupted = queries.removeValue(forKey: id)?.interrupted ?? false
    condition.unlock()
    return (result, interrupted)
  }

  private func watch() {
    condition.lock()
    while true {
      let now = DispatchTime.now().uptimeNanoseconds
      for (id, query) in queries where !query.interrupted && query.deadline <= now {
        queries[id]?.interrupted = true
        Z3_interrupt(query.context)
      }
      // Sleep until the earliest pending deadline, or until the time it meant to look anyway
      // when that is still to come (the queries that set it may have ended): a later query
      // then finds it asleep until before its deadline and need not wake it.
      let pending = queries.values.lazy.filter { !$0.interrupted }.map(\.deadline).min()
      if wakeAt <= now { wakeAt = .max }
      wakeAt = min(wakeAt, pending ?? .max)
      if wakeAt == .max {
        condition.wait()
      } else {
        let seconds = Double(wakeAt - min(wakeAt, DispatchTime.now().uptimeNanoseconds)) / 1e9
        _ = condition.wait(until: Date(timeIntervalSinceNow: seconds + 0.001))
      }
    }
  }
}
