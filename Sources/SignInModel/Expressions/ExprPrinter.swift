/// Renders an `Expr` back into the model's guard language, with variable names, enumeration
/// value names and `true`/`false`, so that parsing the text in the same model gives the same
/// expression again (after `simplified()`, which flattens nested `&&`/`||` as the parser does).
///
/// Definitions and `offered(X)` were expanded when the model loaded, so the text names only
/// variables and constants. `a > b` comes back as `b < a` (the loaded form).
public struct ExprPrinter: Sendable {
  public let variables: [Variable]
  /// Write `not`, `and`, `or` (the language's word forms) instead of `!`, `&&`, `||`.
  public let words: Bool

  public init(variables: [Variable], words: Bool = false) {
    self.variables = variables
    self.words = words
  }

  public init(model: SignInModel, words: Bool = false) { self.init(variables: model.variables, words: words) }

  /// The text of a boolean expression (a guard, a constraint).
  public func render(_ expr: Expr) -> String { render(expr, context: .bool, level: 0) }

  /// The text of a value for a variable of `domain` (an update `set: {x: ...}`).
  public func render(_ expr: Expr, asValueOf domain: Domain) -> String {
    render(expr, context: domain, level: 0)
  }

  // Binding strength, loosest first, as in the parser: => (1), || (2), && (3), ! (4),
  // comparison and `in` (5), + and - (6), atoms (7).
  private func render(_ expr: Expr, context: Domain?, level: Int) -> String {
    func wrap(_ text: String, _ own: Int) -> String { own < level ? "(" + text + ")" : text }
    switch expr {
    case .constant(let c):
      if let context, case .range = context { return String(c) }
      if let context { return context.render(c) }
      return String(c)
    case .variable(let i): return variables[i].name
    case .not(let a): return wrap((words ? "not " : "!") + render(a, context: .bool, level: 4), 4)
    case .and(let xs):
      if xs.isEmpty { return "true" }
      if xs.count == 1 { return render(xs[0], context: .bool, level: level) }
      return wrap(xs.map { render($0, context: .bool, level: 4) }.joined(separator: words ? " and " : " && "), 3)
    case .or(let xs):
      if xs.isEmpty { return "false" }
      if xs.count == 1 { return render(xs[0], context: .bool, level: level) }
      return wrap(xs.map { render($0, context: .bool, level: 3) }.joined(separator: words ? " or " : " || "), 2)
    case .implies(let a, let b):
      return wrap(render(a, context: .bool, level: 2) + " => " + render(b, context: .bool, level: 1), 1)
    case .equal(let a, let b): return comparison(a, "==", b, level: level)
    case .notEqual(let a, let b): return comparison(a, "!=", b, level: level)
    case .less(let a, let b): return comparison(a, "<", b, level: level)
    case .lessOrEqual(let a, let b): return comparison(a, "<=", b, level: level)
    case .add(let a, let b):
      return wrap(render(a, context: .range(0...0), level: 6) + " + " + render(b, context: .range(0...0), level: 7), 6)
    case .subtract(let a, let b):
      return wrap(render(a, context: .range(0...0), level: 6) + " - " + render(b, context: .range(0...0), level: 7), 6)
    case .member(let a, let values):
      let domain = self.domain(of: a)
      let names = values.map { domain?.render($0) ?? String($0) }
      return wrap(render(a, context: domain, level: 6) + " in [" + names.joined(separator: ", ") + "]", 5)
    }
  }

  private func comparison(_ a: Expr, _ op: String, _ b: Expr, level: Int) -> String {
    let domain = self.domain(of: a) ?? self.domain(of: b)
    let text = render(a, context: domain, level: 6) + " " + op + " " + render(b, context: domain, level: 6)
    return 5 < level ? "(" + text + ")" : text
  }

  /// The domain an expression's value lives in, when it can be told from the expression.
  private func domain(of expr: Expr) -> Domain? {
    switch expr {
    case .constant: return nil
    case .variable(let i): return variables[i].domain
    case .add, .subtract: return .range(0...0)
    default: return .bool
    }
  }
}

extension Expr {
  /// The same expression with nested `&&` and `||` flattened, `true` dropped from
  /// conjunctions and `false` from disjunctions, and one-element lists unwrapped.
  public func simplified() -> Expr {
    switch self {
    case .and(let xs):
      var parts: [Expr] = []
      for x in xs.map({ $0.simplified() }) {
        if case .and(let inner) = x { parts += inner } else if x != .true { parts.append(x) }
      }
      if parts.contains(.false) { return .false }
      return parts.isEmpty ? .true : parts.count == 1 ? parts[0] : .and(parts)
    case .or(let xs):
      var parts: [Expr] = []
      for x in xs.map({ $0.simplified() }) {
        if case .or(let inner) = x { parts += inner } else if x != .false { parts.append(x) }
      }
      if parts.contains(.true) { return .true }
      return parts.isEmpty ? .false : parts.count == 1 ? parts[0] : .or(parts)
    case .not(let a): return .not(a.simplified())
    case .implies(let a, let b): return .implies(a.simplified(), b.simplified())
    default: return self
    }
  }
}
