import Dispatch

/// Deterministic and wall-clock bounds on one property's fixpoints (issue 14: a 200-state chain
/// ran for an hour): past either, the property is UNKNOWN with the limit and its option named.
/// `--rlimit` bounds each solver query; these bound the iterations and the `simplify` calls
/// between queries, which `--rlimit` does not see.
public struct FixpointLimits: Sendable, Equatable {
  /// The most iterations of one fixpoint (`--max-iterations`); deterministic.
  public var maxIterations: Int
  /// The wall-clock budget of one property, in seconds (`--property-budget`), checked before
  /// each iteration and after each step's `simplify`; 0 for none.
  public var budgetSeconds: Double

  public static let defaultMaxIterations = 500
  public static let defaultBudgetSeconds = 120.0

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
    reason.contains("(--max-iterations ") || reason.contains("(--property-budget ")
  }
}
