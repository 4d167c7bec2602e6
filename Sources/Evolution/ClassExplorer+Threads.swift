import Foundation
import SignInModel

extension ClassExplorer {
  /// `explore(_:)` on several threads: `visit` sees the same classes in the same order, on the
  /// calling thread, while one thread per entry of `copies` (a copy of this explorer's models,
  /// `ModelLoader.copyForThread`) explores over it, about `bufferedClasses` classes ahead of the
  /// visitor at most (a thread may add one chunk of `chunk` classes before it waits). Each
  /// thread reads its own copy because threads that share objects contend for their reference
  /// counts, the visitor's included; all share this explorer's vocabulary, so that a
  /// transition has one code on every thread. Without copies, `explore(_:)`.
  ///
  /// The class tree is first expanded level by level, in visiting order, until it has about
  /// `64 × threads` subtrees; threads then take the subtrees in that order, and the calling
  /// thread visits each subtree's classes as they come, in order.
  public func explore(
    copies: [[SignInModel]], bufferedClasses: Int = ClassExplorer.defaultBufferedClasses,
    _ visit: (ExploredClass) -> Void
  ) {
    guard !copies.isEmpty else { return explore(visit) }
    let threads = copies.count
    let frontier = expandedFrontier(target: 64 * threads)
    let handoff = Handoff(frontier, window: 4 * threads, bufferedClasses: bufferedClasses)
    for models in copies {
      let worker = Unchecked(helper(over: models))
      Thread {
        while let (entry, item) = handoff.claim() {
          var classes: [ExploredClass] = []
          worker.value.explore(from: item) { c in
            classes.append(c)
            if classes.count == Self.chunk {
              handoff.append(classes, to: entry)
              classes.removeAll(keepingCapacity: true)
            }
          }
          handoff.append(classes, to: entry)
          handoff.complete(entry)
        }
        handoff.finish()
      }.start()
    }
    for entry in frontier.indices {
      while let classes = handoff.take(entry) {
        for c in classes { visit(c) }
      }
    }
    handoff.waitForThreads(threads)
  }

  /// The most classes explored and not yet visited (the subtree being visited's included)
  /// before a thread exploring a later subtree waits, by default. A class of the 2026 model
  /// holds about 80 KB (its transitions and search tree on each side); fewer keep the threads
  /// waiting for the visitor. `diff` of
  /// the 2026 model with itself on 2 threads, peak memory and wall time: 512, 110 MB, 7.3–7.7 s;
  /// 1,024, 150 MB, 6.4–7.3 s; 2,048, 170 MB, 6.3–7.2 s (one thread: 42 MB, 10.3–11 s).
  public static let defaultBufferedClasses = 1_024

  /// Classes a thread hands over at a time.
  static let chunk = 64

  /// An entry of the expanded class tree: a class finished (nil when no side has it), or a
  /// subtree still to explore.
  enum FrontierEntry {
    case finished(ExploredClass?)
    case subtree(Pending)
  }

  /// The class tree expanded level by level until it has `target` subtrees still to explore
  /// (or none is left), in the order `explore(_:)` visits them.
  func expandedFrontier(target: Int) -> [FrontierEntry] {
    var entries: [FrontierEntry] = [.subtree(root())]
    while true {
      let open = entries.reduce(0) { if case .subtree = $1 { $0 + 1 } else { $0 } }
      guard open > 0, open < target else { return entries }
      var next: [FrontierEntry] = []
      for entry in entries {
        guard case .subtree(let item) = entry else {
          next.append(entry)
          continue
        }
        switch advance(item) {
        case .visit(let c): next.append(.finished(c))
        case .fork(let children): next += children.map { .subtree($0) }
        }
      }
      entries = next
    }
  }
}

/// A value handed to another thread that only that thread then reads.
private struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// The subtrees the threads explore and the classes they found, in visiting order. A thread
/// exploring a subtree after the one being visited waits while more than `bufferedClasses`
/// classes wait to be visited. `@unchecked Sendable` is safe: every access to its state holds
/// `condition`'s lock.
private final class Handoff: @unchecked Sendable {
  private let condition = NSCondition()
  /// Per frontier entry: classes explored and not yet visited, and whether it is explored.
  private var found: [[ExploredClass]]
  private var explored: [Bool]
  /// The subtrees to explore, and the frontier entry of each.
  private let items: [ClassExplorer.Pending]
  private let itemEntries: [Int]
  private var nextItem = 0
  /// The entry being visited (every entry before it is visited).
  private var visiting = 0
  private var buffered = 0
  private let window: Int
  private let bufferedClasses: Int
  private var finishedThreads = 0

  init(_ frontier: [ClassExplorer.FrontierEntry], window: Int, bufferedClasses: Int) {
    var found: [[ExploredClass]] = []
    var explored: [Bool] = []
    var items: [ClassExplorer.Pending] = []
    var itemEntries: [Int] = []
    var buffered = 0
    for entry in frontier {
      switch entry {
      case .finished(let c):
        found.append(c.map { [$0] } ?? [])
        buffered += c == nil ? 0 : 1
        explored.append(true)
      case .subtree(let item):
        itemEntries.append(found.count)
        items.append(item)
        found.append([])
        explored.append(false)
      }
    }
    self.found = found
    self.buffered = buffered
    self.explored = explored
    self.items = items
    self.itemEntries = itemEntries
    self.window = window
    self.bufferedClasses = bufferedClasses
  }

  /// The next subtree to explore, once it is within `window` entries of the one being
  /// visited; nil when every subtree is taken.
  func claim() -> (entry: Int, item: ClassExplorer.Pending)? {
    condition.lock()
    defer { condition.unlock() }
    while nextItem < items.count && itemEntries[nextItem] >= visiting + window { condition.wait() }
    guard nextItem < items.count else { return nil }
    nextItem += 1
    return (itemEntries[nextItem - 1], items[nextItem - 1])
  }

  /// Hands over classes of `entry`, then waits while too many wait to be visited: in all, or,
  /// when `entry` is the one being visited, of `entry` itself (the visitor drains exactly that
  /// one, so waiting on the others' classes could wait for ever; not waiting at all let a
  /// visitor slower than the explorer buffer the whole entry: 1.3 GB for lint of 1,000 flags).
  func append(_ classes: [ExploredClass], to entry: Int) {
    condition.lock()
    defer { condition.unlock() }
    found[entry] += classes
    buffered += classes.count
    condition.broadcast()
    while entry == visiting ? found[entry].count > bufferedClasses : buffered > bufferedClasses { condition.wait() }
  }

  func complete(_ entry: Int) {
    condition.lock()
    explored[entry] = true
    condition.broadcast()
    condition.unlock()
  }

  /// The classes of `entry` explored since the last call, waiting for some; nil once `entry`
  /// is explored and every class of it was taken (the next entry is then being visited).
  func take(_ entry: Int) -> [ExploredClass]? {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if !found[entry].isEmpty {
        let classes = found[entry]
        found[entry] = []
        buffered -= classes.count
        condition.broadcast()
        return classes
      }
      if explored[entry] {
        visiting = entry + 1
        condition.broadcast()
        return nil
      }
      condition.wait()
    }
  }

  func finish() {
    condition.lock()
    finishedThreads += 1
    condition.broadcast()
    condition.unlock()
  }

  func waitForThreads(_ count: Int) {
    condition.lock()
    while finishedThreads < count { condition.wait() }
    condition.unlock()
  }
}
