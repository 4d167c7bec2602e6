import Testing
import Z3Kit

@Suite("Reading a Z3 term back as a tree")
struct Z3SharedTreeTests {
  @Test("a term without shared connectives reads back as its plain tree, with no definitions")
  func plainTerm() throws {
    let context = try Z3Context()
    let x = context.intConstant("x")
    let tree = (x > context.int(0) && x < context.int(3)).sharedTree
    #expect(tree.definitions.isEmpty)
    #expect(
      tree.root
        == .apply(
          .and, [.apply(.less, [.number(0), .constant("x")]), .apply(.less, [.constant("x"), .number(3)])]))
  }

  @Test("a connective reached along 2^40 paths is defined once, and the read-back stays linear in the term")
  func sharedConnectivesAreDefinedOnce() throws {
    let context = try Z3Context()
    // level(k + 1) = (level(k) && a_k > 0) || (level(k) && b_k > 0): as a plain tree, 2^40 copies
    // of level(0); as a term, about four new subterms per level.
    var level = context.or([context.intConstant("x") > context.int(0), context.intConstant("y") > context.int(0)])
    for k in 0..<40 {
      level = context.or([
        level && context.intConstant("a\(k)") > context.int(0), level && context.intConstant("b\(k)") > context.int(0),
      ])
    }
    let tree = level.sharedTree
    // Every level below the root has two parents: one definition each, the root's child first.
    #expect(tree.definitions.count == 40)
    guard case .apply(.or, let sides) = tree.root, sides.count == 2,
      case .apply(.and, let left) = sides[0], case .apply(.and, let right) = sides[1]
    else {
      Issue.record("the root is not (… && …) || (… && …): \(tree.root)")
      return
    }
    #expect(left[0] == .shared(0) && right[0] == .shared(0))
    // Each definition uses the next one; the last is level(0), which uses none.
    for n in 0..<39 {
      guard case .apply(.or, let parts) = tree.definitions[n], case .apply(.and, let inner) = parts[0] else {
        Issue.record("definition \(n) is \(tree.definitions[n])")
        continue
      }
      #expect(inner[0] == .shared(n + 1))
    }
    #expect(
      tree.definitions[39]
        == .apply(
          .or, [.apply(.less, [.number(0), .constant("x")]), .apply(.less, [.number(0), .constant("y")])]))
    // The whole read-back is linear in the term: 40 levels of a few nodes each.
    #expect(([tree.root] + tree.definitions).map(Self.nodes).reduce(0, +) < 40 * 12)
  }

  /// The nodes of `tree`, a `.shared` reference counting as one.
  static func nodes(_ tree: Z3Tree) -> Int {
    if case .apply(_, let arguments) = tree { return 1 + arguments.map(nodes).reduce(0, +) }
    return 1
  }
}
