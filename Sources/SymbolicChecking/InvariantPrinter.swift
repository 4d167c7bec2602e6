import ModelChecking
import SignInModel
import Z3Kit

/// Prints the inductive invariant Spacer found for `Reach` in the model's own terms:
/// variable names, enumeration values and step ids instead of integers.
struct InvariantPrinter {
  let model: SignInModel

  func render(_ problem: HornProblem) -> String? {
    let arguments = problem.arguments(step: problem.step, problem.state)
    guard let invariant = problem.fixedpoint.invariant(of: problem.reach, arguments: arguments) else { return nil }
    let tree = problem.context.simplify(invariant).sharedTree
    if case .bool(true) = tree.root { return "Reach is unconstrained: the property holds in every state (true)" }
    let clauses: [Z3Tree]
    if case .apply(.and, let parts) = tree.root { clauses = parts } else { clauses = [tree.root] }
    return (clauses.map { "  " + text($0) } + definitions(tree, indent: "  ")).joined(separator: "\n")
  }

  /// The fixpoint's per-step sets as an invariant: for safety the complement of "can reach
  /// a bad state" (`negate`), for termination and done-reachability the sets themselves.
  func render(_ sets: [Z3Term], in fixpoint: BackwardFixpoint, negate: Bool) -> String {
    var lines: [String] = []
    for (s, set) in sets.enumerated() {
      let tree = fixpoint.context.simplify(negate ? fixpoint.context.not(set) : set).sharedTree
      if case .bool(true) = tree.root { continue }
      lines.append("  at \(model.steps[s].id): \(text(tree.root))")
      lines += definitions(tree, indent: "    ")
    }
    return lines.isEmpty ? "  true at every step" : lines.joined(separator: "\n")
  }

  /// A line per definition of `tree` (a subformula used more than once): `#n: formula`.
  private func definitions(_ tree: Z3SharedTree, indent: String) -> [String] {
    tree.definitions.indices.map { "\(indent)#\($0 + 1): \(text(tree.definitions[$0]))" }
  }

  private func domain(of name: String) -> Domain? {
    if name == "step" { return .enumeration(model.steps.map(\.id)) }
    return model.variables.first { $0.name == name }?.domain
  }

  private func value(_ n: Int, for other: Z3Tree) -> String {
    if case .constant(let name) = other, let d = domain(of: name), d.contains(n) { return d.render(n) }
    return String(n)
  }

  func text(_ tree: Z3Tree) -> String {
    switch tree {
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return String(n)
    case .constant(let name): return name
    case .other(let s): return s
    case .shared(let n): return "#\(n + 1)"
    case .apply(let op, let args):
      func binary(_ symbol: String) -> String {
        guard args.count == 2 else { return args.map(text).joined(separator: " \(symbol) ") }
        // A bool variable compared with 0 or 1 reads as the variable or its negation.
        if case .constant(let name) = args[0], case .number(let n) = args[1], domain(of: name) == .bool,
          symbol == "==" || symbol == "!="
        {
          return (n == 1) == (symbol == "==") ? name : "!" + name
        }
        if case .number(let n) = args[1] { return "\(text(args[0])) \(symbol) \(value(n, for: args[0]))" }
        if case .number(let n) = args[0] { return "\(value(n, for: args[1])) \(symbol) \(text(args[1]))" }
        return "\(text(args[0])) \(symbol) \(text(args[1]))"
      }
      switch op {
      case .and: return "(" + args.map(text).joined(separator: " && ") + ")"
      case .or: return "(" + args.map(text).joined(separator: " || ") + ")"
      case .not:
        switch args[0] {
        case .apply(.equal, let inner): return text(.apply(.distinct, inner))
        case .apply(.lessOrEqual, let inner): return text(.apply(.greater, inner))
        case .apply(.greaterOrEqual, let inner): return text(.apply(.less, inner))
        case .apply(.less, let inner): return text(.apply(.greaterOrEqual, inner))
        case .apply(.greater, let inner): return text(.apply(.lessOrEqual, inner))
        default: return "!" + text(args[0])
        }
      case .implies: return "(" + text(args[0]) + " => " + text(args[1]) + ")"
      case .equal: return binary("==")
      case .distinct: return binary("!=")
      case .lessOrEqual: return binary("<=")
      case .greaterOrEqual: return binary(">=")
      case .less: return binary("<")
      case .greater: return binary(">")
      case .add: return "(" + args.map(text).joined(separator: " + ") + ")"
      case .multiply: return args.map(text).joined(separator: " * ")
      case .negate: return "-" + text(args[0])
      case .ite: return "(if \(text(args[0])) then \(text(args[1])) else \(text(args[2])))"
      }
    }
  }
}
