import Conformance
import ModelChecking
import SignInModel

/// Draws configurations that satisfy the model's constraints and that the harness covers,
/// deterministically from a random number generator, and never falls back to the defaults.
///
/// A draw first tries rejection sampling (`rejectionTries` tries: one value per variable, a
/// coin, on heads a bias overriding some values), which is uniform over the valid
/// configurations when it succeeds. Then it searches: a depth-first search over the
/// configuration variables in the model's order, each variable's values in a random rotation
/// (the bias's values forced on heads, and if that finds nothing, without the bias), pruning
/// as soon as a constraint is false on the values assigned so far (three-valued evaluation)
/// or the harness's coverage is false once its variables are assigned. Domains are narrowed
/// once per model to the values that single-variable constraints and the coverage allow. It
/// reads the model's constraints only; no variable is named here.
package struct ConfigurationGenerator: Sendable {
  let harness: Harness
  /// The configuration variables' indices, in the model's order (the search's order).
  let order: [Int]
  /// Each position's values, narrowed by single-variable constraints and the coverage, in one
  /// array (no inner array is retained per value drawn).
  var domains: FlatDomains
  /// The model's constraints, compiled for three-valued evaluation (`partials`, the search)
  /// and for evaluation over a full valuation (`codes`, rejection sampling).
  let partials: [PartialExpr]
  let codes: [CompiledExpr]
  /// For each position, the constraints that read its variable.
  let checks: [[Int]]
  /// For each constraint, the positions of the variables it reads.
  let reads: [[Int]]
  /// Constraints that read no variable.
  let constant: [Int]
  /// The positions of the variables the harness's coverage reads.
  let coverage: [Int]
  /// Whether the search checks the coverage (off: the constraints alone).
  var checksCoverage = true
  /// Which covered configurations it draws (`Harness.Kind`: all, SRP's, or the others).
  let kind: Harness.Kind
  /// The biases as (position, value) pairs of the model's variables.
  let biases: [[(position: Int, value: Int)]]
  let variableCount: Int
  /// Each variable's position by name: `dictionary` maps it to the value's text (no key is
  /// hashed again).
  let positionByName: [String: Int]
  /// Per position: the variable's domain, and each value's text from the lowest on (rendered
  /// once, for `dictionary`).
  let domainOf: [Domain]
  let lowest: [Int]
  let texts: [[String]]
  /// Rejection-sampling tries before the search.
  package var rejectionTries = 8
  /// Assignments a search may make before it gives up (`ConfigurationError.searchLimit`).
  package var searchBudget = 1_000_000

  package init(harness: Harness, biases: [[String: String]], kind: Harness.Kind = .any) {
    self.harness = harness
    self.kind = kind
    let model = harness.model
    let system = harness.system
    let order = Array(model.configurationIndices)
    self.order = order
    variableCount = model.variables.count
    positionByName = Dictionary(order.enumerated().map { (model.variables[$1].name, $0) }) { _, last in last }
    domainOf = order.map { model.variables[$0].domain }
    lowest = order.map { model.variables[$0].domain.values.min() ?? 0 }
    texts = order.map { i in
      let domain = model.variables[i].domain
      guard let low = domain.values.min(), let high = domain.values.max(), high - low < 4096 else { return [] }
      return (low...high).map { domain.render($0) }
    }
    let constraints = model.constraints.map(\.expr)
    partials = constraints.map(PartialExpr.init)
    codes = constraints.map(CompiledExpr.init)
    var position = [Int: Int]()
    for (p, i) in order.enumerated() { position[i] = p }
    let reads = constraints.map { $0.variables.compactMap { position[$0] } }
    self.reads = reads
    checks = order.indices.map { p in reads.indices.filter { reads[$0].contains(p) } }
    constant = reads.indices.filter { reads[$0].isEmpty }
    let coverage = harness.coverageIndices.compactMap { position[$0] }
    self.coverage = coverage
    self.biases = biases.map { bias in
      bias.compactMap { name, text in
        system.configurationIndex[name].flatMap { i in
          system.valueOfText[i][text].flatMap { v in position[i].map { ($0, v) } }
        }
      }.sorted { $0.position < $1.position }
    }
    // Node consistency: a value a single-variable constraint rejects, or that no covered
    // combination of the coverage's variables has, is never drawn.
    let exprs = constraints
    var narrowed = order.map { model.variables[$0].domain.values }
    var scratch = [Int](repeating: unassigned, count: model.variables.count)
    for (c, read) in reads.enumerated() where read.count == 1 {
      let i = order[read[0]]
      narrowed[read[0]] = narrowed[read[0]].filter { v in
        scratch[i] = v
        defer { scratch[i] = unassigned }
        return exprs[c].evaluatePartially(scratch) != 0
      }
    }
    domains = FlatDomains(Self.coverageProjection(harness, kind, coverage.map { order[$0] }, narrowed, position))
    // The rejection test stops at the first false constraint: those false most often on the
    // values it draws come first (the same verdict in any order; the order is fixed per model).
    acceptOrder = Array(codes.indices)  // the model's order until the draws below rank them
    acceptOrder = rejectionOrder()
  }

  /// The constraints in the order `accepts` tests them.
  private(set) var acceptOrder: [Int]

  /// Constraint indices by how often each is false on 256 draws of one value per variable
  /// (a fixed seed), most often first; ties in the model's order.
  func rejectionOrder() -> [Int] {
    guard codes.count > 1, domains.count.allSatisfy({ $0 > 0 }) else { return Array(codes.indices) }
    var rng = SplitMix64(seed: 0x5EED)
    var values = [Int](repeating: unassigned, count: variableCount)
    var falseCount = [Int](repeating: 0, count: codes.count)
    for _ in 0..<256 {
      drawEach(&values, &rng)
      for (c, code) in codes.enumerated() where (try? code.holds(values)) != true { falseCount[c] += 1 }
    }
    return codes.indices.sorted { (falseCount[$0], -$0) > (falseCount[$1], -$1) }
  }

  /// One value per configuration variable, uniform over its domain (which must not be empty).
  func drawEach(_ values: inout [Int], _ rng: inout SplitMix64) {
    for (p, i) in order.enumerated() { values[i] = domains.value(p, Int(rng.next() % UInt64(domains.count[p]))) }
  }

  /// `domains` with the values of the coverage's variables that no covered combination has
  /// removed (the combinations are enumerated once: the coverage reads a few variables).
  static func coverageProjection(
    _ harness: Harness, _ kind: Harness.Kind, _ indices: [Int], _ domains: [[Int]], _ position: [Int: Int]
  ) -> [[Int]] {
    let positions = indices.compactMap { position[$0] }
    let size = positions.reduce(1) { $0 * domains[$1].count }
    guard size > 0, size <= 1_000_000 else { return domains }
    var seen = positions.map { _ in Set<Int>() }
    var values = [Int: Int]()
    for combination in 0..<size {
      var rest = combination
      for (k, p) in positions.enumerated() {
        values[indices[k]] = domains[p][rest % domains[p].count]
        rest /= domains[p].count
      }
      guard harness.covers(valueOf: { values[$0] ?? unassigned }, kind: kind) else { continue }
      for (k, i) in indices.enumerated() { seen[k].insert(values[i]!) }
    }
    var result = domains
    for (k, p) in positions.enumerated() { result[p] = domains[p].filter { seen[k].contains($0) } }
    return result
  }

  // MARK: - Drawing

  /// A valid configuration as a valuation (configuration variables assigned, flow variables
  /// `unassigned`).
  package func draw(_ rng: inout SplitMix64) throws(ConfigurationError) -> [Int] {
    var values = [Int](repeating: unassigned, count: variableCount)
    guard domains.count.allSatisfy({ $0 > 0 }) else { throw try failure() }
    for _ in 0..<rejectionTries {
      drawEach(&values, &rng)
      if !biases.isEmpty, rng.next() % 2 == 0 {
        for (p, v) in biases[Int(rng.next() % UInt64(biases.count))] { values[order[p]] = v }
      }
      if accepts(values) { return values }
    }
    var forced = [Int](repeating: unassigned, count: order.count)
    if !biases.isEmpty, rng.next() % 2 == 0 {
      for (p, v) in biases[Int(rng.next() % UInt64(biases.count))] { forced[p] = v }
      if let found = try search(forced, &rng) { return found }
      forced = [Int](repeating: unassigned, count: order.count)
    }
    if let found = try search(forced, &rng) { return found }
    throw try failure()
  }

  /// The configuration `values` as the simulator and the pool read it.
  package func dictionary(_ values: [Int]) -> [String: String] {
    positionByName.mapValues { p in
      let v = values[order[p]]
      return v >= lowest[p] && v - lowest[p] < texts[p].count ? texts[p][v - lowest[p]] : domainOf[p].render(v)
    }
  }

  /// Whether a draw exists at all, and why not: checked once per model by the fuzzer.
  package func check() -> ConfigurationError? {
    var rng = SplitMix64(seed: 0)
    do {
      if try search([Int](repeating: unassigned, count: order.count), &rng) != nil { return nil }
      return try failure()
    } catch {
      return error
    }
  }

  /// A valid configuration with variable `index` set to `value`, if one exists (nil
  /// otherwise): the search with that value forced.
  package func witness(variable index: Int, value: Int) throws(ConfigurationError) -> [Int]? {
    guard let p = order.firstIndex(of: index) else { return nil }
    var forced = [Int](repeating: unassigned, count: order.count)
    forced[p] = value
    var rng = SplitMix64(seed: 0)
    return try search(forced, &rng)
  }

  /// Why the search found nothing: the constraints alone, or the coverage.
  func failure() throws(ConfigurationError) -> ConfigurationError {
    let model = harness.model
    var unconstrained = self
    unconstrained.domains = FlatDomains(order.map { model.variables[$0].domain.values })
    unconstrained.checksCoverage = false
    var rng = SplitMix64(seed: 0)
    if try unconstrained.search([Int](repeating: unassigned, count: order.count), &rng) == nil {
      let clash = ConstraintCounter.conflict(in: model) ?? Array(model.constraints.indices.prefix(1))
      return .unsatisfiable(
        lines: clash.map { model.constraints[$0].line }, texts: clash.map { model.constraints[$0].text })
    }
    return .notCovered
  }

  /// Every constraint holds (tested in `acceptOrder`) and the harness covers the configuration.
  func accepts(_ values: [Int]) -> Bool {
    for c in acceptOrder {
      guard let holds = try? codes[c].holds(values), holds else { return false }
    }
    return harness.covers(valueOf: { values[$0] }, kind: kind)
  }

  /// Depth-first search for a valid configuration with the `forced` values (by position;
  /// `unassigned`: free): forced variables first, then the others in the model's order, each
  /// one's values in a rotation drawn from `rng`. A value is kept when no constraint reading
  /// its variable is false and every constraint left with one unassigned variable still has
  /// a value for it (forward checking); the coverage once its variables are assigned.
  func search(_ forced: [Int], _ rng: inout SplitMix64) throws(ConfigurationError) -> [Int]? {
    // A forced value the narrowed domains exclude has no valid configuration.
    for (p, v) in forced.enumerated() where v != unassigned && !domains.contains(p, v) { return nil }
    var values = [Int](repeating: unassigned, count: variableCount)
    for c in constant where partials[c].evaluate(values) == 0 { return nil }
    let n = order.count
    let sequence = order.indices.filter { forced[$0] != unassigned } + order.indices.filter { forced[$0] == unassigned }
    var depthOf = [Int](repeating: 0, count: n)
    for (d, p) in sequence.enumerated() { depthOf[p] = d }
    let coverageAt = checksCoverage ? (coverage.map { depthOf[$0] }.max() ?? -1) : n
    if coverageAt < 0, !harness.covers(valueOf: { values[$0] }, kind: kind) { return nil }
    var start = [Int](repeating: 0, count: n)
    var tried = [Int](repeating: 0, count: n)
    var d = 0
    var assignments = 0
    while d >= 0 {
      if d == n { return values }
      let p = sequence[d]
      let i = order[p]
      let count = forced[p] == unassigned ? domains.count[p] : 1
      if tried[d] == 0, count > 1 { start[d] = Int(rng.next() % UInt64(count)) }
      guard tried[d] < count else {
        values[i] = unassigned
        tried[d] = 0
        d -= 1
        continue
      }
      values[i] = forced[p] == unassigned ? domains.value(p, (start[d] + tried[d]) % count) : forced[p]
      tried[d] += 1
      assignments += 1
      if assignments > searchBudget { throw .searchLimit(searchBudget) }
      guard consistent(p, forced, &values) else { continue }
      if d == coverageAt, !harness.covers(valueOf: { values[$0] }, kind: kind) { continue }
      d += 1
    }
    return nil
  }

  /// No constraint reading position `p`'s variable is false, and each one with a single
  /// unassigned variable left has a value for it that does not make it false.
  func consistent(_ p: Int, _ forced: [Int], _ values: inout [Int]) -> Bool {
    for c in checks[p] {
      guard let value = partials[c].evaluate(values) else {
        var open = -1
        for q in reads[c] where values[order[q]] == unassigned {
          if open >= 0 { open = -2 }
          if open == -1 { open = q }
        }
        guard open >= 0 else { continue }
        let u = order[open]
        let candidates = forced[open] == unassigned ? domains.values(open) : [forced[open]][...]
        var supported = false
        for v in candidates {
          values[u] = v
          supported = partials[c].evaluate(values) != 0
          if supported { break }
        }
        values[u] = unassigned
        if !supported { return false }
        continue
      }
      if value == 0 { return false }
    }
    return true
  }
}

/// A list of value lists in one array: list p is `values[start[p] ..< start[p] + count[p]]`.
struct FlatDomains: Sendable {
  let values: [Int]
  let start: [Int]
  let count: [Int]

  init(_ lists: [[Int]]) {
    values = lists.flatMap { $0 }
    count = lists.map(\.count)
    var start: [Int] = []
    var at = 0
    for list in lists {
      start.append(at)
      at += list.count
    }
    self.start = start
  }

  /// The k-th value of list p.
  @inline(__always) func value(_ p: Int, _ k: Int) -> Int { values[start[p] + k] }

  /// List p.
  func values(_ p: Int) -> ArraySlice<Int> { values[start[p]..<start[p] + count[p]] }

  /// Whether list p holds `v`.
  func contains(_ p: Int, _ v: Int) -> Bool { values(p).contains(v) }
}
