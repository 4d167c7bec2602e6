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
  private var memo: [[Int]: Double] = [:]

  public init(space: JointSpace) { self.space = space }

  /// The constraints of the given sides as predicates.
  public func constraints(of sides: [Int]) -> [Predicate] {
    sides.flatMap { s in space.sides[s].model.constraints.map { Predicate(side: s, expr: $0.expr) } }
  }

  /// A count's fixed part, prepared once: the predicates, what each reads, their memo keys, and
  /// what does not depend on the class: each joint variable's values the member sides allow,
  /// the predicates grouped by the variables they share, and the predicates that read none.
  public final class Query {
    let members: [Int]
    let predicates: [Predicate]
    /// Each predicate's expression, compiled.
    let codes: [CompiledExpr]
    let reads: [[Int]]
    let keys: [Int]
    let allowed: [[Int]]
    /// Groups of predicates (by index) sharing variables, each with the variables they read, sorted.
    let groups: [(members: [Int], vars: [Int])]
    /// Joint variables no predicate reads.
    let uncovered: [Int]
    /// Predicates that read no joint variable.
    let constant: [Int]
    init(members: [Int], predicates: [Predicate], reads: [[Int]], keys: [Int], space: JointSpace) {
      self.members = members
      self.predicates = predicates
      codes = predicates.map { CompiledExpr($0.expr) }
      self.reads = reads
      self.keys = keys
      let n = space.count
      allowed = (0..<n).map { j in
        space.values[j].indices.filter { v in members.allSatisfy { space.sides[$0].allowed[j][v] } }
      }
      var parent = Array(0..<n)
      func find(_ x: Int) -> Int {
        var x = x
        while parent[x] != x { x = parent[x] }
        return x
      }
      for r in reads where r.count > 1 { for j in r.dropFirst() { parent[find(j)] = find(r[0]) } }
      var byRoot: [Int: [Int]] = [:]
      var constant: [Int] = []
      for (k, r) in reads.enumerated() {
        guard let first = r.first else {
          constant.append(k)
          continue
        }
        byRoot[find(first), default: []].append(k)
      }
      var covered = Set<Int>()
      groups = byRoot.sorted(by: { $0.key < $1.key }).map { _, ks in
        let vars = Array(Set(ks.flatMap { reads[$0] })).sorted()
        covered.formUnion(vars)
        return (ks, vars)
      }
      uncovered = (0..<n).filter { !covered.contains($0) }
      self.constant = constant
    }
  }

  private var queries: [String: Query] = [:]
  private var nextKey = 0

  public func query(members: [Int], predicates: [Predicate]) -> Query {
    let reads: [[Int]] = predicates.map { p in p.expr.variables.compactMap { space.sides[p.side].joint[$0] } }
    let keys = predicates.indices.map { $0 + nextKey }
    nextKey += predicates.count
    return Query(members: members, predicates: predicates, reads: reads, keys: keys, space: space)
  }

  public func count(_ assignment: [Int], members: [Int], predicates: [Predicate]) -> Double {
    let signature = "\(members)" + predicates.map { "\($0.side)\($0.negated)\($0.expr)" }.joined()
    let q = queries[signature] ?? query(members: members, predicates: predicates)
    queries[signature] = q
    return count(assignment, q)
  }

  public func count(_ assignment: [Int], _ q: Query) -> Double {
    let predicates = q.predicates
    let n = space.count
    var allowed = q.allowed
    for j in 0..<n where assignment[j] >= 0 {
      guard allowed[j].contains(assignment[j]) else { return 0 }
      allowed[j] = [assignment[j]]
    }
    for k in q.constant where !holds(predicates[k], [Int](repeating: -1, count: n)) { return 0 }
    var total = 1.0
    for (members, vars) in q.groups {
      var key: [Int] = members.map { q.keys[$0] }
      key.append(-1)
      for v in vars {
        key += allowed[v]
        key.append(-1)
      }
      if let known = memo[key] {
        total *= known
        if total == 0 { return 0 }
        continue
      }
      // Branch only on a variable some undecided predicate reads: most are decided early.
      var valuations = space.sides.map { [Int](repeating: unassigned, count: $0.model.variables.count) }
      func set(_ j: Int, _ v: Int) {
        for (s, side) in space.sides.enumerated() {
          if let i = side.variable[j] { valuations[s][i] = v < 0 ? unassigned : (side.value[j][v] ?? unassigned) }
        }
      }
      var free = Set(vars)
      func branch() -> Double {
        var pending: Int?
        for k in members {
          let p = predicates[k]
          do {
            let value = try q.codes[k].holds(valuations[p.side])
            if value == p.negated { return 0 }
          } catch {
            if pending == nil { pending = space.sides[p.side].joint[error.index] }
          }
        }
        guard let j = pending else { return free.reduce(1.0) { $0 * Double(allowed[$1].count) } }
        free.remove(j)
        var sum = 0.0
        for v in allowed[j] {
          set(j, v)
          sum += branch()
        }
        set(j, -1)
        free.insert(j)
        return sum
      }
      for j in 0..<n where assignment[j] >= 0 { set(j, assignment[j]) }
      let c = branch()
      memo[key] = c
      total *= c
      if total == 0 { return 0 }
    }
    for j in q.uncovered { total *= Double(allowed[j].count) }
    return total
  }

  func holds(_ p: Predicate, _ joint: [Int]) -> Bool {
    let side = space.sides[p.side]
    var valuation = [Int](repeating: unassigned, count: side.model.variables.count)
    for (i, j) in side.joint where joint[j] >= 0 {
      valuation[i] = side.value[j][joint[j]] ?? unassigned
    }
    let value = (try? p.expr.holds(valuation)) ?? false
    return p.negated ? !value : value
  }
}
