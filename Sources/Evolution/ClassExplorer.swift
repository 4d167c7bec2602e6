import SignInModel

/// A configuration class: the joint variables the flows of every side read, fixed; every
/// configuration that agrees on them behaves alike on each side.
public struct ExploredClass: Sendable {
  /// Joint variable → joint value, or -1 when no side read it.
  public let assignment: [Int]
  /// Per side: its behaviour, or nil when the class is outside that side.
  public let behaviours: [SideBehaviour?]
}

/// Explores the configuration classes of one or more models at once: starts with every
/// joint variable free and forks a class only on a variable some side's flow reads, so the
/// work grows with classes, never with configurations.
public struct ClassExplorer: Sendable {
  public let space: JointSpace
  private let explorers: [SideExplorer]
  /// How many constraints of a side a class may break and still be explored on that side: 0
  /// normally; 1 when lint counts what each constraint alone excludes.
  let brokenConstraintsAllowed: Int

  public init(space: JointSpace, renames: [[String: String]] = [], brokenConstraintsAllowed: Int = 0) {
    self.space = space
    self.explorers = space.sides.enumerated().map { s, side in
      SideExplorer(model: side.model, renames: s < renames.count ? renames[s] : [:])
    }
    self.brokenConstraintsAllowed = brokenConstraintsAllowed
  }

  public func explore() -> [ExploredClass] {
    var result: [ExploredClass] = []
    var work: [[Int]] = [[Int](repeating: -1, count: space.count)]
    outer: while let assignment = work.popLast() {
      var behaviours: [SideBehaviour?] = []
      for s in space.sides.indices {
        guard let valuation = space.valuation(assignment, side: s), !brokenConstraint(valuation, side: s) else {
          behaviours.append(nil)
          continue
        }
        switch explorers[s].explore(valuation) {
        case .explored(let b): behaviours.append(b)
        case .needs(let i):
          guard let j = space.sides[s].joint[i] else { behaviours.append(nil); continue }
          for v in space.values[j].indices.reversed() where space.sides.contains(where: { $0.allowed[j][v] }) {
            var child = assignment
            child[j] = v
            work.append(child)
          }
          continue outer
        }
      }
      if behaviours.contains(where: { $0 != nil }) {
        result.append(ExploredClass(assignment: assignment, behaviours: behaviours))
      }
    }
    return result
  }

  private func brokenConstraint(_ valuation: [Int], side: Int) -> Bool {
    var broken = 0
    for c in space.sides[side].model.constraints {
      if let holds = try? c.expr.holds(valuation), !holds {
        broken += 1
        if broken > brokenConstraintsAllowed { return true }
      }
    }
    return false
  }
}
