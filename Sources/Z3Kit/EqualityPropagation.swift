import CZ3

/// Results of `propagatingEqualities` by term, for later calls; each term is kept, so its id
/// stays its own.
package final class PropagationMemo {
  var results: [UInt32: (term: Z3Term, result: Z3Term)] = [:]
  package init() {}
}

extension Z3Context {
  /// `term` with each conjunction's equalities `x = numeral` (x a constant) substituted into
  /// the conjunction's other parts, then simplified: an equivalent formula.
  ///
  /// Z3's `simplify` rewrites each atom on its own, so a backward image taken by substitution
  /// keeps every guard it passed: after k calls along a chain the set is `n = 50 - k` beside
  /// k bounds it implies, and the sets grow with the square of the chain (long-chain models). With the
  /// equality substituted those bounds become `true` and the set stays the size of one call.
  ///
  /// `memo` keeps the results of earlier calls (a fixpoint's iterations share most subterms).
  package func propagatingEqualities(_ term: Z3Term, memo: PropagationMemo = PropagationMemo()) -> Z3Term {
    propagate(term, memo)
  }

  private func propagate(_ term: Z3Term, _ memo: PropagationMemo) -> Z3Term {
    let id = Z3_get_ast_id(raw, term.raw)
    if let done = memo.results[id] { return done.result }
    guard Z3_get_ast_kind(raw, term.raw) == Z3_APP_AST, let app = Z3_to_app(raw, term.raw) else { return term }
    let kind = Z3_get_decl_kind(raw, Z3_get_app_decl(raw, app))
    guard [Z3_OP_AND, Z3_OP_OR, Z3_OP_NOT, Z3_OP_IMPLIES].contains(kind) else { return term }
    let count = Z3_get_app_num_args(raw, app)
    var parts: [Z3Term] = []
    for i in 0..<count {
      guard let arg = Z3_get_app_arg(raw, app, i) else { return term }
      parts.append(propagate(self.term(arg), memo))
    }
    let result: Z3Term
    switch kind {
    case Z3_OP_AND: result = conjunctionPropagating(parts)
    case Z3_OP_OR: result = or(parts)
    case Z3_OP_NOT: result = not(parts[0])
    default: result = implies(parts[0], parts[1])
    }
    memo.results[id] = (term, result)
    return result
  }

  /// The conjunction of `parts`, the first equality `x = numeral` of each constant x
  /// substituted into every other part.
  private func conjunctionPropagating(_ parts: [Z3Term]) -> Z3Term {
    var from: [Z3Term] = []
    var to: [Z3Term] = []
    var definitions: Set<Int> = []
    for (i, part) in parts.enumerated() {
      guard let (constant, value) = constantEquality(part), !from.contains(where: { $0.raw == constant.raw }) else {
        continue
      }
      from.append(constant)
      to.append(value)
      definitions.insert(i)
    }
    guard !from.isEmpty else { return and(parts) }
    let rewritten = parts.indices.map { definitions.contains($0) ? parts[$0] : substitute(parts[$0], from, to) }
    return simplify(and(rewritten))
  }

  /// (x, c) when `term` is `x = c` or `c = x`, x an uninterpreted constant and c a numeral.
  private func constantEquality(_ term: Z3Term) -> (Z3Term, Z3Term)? {
    guard Z3_get_ast_kind(raw, term.raw) == Z3_APP_AST, let app = Z3_to_app(raw, term.raw),
      Z3_get_decl_kind(raw, Z3_get_app_decl(raw, app)) == Z3_OP_EQ, Z3_get_app_num_args(raw, app) == 2,
      let a = Z3_get_app_arg(raw, app, 0), let b = Z3_get_app_arg(raw, app, 1)
    else { return nil }
    func isConstant(_ x: Z3_ast) -> Bool {
      guard Z3_get_ast_kind(raw, x) == Z3_APP_AST, let app = Z3_to_app(raw, x) else { return false }
      return Z3_get_app_num_args(raw, app) == 0
        && Z3_get_decl_kind(raw, Z3_get_app_decl(raw, app)) == Z3_OP_UNINTERPRETED
    }
    if isConstant(a), Z3_is_numeral_ast(raw, b) { return (self.term(a), self.term(b)) }
    if isConstant(b), Z3_is_numeral_ast(raw, a) { return (self.term(b), self.term(a)) }
    return nil
  }
}
