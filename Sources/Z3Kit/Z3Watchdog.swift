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
    let earliest = queries.values.lazy.map(\.deadline).min()
    queries[id] = Query(context: context, deadline: deadline)
    // The watchdog sleeps until the earliest deadline it knows; wake it only for an earlier one.
    if earliest.map({ deadline < $0 }) ?? true { condition.signal() }
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
      let pending = queries.values.lazy.filter { !$0.interrupted }.map(\.deadline).min()
      if let pending {
        let seconds = Double(pending - min(pending, DispatchTime.now().uptimeNanoseconds)) / 1e9
        _ = condition.wait(until: Date(timeIntervalSinceNow: seconds + 0.001))
      } else {
        condition.wait()
      }
    }
  }
}
