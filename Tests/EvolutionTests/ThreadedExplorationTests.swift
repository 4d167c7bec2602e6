import Evolution
import SignInModel
import Testing

/// `diff` and `lint` explore configuration classes on several threads and visit them on one:
/// the classes, their order and every report are those of one thread, whatever the number of
/// threads and however few classes may wait to be visited.
@Suite("Classes explored on several threads")
struct ThreadedExplorationTests {
  /// What a visitor sees of a class: its assignment and, per side, its transitions (numbered
  /// by name, `Names`) and whether `done` is reachable.
  struct Seen: Equatable {
    var assignment: [Int]
    var sides: [[Int]?]
    var done: [Bool?]
  }

  /// One number per transition name, whichever vocabulary coded it.
  final class Names {
    var numbers: [TransitionKey: Int] = [:]
    func number(_ key: TransitionKey) -> Int {
      if let n = numbers[key] { return n }
      numbers[key] = numbers.count
      return numbers.count - 1
    }
  }

  /// Records what a visitor sees, naming each transition code once.
  struct Recorder {
    let vocabulary: Vocabulary
    let names: Names
    var byCode: [Int: Int] = [:]
    var seen: [Seen] = []

    init(_ vocabulary: Vocabulary, _ names: Names) {
      self.vocabulary = vocabulary
      self.names = names
    }

    mutating func record(_ c: ExploredClass) {
      var sides: [[Int]?] = []
      for b in c.behaviours {
        guard let b else {
          sides.append(nil)
          continue
        }
        sides.append(
          b.transitions.map { code in
            if let n = byCode[code] { return n }
            let n = names.number(vocabulary.decode(code))
            byCode[code] = n
            return n
          }.sorted())
      }
      seen.append(Seen(assignment: c.assignment, sides: sides, done: c.behaviours.map { $0?.doneReachable }))
    }
  }

  /// A copy of `names`' models for each of `threads` threads.
  static func copies(_ names: [String], threads: Int) throws -> [[SignInModel]] {
    try (0..<threads).map { _ in
      try names.map { name in
        try #require(ModelLoader.copyForThread(try EvolutionPairs.model(name)), "a copy of \(name)")
      }
    }
  }

  @Test(
    "the classes of one model and of a pair come in the order one thread visits them",
    arguments: [
      (["2023-swift"], 1, 1), (["2023-swift"], 2, 1), (["2023-swift"], 3, 5), (["2024-flutter"], 2, 1),
      (["2023-swift", "2024-flutter"], 2, 2),
    ])
  func sameClassesInOrder(names: [String], threads: Int, buffered: Int) throws {
    let models = try names.map(EvolutionPairs.model)
    let one = ClassExplorer(space: JointSpace(models))
    let numbering = Names()
    var alone = Recorder(one.vocabulary, numbering)
    one.explore { alone.record($0) }
    let explorer = ClassExplorer(space: JointSpace(models))
    var together = Recorder(explorer.vocabulary, numbering)
    explorer.explore(copies: try Self.copies(names, threads: threads), bufferedClasses: buffered) {
      together.record($0)
    }
    #expect(alone.seen.count > 100)
    #expect(together.seen.count == alone.seen.count)
    #expect(together.seen == alone.seen)
  }

  @Test("diff on two threads reports what it reports on one: counts, groups, traces and findings")
  func diffOnThreads() throws {
    let old = try EvolutionPairs.model("2023-swift")
    let new = try EvolutionPairs.model("2024-flutter")
    let copies = try (0..<2).map { _ in
      [try #require(ModelLoader.copyForThread(old)), try #require(ModelLoader.copyForThread(new))]
    }
    let alone = DiffJSONReport.render(ModelDiff(old: old, new: new), tool: "t")
    let together = DiffJSONReport.render(ModelDiff(old: old, new: new, copies: copies, bufferedClasses: 3), tool: "t")
    #expect(alone.contains("\"changed\""))
    #expect(together == alone)
  }

  @Test("lint on two threads warns as it does on one")
  func lintOnThreads() throws {
    let model = try EvolutionPairs.model("2024-flutter")
    var linter = Linter(model: model)
    linter.copies = try (0..<2).map { _ in try #require(ModelLoader.copyForThread(model)) }
    linter.bufferedClasses = 4
    let alone = Linter(model: model).warnings()
    #expect(!alone.isEmpty)
    #expect(linter.warnings() == alone)
  }
}
