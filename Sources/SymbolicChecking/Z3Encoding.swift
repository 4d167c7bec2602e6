import ModelChecking
import SignInModel
import Z3Kit

/// Translates the loaded model's expressions to Z3 terms. Every variable is an integer
/// constant (booleans as 0/1, enumeration values as their index), so one translation
/// serves the Horn-clause encoding, bounded search and the backward fixpoint.
struct Z3Encoding {
  let context: Z3Context
  let model: SignInModel
  let system: TransitionSystem

  init(model: SignInModel, context: Z3Context) {
    self.init(model: model, system: TransitionSystem(model: model), context: context)
  }

  /// With a transition system already built for `model` (they are not cheap to build).
  init(model: SignInModel, system: TransitionSystem, context: Z3Context) {
    self.context = context
    self.model = model
    self.system = system
  }

  /// One integer constant per variable, named `prefix` + the variable's name.
  func constants(_ indices: Range<Int>, prefix: String = "") -> [Int: Z3Term] {
    var result: [Int: Z3Term] = [:]
    for i in indices { result[i] = context.intConstant(prefix + model.variables[i].name) }
    return result
  }

  func boolTerm(_ e: Expr, _ vars: [Int: Z3Term]) -> Z3Term {
    switch e {
    case .constant(let c): return context.bool(c != 0)
    case .variable(let i): return context.not(context.equal(vars[i]!, context.int(0)))
    case .not(let a): return context.not(boolTerm(a, vars))
    case .and(let xs): return context.and(xs.map { boolTerm($0, vars) })
    case .or(let xs): return context.or(xs.map { boolTerm($0, vars) })
    case .implies(let a, let b): return context.implies(boolTerm(a, vars), boolTerm(b, vars))
    case .equal(let a, let b): return context.equal(intTerm(a, vars), intTerm(b, vars))
    case .notEqual(let a, let b): return context.not(context.equal(intTerm(a, vars), intTerm(b, vars)))
    case .less(let a, let b): return context.less(intTerm(a, vars), intTerm(b, vars))
    case .lessOrEqual(let a, let b): return context.lessOrEqual(intTerm(a, vars), intTerm(b, vars))
    case .member(let a, let set):
      let t = intTerm(a, vars)
      return context.or(set.map { context.equal(t, context.int($0)) })
    case .add, .subtract: return context.not(context.equal(intTerm(e, vars), context.int(0)))
    }
  }

  func intTerm(_ e: Expr, _ vars: [Int: Z3Term]) -> Z3Term {
    switch e {
    case .constant(let c): return context.int(c)
    case .variable(let i): return vars[i]!
    case .add(let a, let b): return context.add(intTerm(a, vars), intTerm(b, vars))
    case .subtract(let a, let b): return context.subtract(intTerm(a, vars), intTerm(b, vars))
    default: return context.ite(boolTerm(e, vars), context.int(1), context.int(0))
    }
  }

  /// `lo <= x <= hi` for the variable's domain.
  func inDomain(_ i: Int, _ term: Z3Term) -> Z3Term {
    let values = model.variables[i].domain.values
    return context.and([
      context.lessOrEqual(context.int(values.first!), term), context.lessOrEqual(term, context.int(values.last!)),
    ])
  }

  /// The configuration is in its domains and satisfies every constraint.
  func validConfiguration(_ vars: [Int: Z3Term]) -> Z3Term {
    context.and(
      model.configurationIndices.map { inDomain($0, vars[$0]!) } + model.constraints.map { boolTerm($0.expr, vars) })
  }

  /// The flow variables after `branch`, as terms over `vars`.
  func postFlow(_ branch: TransitionSystem.Branch, _ vars: [Int: Z3Term]) -> [Int: Z3Term] {
    var result = vars
    for i in model.flowIndices { result[i] = branch.effects[i].map { intTerm($0, vars) } ?? vars[i]! }
    return result
  }

  /// Every flow variable after the branch is inside its domain.
  func postInDomain(_ branch: TransitionSystem.Branch, _ post: [Int: Z3Term]) -> Z3Term {
    context.and(model.flowIndices.filter { branch.effects[$0] != nil }.map { inDomain($0, post[$0]!) })
  }

  /// After a satisfiable check: the first configuration (in variable order, each variable's
  /// values in domain order) `solver`'s assertions allow over the constants `vars`. A
  /// counterexample's configuration so depends on the question, not on the model Z3 happens to
  /// find; when Z3 gives no answer on the way, the last model's (`Z3Solver.firstValues`).
  func firstConfiguration(_ solver: Z3Solver, _ vars: [Int: Z3Term]) throws(Z3Error) -> [Int] {
    let indices = model.configurationIndices
    let terms = indices.map { vars[$0]! }
    let domains = indices.map { model.variables[$0].domain.values }
    // nil only if the check just made is not satisfiable any more (no answer within the limits).
    return try solver.firstValues(of: terms, domains: domains) ?? domains.map { $0[0] }
  }
}
