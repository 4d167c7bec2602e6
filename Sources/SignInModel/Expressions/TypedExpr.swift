/// A type-checked expression with what the loader's limits need: its type, the values it can
/// take when every variable is in its declared domain, and its depth and node count with
/// definitions expanded.
struct TypedExpr {
  var expr: Expr
  var type: ExprType
  var bounds: ClosedRange<Int>
  var depth: Int
  var size: Int

  /// A boolean constant.
  static func constant(_ value: Bool) -> TypedExpr {
    TypedExpr(expr: value ? .true : .false, type: .bool, bounds: value ? 1...1 : 0...0, depth: 1, size: 1)
  }
}
