import SignInModel

/// A model property (`ModelProperty`) compiled against the transition system: its state
/// predicates at signIn and after each branch, with the path facts (`PathFacts`) replaced by
/// the values they have there and the flow by the branch's effects. Every condition is over
/// the configuration and the pre-state only, so the explicit search evaluates it and Z3
/// translates it, and neither stores a path fact.
public struct PropertyCheck: Sendable {
  public let invariant: Invariant
  public let property: ModelProperty
  /// The predicate the kind is about: `never: P` is checked as always `!P`; `leadsTo`'s `from`.
  public let predicate: PropertyCondition
  /// `leadsTo`'s `to`.
  public let target: PropertyCondition?

  public var kind: ModelProperty.Kind { property.kind }
}

/// One state predicate at every place a property reads it (a class: the search reads it per
/// edge with one reference count).
public final class PropertyCondition: Sendable {
  /// At signIn, over the configuration (the flow is at its initial values).
  public let initial: Expr
  /// After branch `b` (same index as `TransitionSystem.branches`), over the branch's pre-state.
  public let afterBranch: [Expr]
  /// `initial` and `afterBranch` compiled, for the explicit search.
  public let initialCode: CompiledExpr
  public let afterBranchCode: [CompiledExpr]

  init(_ expr: Expr, system: TransitionSystem) {
    let model = system.model
    var start = PathFacts.initialValues(model)
    for i in model.flowIndices { start[i] = .constant(model.variables[i].initial) }
    initial = expr.substituting(start)
    afterBranch = system.branches.map { branch in
      var values = branch.effects
      for (k, v) in PropertyCondition.pathFacts(after: branch, in: model) { values[k] = v }
      return expr.substituting(values)
    }
    initialCode = CompiledExpr(initial)
    afterBranchCode = afterBranch.map(CompiledExpr.init)
  }

  /// The path facts after `branch`.
  static func pathFacts(after branch: TransitionSystem.Branch, in model: SignInModel) -> [Int: Expr] {
    let outcome: PathFacts.OutcomeValue
    let step: Int
    switch branch.outcome {
    case .step(let s):
      step = s
      outcome = model.steps[s].kind == .signedIn ? .done : .step
    case .error:
      step = branch.step
      outcome = .error
    case .restart, .route:
      step = PathFacts.restartedValue(model)
      outcome = .restart
    }
    return PathFacts.values(model, step: step, response: branch.response, outcome: outcome)
  }
}

extension TransitionSystem {
  /// The model's properties compiled against this system, in file order; `indistinguishable`
  /// ones are checked on a `SelfComposition` instead.
  public func compileProperties() -> [PropertyCheck] {
    model.properties.filter { $0.kind != .indistinguishable }.map { property in
      let predicate = property.kind == .never ? Expr.not(property.predicate) : property.predicate
      return PropertyCheck(
        invariant: Invariant(rawValue: property.name), property: property,
        predicate: PropertyCondition(predicate, system: self),
        target: property.target.map { PropertyCondition($0, system: self) })
    }
  }
}
