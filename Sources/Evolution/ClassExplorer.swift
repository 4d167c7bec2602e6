import Foundation
import ModelChecking
import SignInModel

/// A configuration class: the joint variables the flows of every side read, fixed; every
/// configuration that agrees on them behaves alike on each side.
public struct ExploredClass: Sendable {
  /// Joint variable → joint value, or -1 when no side read it.
  public let assignment: [Int]
  /// Per side: its behaviour, or nil when the class is outside that side.
  public let behaviours: [SideBehaviour?]
}

/// Explores the configuration classes of one or more models at once: starts with every
/// joint variable free and forks a class only on a variable some side's flow reads, resuming
/// each side's search where it stopped, so the work grows with classes, never with
/// configurations. Classes are handed to the caller one by one, not kept.
public struct ClassExplorer {
  public let space: JointSpace
  public let vocabulary: Vocabulary
  private let explorers: [SideExplorer]
  /// How many constraints of a side a class may break and still be explored on that side: 0
  /// normally; 1 when lint counts what each constraint alone excludes.
  let brokenConstraintsAllowed: Int
  /// Each side's constraints, compiled.
  private let constraintCodes: [[CompiledExpr]]
  /// Per side, the step renames it was made with (for its helpers, `explore(copies:_:)`).
  private let renames: [[String: String]]
  /// Whether the classes' behaviours keep their transitions (`SideExplorer.recordsTransitions`).
  let recordsTransitions: Bool
  /// Set by the caller (`ExplorationStop.request()`) to end the exploration early: no class is
  /// explored after it, on any thread; those explored before may still be visited.
  public let stop: ExplorationStop
  /// What the classes waiting to be explored hold, on every thread: past its limit the
  /// exploration stops (`stop` is requested) and `pending.exceeded` says why.
  public let pending: PendingMemory

  /// - Parameter vocabulary: the names' numbering; explorers of the same models that share one
  ///   give the same transition the same code (`explore(copies:_:)`).
  /// - Parameter recordsTransitions: false when the caller reads only the steps reached,
  ///   `doneReachable` and the responses given (`SideBehaviour.responsesGiven`); the classes are
  ///   then coarser: a class is forked only where its configurations behave differently.
  public init(
    space: JointSpace, renames: [[String: String]] = [], brokenConstraintsAllowed: Int = 0,
    vocabulary: Vocabulary = Vocabulary(), recordsTransitions: Bool = true, stop: ExplorationStop = ExplorationStop(),
    pending: PendingMemory = PendingMemory(limitBytes: .max)
  ) {
    self.space = space
    self.stop = stop
    self.pending = pending
    self.recordsTransitions = recordsTransitions
    self.vocabulary = vocabulary
    self.renames = renames
    // Flow variables every side has with the same domain: transitions are compared in their terms.
    let flows = space.sides.map { side in
      Set(side.model.flowIndices.map { "\(side.model.variables[$0].name):\(side.model.variables[$0].domain.spelling)" })
    }
    let shared = Set(
      flows.dropFirst().reduce(flows.first ?? []) { $0.intersection($1) }.map { String($0.split(separator: ":")[0]) })
    // Platforms every side has: what a platform reports is compared only where both can say.
    let platforms = space.sides.dropFirst().reduce(space.sides.first?.model.platforms ?? []) { common, side in
      common.filter(side.model.platforms.contains)
    }
    self.explorers = space.sides.enumerated().map { s, side in
      SideExplorer(
        model: side.model, vocabulary: vocabulary, renames: s < renames.count ? renames[s] : [:], sharedFlow: shared,
        platforms: platforms, recordsTransitions: recordsTransitions)
    }
    self.brokenConstraintsAllowed = brokenConstraintsAllowed
    constraintCodes = space.sides.map { $0.model.constraints.map { CompiledExpr($0.expr) } }
  }

  enum SideState {
    case absent
    case running(SideExplorer.Search)
    case finished(SideBehaviour)
  }

  /// Hands every class to `visit`, depth first, forks in value order.
  public func explore(_ visit: (ExploredClass) -> Void) { explore(from: root(), visit) }

  /// `explore(_:)` of the classes under `start`.
  func explore(from start: Pending, _ visit: (ExploredClass) -> Void) {
    // Each waiting class with the bytes it holds.
    var work = [(start, 0)]
    while let (item, bytes) = work.popLast() {
      if stop.isRequested { return }
      pending.release(bytes)
      switch advance(item) {
      case .visit(let c): if let c { visit(c) }
      case .fork(let children):
        guard pending.push(children, holding: Self.heldBytes(children), onto: &work) else {
          stop.request()
          return
        }
      }
    }
  }

  /// About how many bytes the children of one fork hold while they wait, in their order: each
  /// its own assignment and valuations; the searches explored before the fork, which they
  /// share until each runs on, counted with the last (the one explored last).
  static func heldBytes(_ children: [Pending]) -> [Int] {
    var bytes = children.map { child in
      8 * child.assignment.count
        + child.sides.reduce(0) { total, side in
          if case .running(let search) = side { return total + 8 * search.valuation.count }
          return total
        }
    }
    if let last = children.last {
      bytes[bytes.count - 1] += last.sides.reduce(0) { total, side in
        if case .running(let search) = side { return total + search.heldBytes }
        return total
      }
    }
    return bytes
  }

  /// A class still to explore: its joint assignment and each side's search.
  struct Pending {
    var assignment: [Int]
    var sides: [SideState]
  }

  /// What one step of the search makes of a class: the class finished (nil when no side has
  /// it), or its children on the variable some side needs, in value order.
  enum Advance {
    case visit(ExploredClass?)
    case fork([Pending])
  }

  /// An explorer like this one (same renames, constraints allowed broken and vocabulary) over
  /// `models`, a copy of this one's models.
  func helper(over models: [SignInModel]) -> ClassExplorer {
    ClassExplorer(
      space: JointSpace(models), renames: renames, brokenConstraintsAllowed: brokenConstraintsAllowed,
      vocabulary: vocabulary, recordsTransitions: recordsTransitions, stop: stop, pending: pending)
  }

  func root() -> Pending {
    let root = [Int](repeating: -1, count: space.count)
    return Pending(
      assignment: root,
      sides: space.sides.indices.map { s in
        guard let v = space.valuation(root, side: s) else { return .absent }
        return .running(explorers[s].start(v))
      })
  }

  /// Runs each side of `item` until one needs a joint variable the class has not fixed (the
  /// class forks on it) or every side is done.
  func advance(_ item: Pending) -> Advance {
    var sides = item.sides
    for s in sides.indices {
      guard case .running(var search) = sides[s] else { continue }
      if brokenConstraint(search.valuation, side: s) {
        sides[s] = .absent
        continue
      }
      guard let needed = explorers[s].run(&search) else {
        sides[s] = .finished(search.behaviour)
        continue
      }
      guard let j = space.sides[s].joint[needed] else {
        sides[s] = .absent
        continue
      }
      sides[s] = .running(search)
      var children: [Pending] = []
      for v in space.values[j].indices where space.sides.contains(where: { $0.allowed[j][v] }) {
        var child = item.assignment
        child[j] = v
        children.append(Pending(assignment: child, sides: fork(sides, variable: j, value: v)))
      }
      return .fork(children)
    }
    let behaviours: [SideBehaviour?] = sides.map { if case .finished(let b) = $0 { return b } else { return nil } }
    guard behaviours.contains(where: { $0 != nil }) else { return .visit(nil) }
    return .visit(ExploredClass(assignment: item.assignment, behaviours: behaviours))
  }

  /// The sides' states for a child class with joint variable `j` fixed to `v`.
  private func fork(_ sides: [SideState], variable j: Int, value v: Int) -> [SideState] {
    sides.enumerated().map { s, state in
      let side = space.sides[s]
      guard side.allowed[j][v] else { return .absent }
      guard case .running(var search) = state else { return state }
      if let i = side.variable[j], let value = side.value[j][v] { search.valuation[i] = value }
      return .running(search)
    }
  }

  private func brokenConstraint(_ valuation: [Int], side: Int) -> Bool {
    var broken = 0
    for code in constraintCodes[side] {
      if let holds = try? code.holds(valuation), !holds {
        broken += 1
        if broken > brokenConstraintsAllowed { return true }
      }
    }
    return false
  }
}

/// A request to end a class exploration early, shared by the threads exploring it.
public final class ExplorationStop: @unchecked Sendable {
  // `@unchecked Sendable` is safe: `requested` is read and written under `lock` only.
  private let lock = NSLock()
  private var requested = false

  public init() {}

  public func request() {
    lock.lock()
    requested = true
    lock.unlock()
  }

  public var isRequested: Bool {
    lock.lock()
    defer { lock.unlock() }
    return requested
  }
}
