import SignInModel

/// Every rule of a model's step responses and routes, numbered, with its guard and effects
/// compiled into one code array: `SideExplorer` walks rules by number and evaluates them in
/// place, where walking `Rule` objects retained and released each rule and code array it passed
/// (a third of a `diff`'s time). Rules are evaluated in the model's order and each throws at
/// the same unassigned variable as `CompiledExpr.evaluate`, so the classes are the same.
/// An evaluator may also evaluate three-valued (`Evaluator.threeValued`), with each guard and
/// effect kept as a `PartialExpr` too.
struct RuleTable {
  /// Every guard and effect, one after another.
  private(set) var code: [Int] = []
  /// Per rule, its guard; per effect, its value: for three-valued evaluation.
  private var guardPartial: [PartialExpr] = []
  private var effectPartial: [PartialExpr] = []
  /// Per rule: its guard's code (a range of `code`), and its effects (a range of `effectVariable`
  /// and `effectCode`).
  private var guardCode: [Range<Int>] = []
  private var effects: [Range<Int>] = []
  /// Per effect: the variable it sets and its code.
  private var effectVariable: [Int] = []
  private var effectCode: [Range<Int>] = []
  /// Per rule: the route it goes on to, or -1.
  private(set) var route: [Int] = []
  /// Per rule: its `Rule`, for what the explorer works out per rule once, at its start.
  private(set) var rules: [Rule] = []
  /// The rules of step response (s, r) are `responseRules[responseStart[s] + r]`; of route k, `routeRules[k]`.
  private var responseStart: [Int] = []
  private(set) var responseRules: [Range<Int>] = []
  private(set) var routeRules: [Range<Int>] = []
  /// The deepest stack any code needs.
  private(set) var stackDepth = 1

  init(_ model: SignInModel) {
    for step in model.steps {
      responseStart.append(responseRules.count)
      for response in step.responses { responseRules.append(add(response.rules)) }
    }
    for route in model.routes { routeRules.append(add(route.rules)) }
  }

  /// The rules of step `s`'s response slot `r`.
  func rules(step s: Int, slot r: Int) -> Range<Int> { responseRules[responseStart[s] + r] }

  private mutating func add(_ list: [Rule]) -> Range<Int> {
    let first = rules.count
    for rule in list {
      rules.append(rule)
      guardCode.append(append(rule.guardCode))
      guardPartial.append(PartialExpr(rule.guardExpr))
      let firstEffect = effectVariable.count
      for ((variable, value), effect) in zip(rule.effectCodes, rule.effects) {
        effectVariable.append(variable)
        effectCode.append(append(value))
        effectPartial.append(PartialExpr(effect.value))
      }
      effects.append(firstEffect..<effectVariable.count)
      if case .route(let r) = rule.outcome { route.append(r) } else { route.append(-1) }
    }
    return first..<rules.count
  }

  /// Appends `expr`'s instructions to `code`; returns where they are.
  private mutating func append(_ expr: CompiledExpr) -> Range<Int> {
    let start = code.count
    code += expr.instructions
    stackDepth = max(stackDepth, expr.stackDepth)
    return start..<code.count
  }

  /// Code in place: the table's code, a valuation and a stack, for the rules' evaluation.
  struct Evaluator {
    let table: RuleTable
    let code: UnsafeBufferPointer<Int>
    let stack: UnsafeMutablePointer<Int>
    /// Whether a value that no unassigned variable can change is given although the evaluation
    /// read one: Kleene's three-valued evaluation (`PartialExpr`), so `false && x` is false and
    /// `true || x` true with `x` unassigned. Only a value that depends on an unassigned variable
    /// throws then, and an explorer forks a class only where its configurations differ.
    var threeValued = false

    /// The value of the code at `range` (`partial`, three-valued) over `valuation`.
    /// - Throws: `UnassignedVariable` for the first unassigned variable it reads (three-valued:
    ///   only when the value depends on an unassigned variable; it then reads one).
    func value(_ range: Range<Int>, _ partial: PartialExpr, _ valuation: UnsafeBufferPointer<Int>)
      throws(UnassignedVariable) -> Int
    {
      var missing = -1
      let result = CompiledExpr.run(
        code: UnsafeBufferPointer(rebasing: code[range]), valuation: valuation, stack: stack, missing: &missing)
      if missing >= 0 {
        // A strict evaluation that completes gives the three-valued value; one that stops may
        // stop at a variable the value does not depend on.
        if threeValued, let known = partial.evaluate(valuation) { return known }
        throw UnassignedVariable(index: missing)
      }
      return result
    }

    func guardHolds(_ rule: Int, _ valuation: UnsafeBufferPointer<Int>) throws(UnassignedVariable) -> Bool {
      try value(table.guardCode[rule], table.guardPartial[rule], valuation) != 0
    }

    /// Writes rule `rule`'s effects, each evaluated over `valuation`, into `target` from `offset`.
    func applyEffects(
      _ rule: Int, _ valuation: UnsafeBufferPointer<Int>, into target: inout [Int], at offset: Int
    ) throws(UnassignedVariable) {
      for e in table.effects[rule] {
        target[offset + table.effectVariable[e]] = try value(table.effectCode[e], table.effectPartial[e], valuation)
      }
    }

    func hasEffects(_ rule: Int) -> Bool { !table.effects[rule].isEmpty }
  }
}
