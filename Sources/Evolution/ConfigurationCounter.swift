import SignInModel

/// Counts the configurations of a class exactly: the completions of its free joint variables
/// that lie in the given sides and satisfy the given predicates, without enumerating them all.
/// Free variables are grouped by the predicates that share them; only each group's own values
/// are enumerated, and group counts are remembered.
public final class ConfigurationCounter {
  /// A condition over one side's variables, possibly negated.
  public struct Predicate: Sendable {
    public let side: Int
    public let expr: Expr
    public let negated: Bool
    public init(side: Int, expr: Expr, negated: Bool = false) {
      self.side = side
      self.expr = expr
      self.negated = negated
    }
  }

  let space: JointSpace
  private var memo: [String: Double] = [:]

  public init(space: JointSpace) { self.space = space }

  /// The constraints of the given sides as predicates.
  public func constraints(of sides: [Int]) -> [Predicate] {
    sides.flatMap { s in space.sides[s].model.constraints.map { Predicate(side: s, expr: $0.expr) } }
  }

  public func count(_ assignment: [Int], members: [Int], predicates: [Predicate]) -> Double {
    let n = space.count
    var allowed: [[Int]] = (0..<n).map { j in
      space.values[j].indices.filter { v in members.allSatisfy { space.sides[$0].allowed[j][v] } }
    }
    for j in 0..<n where assignment[j] >= 0 {
      guard allowed[j].contains(assignment[j]) else { return 0 }
      allowed[j] = [assignment[j]]
    }
    // Joint variables each predicate reads.
    let reads: [[Int]] = predicates.map { p in
      p.expr.variables.compactMap { space.sides[p.side].joint[$0] }
    }
    var parent = Array(0..<n)
    func find(_ x: Int) -> Int { var x = x; while parent[x] != x { x = parent[x] }; return x }
    for r in reads where r.count > 1 { for j in r.dropFirst() { parent[find(j)] = find(r[0]) } }
    var groups: [Int: [Int]] = [:]
    for (k, r) in reads.enumerated() {
      guard let first = r.first else {
        if !holds(predicates[k], [Int](repeating: -1, count: n)) { return 0 }
        continue
      }
      groups[find(first), default: []].append(k)
    }
    var total = 1.0
    var covered = Set<Int>()
    for (_, members) in groups.sorted(by: { $0.key < $1.key }) {
      let vars = Array(Set(members.flatMap { reads[$0] })).sorted()
      covered.formUnion(vars)
      let key = members.map { "\(predicates[$0].side)\(predicates[$0].negated)\(predicates[$0].expr.hashValue)" }
        .joined(separator: ",") + "|"
        + vars.map { allowed[$0].map(String.init).joined(separator: ".") }.joined(separator: ";")
      if let known = memo[key] {
        total *= known
        if total == 0 { return 0 }
        continue
      }
      var c = 0.0
      var values = [Int](repeating: -1, count: n)
      func enumerate(_ k: Int) {
        if k == vars.count {
          if members.allSatisfy({ holds(predicates[$0], values) }) { c += 1 }
          return
        }
        for v in allowed[vars[k]] {
          values[vars[k]] = v
          enumerate(k + 1)
        }
      }
      enumerate(0)
      memo[key] = c
      total *= c
      if total == 0 { return 0 }
    }
    for j in 0..<n where !covered.contains(j) { total *= Double(allowed[j].count) }
    return total
  }

  private func holds(_ p: Predicate, _ joint: [Int]) -> Bool {
    let side = space.sides[p.side]
    var valuation = [Int](repeating: unassigned, count: side.model.variables.count)
    for (i, j) in side.joint where joint[j] >= 0 {
      valuation[i] = side.value[j][joint[j]] ?? unassigned
    }
    let value = (try? p.expr.holds(valuation)) ?? false
    return p.negated ? !value : value
  }
}
