import SignInModel

/// `indistinguishable` properties in the explicit engine: the same breadth-first search, run on
/// the property's `SelfComposition`, so a violation is a shortest pair of runs.
extension ExplicitChecker {
  /// Whether `invariant` names an `indistinguishable` property of the model.
  func isIndistinguishable(_ invariant: Invariant) -> Bool {
    invariant.property(in: model)?.kind == .indistinguishable
  }

  /// The verdict on one `indistinguishable` property, with the product search's statistics and
  /// the limit it stopped at, if any.
  func checkIndistinguishable(_ invariant: Invariant) -> (InvariantResult, CheckStatistics, String?) {
    guard let property = invariant.property(in: model) else {
      preconditionFailure("no property \(invariant) in \(model.name)")
    }
    let composition = SelfComposition(system: system, property: property)
    if composition.comparesNothing {
      let verdict = Verdict.vacuous(reason: SelfComposition.comparesNothingReason)
      return (InvariantResult(invariant: invariant, verdict: verdict), CheckStatistics(), nil)
    }
    var checker = ExplicitChecker(system: TransitionSystem(model: composition.product), jobs: jobs)
    checker.limits = limits
    let report = checker.check(invariants: [composition.invariant])
    let verdict: Verdict
    switch report.results.first?.verdict ?? .holds {
    case .violated(let counterexample): verdict = .violated(composition.runs(counterexample))
    case .vacuous:
      verdict = .vacuous(reason: "no two configurations satisfy left:, right: and when: under the model's constraints")
    case let other: verdict = other
    }
    return (InvariantResult(invariant: invariant, verdict: verdict), report.statistics, report.incomplete)
  }
}
