import ModelChecking
import SignInModel

/// `signin-spec diff OLD NEW`: what changed in the declarations, which configurations behave
/// differently (counted exactly, grouped by the first differing transition), which are added
/// or removed, and where clients of OLD get stuck on NEW.
public struct ModelDiff: Sendable {
  public let old: SignInModel
  public let new: SignInModel
  public let platforms: [String]
  public let structural: [StructuralChange]
  public let stepRenames: [String: String]
  /// Configurations in both models, and how many of them behave alike.
  public let compared: Double
  public let unchanged: Double
  public let changed: [BehaviourGroup]
  public let added: [BehaviourGroup]
  public let removed: [BehaviourGroup]
  /// Configurations that reach `done` on OLD and cannot on NEW (breaking, whatever the client).
  public let lostDone: [BehaviourGroup]
  public let compatibility: [CompatibilityFinding]
  /// Variables one model lacks that declare no `default:` (compared at their first value).
  public let missingDefaults: [String]
  public let classes: Int
  /// Whether the exploration stopped at `maxClasses` (`diff --max-classes`) or when the classes
  /// waiting to be explored held more than `--max-pending-memory`: the counts and groups then
  /// cover only the classes explored, and a change in the others is not reported.
  public var limitReached: Bool { limit != nil }
  /// The limit that stopped the exploration, with its option, in words; nil for a whole diff.
  public let limit: String?
  /// The most configuration classes explored.
  public let maxClasses: Int
  /// The states of both models' flows over the classes compared (`SideBehaviour.stateCount`).
  public let statesCompared: Int

  /// 200,000: the shipped models' diffs explore at most about 44,000 classes (the 2026 model
  /// against the voice example, 3 s); 30 independent flags each read by a guard have 2^30.
  public static let defaultMaxClasses = 200_000
  /// 20,000,000: the shipped models' diffs compare at most 3.9 million states (the 2026 model
  /// against the voice example, 43,829 classes); 1,000 flags each read by a guard have classes
  /// of 2,000 states (both sides), and 200,000 of them took 92 s.
  public static let defaultMaxStates = 20_000_000

  public var changedCount: Double { changed.reduce(0) { $0 + $1.configurations } }
  public var addedCount: Double { added.reduce(0) { $0 + $1.configurations } }
  public var removedCount: Double { removed.reduce(0) { $0 + $1.configurations } }
  public var isBreaking: Bool { !lostDone.isEmpty || !compatibility.isEmpty }

  /// - Parameters:
  ///   - copies: per thread, its own copy of OLD and NEW, in that order (`ModelLoader.copyForThread`):
  ///     the classes are explored on `copies.count` threads beside the comparison, with the same result.
  ///   - bufferedClasses: with copies, the most classes explored ahead of the comparison.
  ///   - maxClasses: the most configuration classes compared; past it the exploration stops on
  ///     every thread and `limitReached` is set.
  ///   - maxPendingBytes: the most bytes the classes waiting to be explored may hold (`PendingMemory`);
  ///     past it, the same.
  ///   - maxStates: the most states compared, both models' over all classes (`statesCompared`);
  ///     the class that would pass it is not compared, and the same.
  public init(
    old: SignInModel, new: SignInModel, platforms: [String]? = nil, copies: [[SignInModel]] = [],
    bufferedClasses: Int = ClassExplorer.defaultBufferedClasses, maxClasses: Int = ModelDiff.defaultMaxClasses,
    maxPendingBytes: Int = PendingMemory.defaultLimitMegabytes << 20, maxStates: Int = ModelDiff.defaultMaxStates
  ) {
    self.old = old
    self.new = new
    let platforms = platforms ?? old.platforms
    self.platforms = platforms
    (structural, stepRenames) = StructuralDiff.compare(old, new)
    let space = JointSpace([old, new])
    missingDefaults = space.missingDefaults
    let explorer = ClassExplorer(
      space: space, renames: [stepRenames, [:]], pending: PendingMemory(limitBytes: maxPendingBytes))
    let counter = ConfigurationCounter(space: space)
    let oldPredicates = counter.constraints(of: [0])
    let newPredicates = counter.constraints(of: [1])
    let oldQuery = counter.query(members: [0], predicates: oldPredicates)
    let newQuery = counter.query(members: [1], predicates: newPredicates)
    let bothQuery = counter.query(members: [0, 1], predicates: oldPredicates + newPredicates)
    var builder = DiffAccumulator(
      old: old, new: new, space: space, platforms: platforms, vocabulary: explorer.vocabulary)
    var classCount = 0
    var states = 0
    var limited: String?
    explorer.explore(copies: copies, bufferedClasses: bufferedClasses) { c in
      guard limited == nil else { return }
      let classStates = c.behaviours.reduce(0) { $0 + ($1?.stateCount ?? 0) }
      if classCount >= maxClasses {
        limited = "stopped after \(maxClasses) configuration classes (--max-classes)"
      } else if states + classStates > maxStates {
        limited = "stopped before passing \(maxStates) states compared (--max-states), after \(classCount) classes"
      }
      if limited != nil {
        explorer.stop.request()
        return
      }
      classCount += 1
      states += classStates
      let nOld = c.behaviours[0] == nil ? 0 : counter.count(c.assignment, oldQuery)
      let nNew = c.behaviours[1] == nil ? 0 : counter.count(c.assignment, newQuery)
      let nBoth = nOld == 0 || nNew == 0 ? 0 : counter.count(c.assignment, bothQuery)
      builder.add(c, nOld: nOld, nNew: nNew, nBoth: nBoth)
    }
    classes = classCount
    statesCompared = states
    if let limited {
      limit = limited
    } else if explorer.pending.exceeded {
      limit = "stopped when \(explorer.pending.exceededText)"
    } else {
      limit = nil
    }
    self.maxClasses = maxClasses
    compared = builder.compared
    unchanged = builder.unchanged
    // Most configurations first; groups with as many, by key (a dictionary's order changes
    // from run to run).
    func byCount(_ groups: [String: BehaviourGroup]) -> [BehaviourGroup] {
      groups.sorted {
        $0.value.configurations != $1.value.configurations
          ? $0.value.configurations > $1.value.configurations : $0.key < $1.key
      }.map(\.value)
    }
    changed = byCount(builder.changed)
    added = byCount(builder.added)
    removed = byCount(builder.removed)
    lostDone = byCount(builder.lostDone)
    compatibility = builder.findings.sorted {
      ($0.value.platform, $0.value.kind.rawValue, $0.value.step, $0.key)
        < ($1.value.platform, $1.value.kind.rawValue, $1.value.step, $1.key)
    }.map(\.value)
  }
}
