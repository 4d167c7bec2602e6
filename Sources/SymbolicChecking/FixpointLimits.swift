import Dispatch

/// Deterministic and wall-clock bounds on one property's fixpoints (a 200-state chain
/// ran for an hour): past either, the property is UNKNOWN with the limit and its option named.
/// `--rlimit` bounds each solver query; these bound the iterations and the `simplify` calls
/// between queries, which `--rlimit` does not see.
public struct FixpointLimits: Sendable, Equatable {
  /// The most iterations of one fixpoint (`--max-iterations`); deterministic.
  public var maxIterations: Int
  /// The wall-clock budget of one property, in seconds (`--property-budget`), checked before
  /// each iteration and after each step's `simplify`; 0 for none.
  public var budgetSeconds: Double

  /// The wall-clock budget of all of one model's properties together, in seconds
  /// (`--z3-budget`); 0 for none. Past it the properties not yet decided are UNKNOWN, naming it.
  public var runBudgetSeconds: Double = 0
  /// When the run's budget ends (uptime nanoseconds), set when the run starts.
  var deadline: UInt64? = nil
  /// The most transition branches (`TransitionSystem.branches`) a model may have for Z3
  /// (`--z3-max-branches`); above it every property is UNKNOWN before Z3 is called: building
  /// and simplifying the per-step formulas of such a model takes minutes in one uninterruptible
  /// call (3,000 unreachable steps, 12,000 branches: over 100 s for the first query). The
  /// shipped 2026 model has 370.
  public var maxBranches: Int = defaultMaxBranches
  public static let defaultMaxBranches = 5_000

  /// The most work (Z3's deterministic "rlimit count") one bounded search may do over all its
  /// depths (`--search-rlimit`), 0 for none; checked between depths (the depth that crosses it
  /// finishes, each of its queries bounded by `--rlimit`): past it the search stops as if it had
  /// reached its depth. The searches shorten a `terminates` counterexample and find paths to each step;
  /// their queries grow steeply with the depth (on a chain of 50 code steps, 0.2 M units to 4
  /// calls, 15 M to 12, 133 M to 22: 30 s), which each query's `--rlimit` does not bound.
  public var searchWorkLimit: UInt64 = defaultSearchWorkLimit
  /// About 2 s on the 2-core machine; the searches of the shipped models and of 156 mutants of
  /// them need at most 0.7 M.
  public static let defaultSearchWorkLimit: UInt64 = 10_000_000

  public static let defaultMaxIterations = 500
  public static let defaultBudgetSeconds = 120.0
  /// `verify`'s and `prove`'s default `--z3-budget`: a model Z3 cannot decide in this time
  /// answers UNKNOWN within about a minute instead of running on.
  public static let defaultRunBudgetSeconds = 45.0

  /// The reason given when the run's budget has run out.
  func runSpent(after iterations: Int? = nil) -> String? {
    guard let deadline, DispatchTime.now().uptimeNanoseconds > deadline else { return nil }
    let budget = Self.seconds(runBudgetSeconds)
    let when = iterations.map { " after \($0) fixpoint iterations" } ?? " before this property"
    return "the Z3 budget of \(budget) s for this model ran out\(when) (--z3-budget \(budget))"
  }

  static func seconds(_ value: Double) -> String {
    value.rounded() == value && value < 1e15 ? String(Int(value)) : String(value)
  }

  public init(maxIterations: Int = defaultMaxIterations, budgetSeconds: Double = defaultBudgetSeconds) {
    self.maxIterations = maxIterations
    self.budgetSeconds = budgetSeconds
  }

  /// The reason given when the iterations run out.
  func iterationsSpent() -> String {
    "no fixpoint after \(maxIterations) iterations, the limit (--max-iterations \(maxIterations))"
  }

  /// A clock for one property: `spent(after:)` gives the reason once its budget has run out.
  struct Clock {
    let limits: FixpointLimits
    let start = DispatchTime.now().uptimeNanoseconds

    func spent(after iterations: Int) -> String? {
      if let run = limits.runSpent(after: iterations) { return run }
      guard limits.budgetSeconds > 0 else { return nil }
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      guard seconds > limits.budgetSeconds else { return nil }
      let budget =
        limits.budgetSeconds.rounded() == limits.budgetSeconds
        ? String(Int(limits.budgetSeconds)) : String(limits.budgetSeconds)
      return "the time budget of \(budget) s for one property ran out after \(iterations) fixpoint iterations "
        + "(--property-budget \(budget))"
    }
  }

  /// Is `reason` one of these limits (it is shown as is, not as a Z3 answer)?
  static func isLimit(_ reason: String) -> Bool {
    ["(--max-iterations ", "(--property-budget ", "(--z3-budget ", "(--z3-max-branches "].contains {
      reason.contains($0)
    }
  }
}
