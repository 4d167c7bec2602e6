/// The lexicographically first satisfying values, so that an answer does not depend on the model
/// Z3 happens to find (which follows term ids, and so the order the terms were made in).
extension Z3Solver {
  /// After a satisfiable `check()`: the first values of `terms` (in order, each over its
  /// `domains` entry in order) the assertions allow. Each term is fixed in turn to the first
  /// value some model has, asking one query per value skipped; nil when Z3 gives no answer.
  /// The assertions are as before when it returns.
  package func firstValues(of terms: [Z3Term], domains: [[Int]]) throws(Z3Error) -> [Int]? {
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
        if case .unknown = answer { return nil }
        if answer == .satisfiable { break }
      }
      assert(context.equal(term, context.int(model[i])))
    }
    return model
  }
}
