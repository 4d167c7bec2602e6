import SignInModel

/// Counts the assignments of a constraint group's unassigned variables that satisfy its
/// constraints, without enumerating them where the constraints' structure allows:
///
/// - a conjunction or disjunction whose parts read disjoint sets of unassigned variables is
///   counted part by part (`#sat(a && b) = #sat(a) · #sat(b)`,
///   `#unsat(a || b) = #unsat(a) · #unsat(b)`), so a 40-way disjunction of booleans is 40 small
///   counts, not 2^40 assignments;
/// - `!`, `=>` and constants are handled by complement; a part whose value the assigned
///   variables already decide counts every assignment of its unassigned variables;
/// - any other part (an atom, or parts that share variables) is enumerated, pruned by
///   three-valued evaluation, when it has at most `maxEnumerated` assignments, and refused past it.
///
/// Each count comes with a satisfying assignment (and an unsatisfying one), built from the
/// parts' own; small groups are enumerated in the same order as before, so the chosen
/// representative configurations do not change.
public struct ConstraintCounter: Sendable {
  /// Most assignments enumerated for one part that does not decompose.
  public static let maxEnumerated = 1_000_000

  /// A count that would need more than `maxEnumerated` assignments of one indecomposable part.
  public struct Refusal: Error, Sendable, CustomStringConvertible {
    public let assignments: Double
    public var description: String {
      "its variables cannot be split into independent parts and it has "
        + "\(assignments < 1e15 ? String(Int(assignments)) : String(assignments)) assignments to enumerate; "
        + "the explicit engine counts at most \(ConstraintCounter.maxEnumerated) per part"
    }
  }

  /// The count of satisfying and unsatisfying assignments, each with an example.
  public struct Count {
    public var sat: Double
    public var unsat: Double
    public var satWitness: [Int: Int]?
    public var unsatWitness: [Int: Int]?
  }

  let domains: [Domain]

  public init(model: SignInModel) {
    self.domains = model.variables.map(\.domain)
  }

  /// The number of assignments of `variables`' unassigned members (in `config`) that satisfy
  /// every constraint, and the first such assignment as values of `variables`; nil when none.
  public func count(
    _ constraints: [Expr], variables: [Int], config: [Int]
  ) throws(Refusal) -> (Double, [Int]?) {
    let result = try count(.and(constraints), config: config)
    guard result.sat > 0, let witness = result.satWitness else { return (0, nil) }
    return (result.sat, variables.map { config[$0] != unassigned ? config[$0] : witness[$0] ?? firstValue($0) })
  }

  /// The first refusal among a model's constraint groups with nothing assigned: the line and
  /// text of a constraint in the group, and why. Counting with some variables assigned only
  /// shrinks the parts, so a model that passes here is never refused later.
  public static func refusal(in model: SignInModel) -> (line: Int, text: String, reason: Refusal)? {
    let counter = ConstraintCounter(model: model)
    let config = [Int](repeating: unassigned, count: model.configurationIndices.count)
    for group in ExplicitChecker.groups(of: model.constraints.map(\.expr)) {
      do {
        _ = try counter.count(group.constraints, variables: group.variables, config: config)
      } catch {
        let first = model.constraints.first { group.constraints.contains($0.expr) }
        return (first?.line ?? 0, first?.text ?? "", error)
      }
    }
    return nil
  }

  /// Constraints no configuration satisfies together, none of which can be left out (indices
  /// into `model.constraints`, in order; found by leaving each out in turn), or nil when the
  /// constraints have a solution or cannot be counted. Tells a model's author which of their
  /// constraints clash instead of pointing at the first one.
  public static func conflict(in model: SignInModel) -> [Int]? {
    let counter = ConstraintCounter(model: model)
    let config = [Int](repeating: unassigned, count: model.configurationIndices.count)
    func satisfiable(_ set: [Int]) -> Bool? {
      do {
        return try counter.count(set.map { model.constraints[$0].expr }, variables: [], config: config).0 > 0
      } catch { return nil }
    }
    var core = Array(model.constraints.indices)
    guard satisfiable(core) == false else { return nil }
    for c in model.constraints.indices {
      let without = core.filter { $0 != c }
      if satisfiable(without) == false { core = without }
    }
    return core
  }

  func firstValue(_ v: Int) -> Int { domains[v].values.first ?? 0 }

  /// The unassigned variables `e` reads, in index order (the order the enumeration assigns them).
  func free(_ e: Expr, _ config: [Int]) -> [Int] { e.variables.filter { config[$0] == unassigned }.sorted() }

  func total(_ vars: [Int]) -> Double { vars.reduce(1.0) { $0 * Double(domains[$1].count) } }

  func count(_ e: Expr, config: [Int]) throws(Refusal) -> Count {
    let vars = free(e, config)
    if let decided = e.evaluatePartially(config) {
      let all = total(vars)
      let any = Dictionary(uniqueKeysWithValues: vars.map { ($0, firstValue($0)) })
      return decided != 0
        ? Count(sat: all, unsat: 0, satWitness: any, unsatWitness: nil)
        : Count(sat: 0, unsat: all, satWitness: nil, unsatWitness: any)
    }
    let size = total(vars)
    if size <= 4_096 { return enumerate(e, vars, config) }
    switch e {
    case .not(let a):
      let c = try count(a, config: config)
      return Count(sat: c.unsat, unsat: c.sat, satWitness: c.unsatWitness, unsatWitness: c.satWitness)
    case .implies(let a, let b):
      return try count(.or([.not(a), b]), config: config)
    case .and(let xs), .or(let xs):
      if xs.count == 1 { return try count(xs[0], config: config) }
      let isAnd: Bool = { if case .and = e { return true } else { return false } }()
      let parts = components(xs, config)
      if parts.count > 1 { return try combine(parts, isAnd: isAnd, config: config, all: vars) }
    default: break
    }
    if size > Double(Self.maxEnumerated) { throw Refusal(assignments: size) }
    return enumerate(e, vars, config)
  }

  /// Groups `xs` into parts that share no unassigned variable (union-find over variables).
  func components(_ xs: [Expr], _ config: [Int]) -> [[Expr]] {
    var parent: [Int: Int] = [:]
    func find(_ v: Int) -> Int {
      var v = v
      while let p = parent[v], p != v { v = p }
      return v
    }
    let reads = xs.map { free($0, config) }
    for vars in reads {
      for v in vars where parent[v] == nil { parent[v] = v }
      for v in vars.dropFirst() { parent[find(v)] = find(vars[0]) }
    }
    var byRoot: [Int: Int] = [:]
    var parts: [[Expr]] = []
    for (x, vars) in zip(xs, reads) {
      let root = vars.first.map(find) ?? -1
      if let i = byRoot[root] {
        parts[i].append(x)
      } else {
        byRoot[root] = parts.count
        parts.append([x])
      }
    }
    return parts
  }

  /// Counts independent parts and combines them: a product of satisfying counts for `&&`, of
  /// unsatisfying counts for `||`.
  func combine(_ parts: [[Expr]], isAnd: Bool, config: [Int], all: [Int]) throws(Refusal) -> Count {
    var counts: [Count] = []
    for part in parts {
      let e: Expr = part.count == 1 ? part[0] : (isAnd ? .and(part) : .or(part))
      counts.append(try count(e, config: config))
    }
    let everything = total(all)
    func witness(_ pick: (Count) -> [Int: Int]?) -> [Int: Int]? {
      // Every part's `pick` witness together (parts read disjoint variables).
      var merged = Dictionary(uniqueKeysWithValues: all.map { ($0, firstValue($0)) })
      let picks = counts.compactMap(pick)
      if picks.count == counts.count {
        for p in picks { merged.merge(p) { $1 } }
        return merged
      }
      return nil
    }
    func oneOf(_ which: (Count) -> [Int: Int]?) -> [Int: Int]? {
      guard let found = counts.lazy.compactMap(which).first else { return nil }
      var merged = Dictionary(uniqueKeysWithValues: all.map { ($0, firstValue($0)) })
      merged.merge(found) { $1 }
      return merged
    }
    if isAnd {
      let sat = counts.reduce(1.0) { $0 * $1.sat }
      return Count(
        sat: sat, unsat: everything - sat, satWitness: sat > 0 ? witness(\.satWitness) : nil,
        unsatWitness: oneOf(\.unsatWitness))
    }
    let unsat = counts.reduce(1.0) { $0 * $1.unsat }
    return Count(
      sat: everything - unsat, unsat: unsat, satWitness: oneOf(\.satWitness),
      unsatWitness: unsat > 0 ? witness(\.unsatWitness) : nil)
  }

  /// Every assignment of `vars`, pruned by three-valued evaluation; the first of each kind kept.
  /// `e` is evaluated in its compiled form (`PartialExpr`: the same values as
  /// `Expr.evaluatePartially`, without walking the tree at every node of the enumeration).
  func enumerate(_ e: Expr, _ vars: [Int], _ config: [Int]) -> Count {
    let compiled = PartialExpr(e)
    // The assignments of `vars[k...]`, for each k, multiplied in the order `total` multiplies.
    let rest = (0...vars.count).map { k in total(Array(vars[k...])) }
    var candidate = config
    var result = Count(sat: 0, unsat: 0, satWitness: nil, unsatWitness: nil)
    func example(_ k: Int) -> [Int: Int] {
      var filled = candidate
      for v in vars[k...] { filled[v] = firstValue(v) }
      return Dictionary(uniqueKeysWithValues: vars.map { ($0, filled[$0]) })
    }
    func visit(_ k: Int) {
      if let decided = compiled.evaluate(candidate) {
        if decided != 0 {
          result.sat += rest[k]
          if result.satWitness == nil { result.satWitness = example(k) }
        } else {
          result.unsat += rest[k]
          if result.unsatWitness == nil { result.unsatWitness = example(k) }
        }
        return
      }
      guard k < vars.count else { return }
      for value in domains[vars[k]].values {
        candidate[vars[k]] = value
        visit(k + 1)
      }
      candidate[vars[k]] = unassigned
    }
    visit(0)
    return result
  }
}
