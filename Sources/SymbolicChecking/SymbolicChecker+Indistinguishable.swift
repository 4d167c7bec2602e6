import ModelChecking
import SignInModel

/// `indistinguishable` properties in Z3: the same fixpoint as any `never` property, over the
/// property's `SelfComposition` (two copies of the state, one transition relation pairing them),
/// its violations replayed by the explicit engine on the same product.
extension SymbolicChecker {
  func decideIndistinguishable(_ property: ModelProperty, system: TransitionSystem) -> (ProofVerdict, String, String?) {
    let composition = SelfComposition(system: system, property: property)
    if composition.comparesNothing {
      return (.vacuous(reason: SelfComposition.comparesNothingReason), "self-composition", nil)
    }
    let checker = SymbolicChecker(self, model: composition.product)
    let report = checker.proveAll([composition.invariant], explain: false)
    guard let result = report.first else { return (.failed(reason: "no verdict on the self-composition"), "Z3", nil) }
    let method = result.method + " on the self-composition"
    switch result.verdict {
    case .violated(let counterexample): return (.violated(composition.runs(counterexample)), method, nil)
    case .vacuous:
      return (
        .vacuous(reason: "no two configurations satisfy left:, right: and when: under the model's constraints"),
        method, nil
      )
    default: return (result.verdict, method, nil)
    }
  }
}
