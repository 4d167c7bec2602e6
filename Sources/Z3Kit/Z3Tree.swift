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
}

extension Z3Term {
  /// The term as a `Z3Tree`.
  package var tree: Z3Tree { Z3Term.tree(context, raw) }

  static func tree(_ context: Z3Context, _ ast: Z3_ast) -> Z3Tree {
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
      let args = (0..<Z3_get_app_num_args(c, app)).map { i -> Z3Tree in
        guard let arg = Z3_get_app_arg(c, app, i) else { return .other("?") }
        return tree(context, arg)
      }
      let op: Z3Tree.Operator
      switch Z3_get_decl_kind(c, decl) {
      case Z3_OP_TRUE: return .bool(true)
      case Z3_OP_FALSE: return .bool(false)
      case Z3_OP_UNINTERPRETED where args.isEmpty:
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
