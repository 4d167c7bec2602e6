import CZ3

/// The lexicographically first satisfying values, so that an answer does not depend on the model
/// Z3 happens to find (which follows term ids, and so the order the terms were made in).
extension Z3Solver {
  /// The first values of `terms` (in order, each over its `domains` entry in order) the
  /// assertions allow. Each term is fixed in turn to the first value some model has, asking one
  /// query per value skipped; when Z3 gives no answer on the way, the last model's values (the
  /// terms before fixed to their first); nil when the assertions have no model. Right after a
  /// satisfiable `check()` it starts from that model; otherwise (a solver made from a tactic
  /// drops its model at `pop`) it checks the assertions first. The assertions are as before
  /// when it returns.
  package func firstValues(of terms: [Z3Term], domains: [[Int]]) throws(Z3Error) -> [Int]? {
    if try !hasModel() {
      guard try check() == .satisfiable else { return nil }
    }
    var model = terms.indices.map { integerValue(of: terms[$0]) ?? domains[$0][0] }
    push()
    defer { pop() }
    for (i, term) in terms.enumerated() {
      for value in domains[i] {
        // Every earlier value of this term was ruled out, and the last model has this one.
        if value == model[i] { break }
        push()
        assert(context.equal(term, context.int(value)))
        let answer = try check()
        if answer == .satisfiable { model = terms.indices.map { integerValue(of: terms[$0]) ?? domains[$0][0] } }
        pop()
        if case .unknown = answer { return model }
        if answer == .satisfiable { break }
      }
      assert(context.equal(term, context.int(model[i])))
    }
    return model
  }

  /// Whether the solver has a model now (right after a satisfiable `check()`).
  /// - Throws: `Z3Error` when Z3 reported an error on this context since the last query.
  func hasModel() throws(Z3Error) -> Bool {
    try context.throwIfFailed()
    guard let model = Z3_solver_get_model(context.raw, raw) else {
      // Z3 recorded "there is no current model": an answer, not an error.
      _ = context.takeError()
      return false
    }
    Z3_model_inc_ref(context.raw, model)
    Z3_model_dec_ref(context.raw, model)
    return true
  }
}
