import CZ3

/// A Z3 term read back as a plain tree, so callers can print it in their own terms.
package indirect enum Z3Tree: Sendable, Equatable {
  package enum Operator: String, Sendable {
    case and, or, not, implies, equal, lessOrEqual, greaterOrEqual, less, greater, add, multiply, negate, ite, distinct
  }
  case bool(Bool)
  case number(Int)
  case constant(String)
  case apply(Operator, [Z3Tree])
  /// Anything else, in Z3's own syntax.
  case other(String)
  /// A subformula the term uses more than once: definition `n` of its `Z3SharedTree`.
  case shared(Int)
}

/// A term read back with each subformula it uses more than once written once, as a
/// definition: Z3 shares equal subterms, so the plain tree of a term can be exponentially
/// larger than the term (a fixpoint's set of 824 terms reads back as 39 million nodes).
package struct Z3SharedTree: Sendable, Equatable {
  /// The term, with `.shared(n)` where it uses definition `n`.
  package let root: Z3Tree
  /// Definition `n` is `definitions[n]`, numbered in the order a depth-first walk from the root
  /// meets them; a definition may use later ones.
  package let definitions: [Z3Tree]
}

extension Z3Term {
  /// The term as a `Z3SharedTree`: each connective (and, or, implies, if-then-else) the term
  /// reaches along more than one path is a definition. Linear in the number of distinct subterms.
  package var sharedTree: Z3SharedTree {
    let c = context.raw
    // How many parents (with multiplicity) each connective has within the term.
    var parents: [UInt32: Int] = [:]
    var visited: Set<UInt32> = []
    func count(_ ast: Z3_ast) {
      guard visited.insert(Z3_get_ast_id(c, ast)).inserted, Z3_get_ast_kind(c, ast) == Z3_APP_AST,
        let app = Z3_to_app(c, ast)
      else { return }
      for i in 0..<Z3_get_app_num_args(c, app) {
        guard let arg = Z3_get_app_arg(c, app, i) else { continue }
        if Self.isConnective(c, arg) { parents[Z3_get_ast_id(c, arg), default: 0] += 1 }
        count(arg)
      }
    }
    count(raw)
    var number: [UInt32: Int] = [:]
    var definitions: [Z3Tree] = []
    func read(_ ast: Z3_ast, root: Bool = false) -> Z3Tree {
      let id = Z3_get_ast_id(c, ast)
      guard !root, (parents[id] ?? 0) > 1 else { return Self.tree(context, ast) { read($0) } }
      if let n = number[id] { return .shared(n) }
      let n = definitions.count
      number[id] = n
      definitions.append(.bool(true))
      let definition = Self.tree(context, ast) { read($0) }
      definitions[n] = definition
      return .shared(n)
    }
    let root = read(raw, root: true)
    return Z3SharedTree(root: root, definitions: definitions)
  }

  /// Whether `ast` is an and, or, implies or if-then-else: what `sharedTree` may define.
  private static func isConnective(_ c: Z3_context, _ ast: Z3_ast) -> Bool {
    guard Z3_get_ast_kind(c, ast) == Z3_APP_AST, let app = Z3_to_app(c, ast), let decl = Z3_get_app_decl(c, app)
    else { return false }
    return [Z3_OP_AND, Z3_OP_OR, Z3_OP_IMPLIES, Z3_OP_ITE].contains(Z3_get_decl_kind(c, decl))
  }

  /// `ast` as a tree node, its arguments read by `argument`.
  private static func tree(_ context: Z3Context, _ ast: Z3_ast, _ argument: (Z3_ast) -> Z3Tree) -> Z3Tree {
    let c = context.raw
    switch Z3_get_ast_kind(c, ast) {
    case Z3_NUMERAL_AST:
      var value: Int64 = 0
      if Z3_get_numeral_int64(c, ast, &value) { return .number(Int(value)) }
      return .other(text(Z3_ast_to_string(c, ast)))
    case Z3_APP_AST:
      guard let app = Z3_to_app(c, ast), let decl = Z3_get_app_decl(c, app) else {
        return .other(text(Z3_ast_to_string(c, ast)))
      }
      let op: Z3Tree.Operator
      switch Z3_get_decl_kind(c, decl) {
      case Z3_OP_TRUE: return .bool(true)
      case Z3_OP_FALSE: return .bool(false)
      case Z3_OP_UNINTERPRETED where Z3_get_app_num_args(c, app) == 0:
        return .constant(text(Z3_get_symbol_string(c, Z3_get_decl_name(c, decl))))
      case Z3_OP_AND: op = .and
      case Z3_OP_OR: op = .or
      case Z3_OP_NOT: op = .not
      case Z3_OP_IMPLIES: op = .implies
      case Z3_OP_EQ: op = .equal
      case Z3_OP_DISTINCT: op = .distinct
      case Z3_OP_LE: op = .lessOrEqual
      case Z3_OP_GE: op = .greaterOrEqual
      case Z3_OP_LT: op = .less
      case Z3_OP_GT: op = .greater
      case Z3_OP_ADD: op = .add
      case Z3_OP_MUL: op = .multiply
      case Z3_OP_UMINUS: op = .negate
      case Z3_OP_ITE: op = .ite
      default: return .other(text(Z3_ast_to_string(c, ast)))
      }
      let args = (0..<Z3_get_app_num_args(c, app)).map { i -> Z3Tree in
        guard let arg = Z3_get_app_arg(c, app, i) else { return .other("?") }
        return argument(arg)
      }
      return .apply(op, args)
    default:
      return .other(text(Z3_ast_to_string(c, ast)))
    }
  }
}

/// A C string from Z3, or "?" when Z3 gave none.
func text(_ pointer: UnsafePointer<CChar>?) -> String {
  pointer.map { String(cString: $0) } ?? "?"
}
