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
  /// Where each side's valuation starts in a group count's one valuation array (and its end).
  private let sideStart: [Int]
  /// Per joint variable, each side that has it: the side variable's place in that array and the
  /// side's value of each joint value (`unassigned` where the side lacks it).
  private let placements: [[(place: Int, values: [Int])]]
  /// Per side and side variable, its joint variable (-1: none).
  private let jointOf: [[Int]]

  public init(space: JointSpace) {
    self.space = space
    var starts = [0]
    for side in space.sides { starts.append(starts.last! + side.model.variables.count) }
    sideStart = starts
    placements = (0..<space.count).map { j in
      space.sides.indices.compactMap { s in
        space.sides[s].variable[j].map { i in (starts[s] + i, space.sides[s].value[j].map { $0 ?? unassigned }) }
      }
    }
    jointOf = space.sides.map { side in
      (0..<side.model.variables.count).map { side.joint[$0] ?? -1 }
    }
  }

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
    let reads: [[Int]]
    let keys: [Int]
    let allowed: [[Int]]
    /// Groups of predicates (by index) sharing variables, each with the variables they read, sorted.
    let groups: [(members: [Int], vars: [Int])]
    /// Joint variables no predicate reads.
    let uncovered: [Int]
    /// Predicates that read no joint variable.
    let constant: [Int]
    /// Every predicate's code, one after another (predicate k's at `codeRanges[k]`), with the stack
    /// the deepest needs, its side and whether it is negated: what a group count runs.
    let code: [Int]
    let codeRanges: [Range<Int>]
    let stackDepth: Int
    let sides: [Int]
    let negated: [Bool]
    /// The values joint variable `j` can take in a class with `assignment`: its one assigned
    /// value, or every value the member sides allow.
    func choices(_ j: Int, under assignment: [Int]) -> Double {
      assignment[j] >= 0 ? 1 : Double(allowed[j].count)
    }

    init(members: [Int], predicates: [Predicate], reads: [[Int]], keys: [Int], space: JointSpace) {
      self.members = members
      self.predicates = predicates
      let codes = predicates.map { CompiledExpr($0.expr) }
      var code: [Int] = []
      codeRanges = codes.map { c in
        code += c.instructions
        return (code.count - c.instructions.count)..<code.count
      }
      self.code = code
      stackDepth = codes.map(\.stackDepth).max() ?? 1
      sides = predicates.map(\.side)
      negated = predicates.map(\.negated)
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
    // A variable the class assigns allows that one value (if the member sides allow it).
    for j in 0..<n where assignment[j] >= 0 {
      guard q.allowed[j].contains(assignment[j]) else { return 0 }
    }
    for k in q.constant where !holds(predicates[k], [Int](repeating: -1, count: n)) { return 0 }
    var total = 1.0
    var key: [Int] = []
    for (members, vars) in q.groups {
      key.removeAll(keepingCapacity: true)
      for k in members { key.append(q.keys[k]) }
      key.append(-1)
      for v in vars {
        if assignment[v] >= 0 { key.append(assignment[v]) } else { key += q.allowed[v] }
        key.append(-1)
      }
      if let known = memo[key] {
        total *= known
        if total == 0 { return 0 }
        continue
      }
      let c = countGroup(q, members: members, vars: vars, assignment: assignment)
      memo[key] = c
      total *= c
      if total == 0 { return 0 }
    }
    for j in q.uncovered { total *= q.choices(j, under: assignment) }
    return total
  }

  /// One group's count under a class: the completions of its variables that satisfy its
  /// predicates, branching only on a variable some undecided predicate reads (most are decided
  /// early), with the sides' valuations in one array.
  private func countGroup(_ q: Query, members: [Int], vars: [Int], assignment: [Int]) -> Double {
    var valuation = [Int](repeating: unassigned, count: sideStart[sideStart.count - 1])
    for j in 0..<space.count where assignment[j] >= 0 {
      for p in placements[j] { valuation[p.place] = p.values[assignment[j]] }
    }
    var free = [Bool](repeating: false, count: space.count)
    for j in vars { free[j] = true }
    return q.code.withUnsafeBufferPointer { code in
      valuation.withUnsafeMutableBufferPointer { values in
        free.withUnsafeMutableBufferPointer { free in
          withUnsafeTemporaryAllocation(of: Int.self, capacity: q.stackDepth) { stack in
            let search = GroupSearch(
              query: q, members: members, vars: vars, assignment: assignment, sideStart: sideStart,
              placements: placements, jointOf: jointOf, code: code, values: values, free: free,
              stack: stack.baseAddress!)
            return search.count()
          }
        }
      }
    }
  }

  /// `countGroup`'s recursion, over its buffers.
  private struct GroupSearch {
    let query: Query
    let members: [Int]
    let vars: [Int]
    /// The class's assignment: a variable it assigns is set in `values` and never branched on.
    let assignment: [Int]
    let sideStart: [Int]
    let placements: [[(place: Int, values: [Int])]]
    let jointOf: [[Int]]
    let code: UnsafeBufferPointer<Int>
    let values: UnsafeMutableBufferPointer<Int>
    /// Per joint variable: one of `vars` not branched on.
    let free: UnsafeMutableBufferPointer<Bool>
    let stack: UnsafeMutablePointer<Int>

    func set(_ j: Int, _ v: Int) {
      for p in placements[j] { values[p.place] = v < 0 ? unassigned : p.values[v] }
    }

    func count() -> Double {
      var pending: Int?
      for k in members {
        let side = query.sides[k]
        var missing = -1
        let value = CompiledExpr.run(
          code: UnsafeBufferPointer(rebasing: code[query.codeRanges[k]]),
          valuation: UnsafeBufferPointer(rebasing: values[sideStart[side]..<sideStart[side + 1]]), stack: stack,
          missing: &missing)
        if missing >= 0 {
          if pending == nil, jointOf[side][missing] >= 0 { pending = jointOf[side][missing] }
        } else if (value != 0) == query.negated[k] {
          return 0
        }
      }
      guard let j = pending else {
        var product = 1.0
        for v in vars where free[v] { product *= query.choices(v, under: assignment) }
        return product
      }
      free[j] = false
      var sum = 0.0
      for v in assignment[j] >= 0 ? [assignment[j]] : query.allowed[j] {
        set(j, v)
        sum += count()
      }
      set(j, -1)
      free[j] = true
      return sum
    }
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
