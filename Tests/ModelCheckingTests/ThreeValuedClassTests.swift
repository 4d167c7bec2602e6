import Foundation
import SignInModel
import Testing

@testable import ModelChecking

/// The explicit search explores a configuration class three-valued and splits it into the
/// strict search's classes at the end (`FlowGraph.strictClasses`): the report must be the one
/// the strict search (forking at every unassigned variable a guard reads) gives, to the last
/// count, key and configuration, while exploring fewer graphs.
@Suite("Three-valued classes report what the strict search reports")
struct ThreeValuedClassTests {
  /// The report of `model` with and without three-valued classes.
  static func reports(_ model: SignInModel, jobs: Int = 2) -> (threeValued: CheckReport, strict: CheckReport) {
    var strict = ExplicitChecker(model: model, jobs: jobs)
    strict.threeValuedClasses = false
    return (ExplicitChecker(model: model, jobs: jobs).check(), strict.check())
  }

  static func expectSame(_ a: CheckReport, _ b: CheckReport, _ name: String) {
    var (x, y) = (a.statistics, b.statistics)
    (x.seconds, y.seconds) = (0, 0)
    #expect(x == y, "\(name): statistics")
    #expect(a.results.map(\.invariant) == b.results.map(\.invariant), "\(name): invariants")
    for (r, s) in zip(a.results, b.results) {
      #expect(r.verdict == s.verdict, "\(name): \(r.invariant.rawValue)")
    }
    #expect(a.incomplete == b.incomplete, "\(name): incomplete")
  }

  @Test(
    "shipped and guide models: the same statistics, verdicts and counterexamples",
    arguments: [
      "models/2023-swift.yaml", "models/2024-flutter.yaml", "docs/guide/examples/broken-2023.yaml",
      "docs/guide/examples/nofailed-2023.yaml", "docs/guide/examples/smsdone-2023.yaml",
      "docs/guide/examples/uncovered-2023.yaml", "docs/guide/examples/unsat-2023.yaml",
      "docs/guide/examples/ambiguous.yaml", "docs/guide/examples/nophone.yaml",
    ])
  func sameReport(file: String) throws {
    let (threeValued, strict) = Self.reports(try ModelLoader.load(file: file))
    Self.expectSame(threeValued, strict, file)
  }

  /// Edits of the 2023 model that break it in the ways `mutants` do: a guard negated, a goto
  /// retargeted, a rule's condition made constant. Each breaks some invariant, so the choice of
  /// the counterexample among the strict classes (shortest, then first by key) is exercised.
  static let edits: [(String, String)] = [
    (
      "when: \"user.exists && pool.authFlow != customWithoutSRP\"",
      "when: \"user.exists && pool.authFlow == customWithoutSRP\""
    ),
    (
      "- when: \"user.exists && pool.authFlow == customWithoutSRP\"\n        goto: startFlow",
      "- when: \"user.exists && pool.authFlow == customWithoutSRP\"\n        goto: done"
    ),
    ("verifies: mfa", "verifies: firstFactor"),
    (
      "- when: \"offered(SMS)\"\n          goto: confirmSignInWithSMSMFACode",
      "- when: \"offered(SMS)\"\n          goto: done"
    ),
    // A fact on the branch (the TOTP setup needs pool.totp) reads a variable the class leaves free.
    (
      "- when: \"pool.mfa == off\"\n      goto: done",
      "- when: \"pool.mfa == off\"\n      goto: continueSignInWithTOTPSetup"
    ),
  ]

  @Test("mutants of the 2023 model with violations: the same report", arguments: 0..<5)
  func sameReportOnMutants(edit: Int) throws {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let (from, to) = Self.edits[edit]
    let range = try #require(text.range(of: from), "the 2023 model no longer says \(from)")
    let model = try ModelLoader.load(yaml: text.replacingCharacters(in: range, with: to), file: "mutant.yaml")
    let (threeValued, strict) = Self.reports(model)
    #expect(
      threeValued.results.contains { if case .violated = $0.verdict { true } else { false } },
      "the edit \(from) -> \(to) breaks nothing: it exercises no counterexample")
    Self.expectSame(threeValued, strict, "\(from) -> \(to)")
  }

  /// The SMS code step both models of the next test lead to.
  static let codeStep = """
      code:
        names: {swift: confirmSignInWithSMSMFACode}
        responses:
          correctCode:
            - goto: done
              verifies: mfa
    """

  @Test("a guard decided by its other operand splits nothing, yet counts as the strict classes it stands for")
  func decidedGuardSplitsNothing() throws {
    // `pool.mfa == required && user.phone`: both searches read pool.mfa first; with it off,
    // neither needs user.phone.
    let model = try smallModel(
      signIn: """
            correctPassword:
              - when: "pool.mfa == required && user.phone"
                goto: code
                verifies: firstFactor
              - when: "!(pool.mfa == required && user.phone)"
                goto: done
                verifies: firstFactor
        """,
      steps: Self.codeStep)
    let system = TransitionSystem(model: model)
    let root = [Int](repeating: unassigned, count: model.configurationIndices.count)
    var graph = FlowGraph(system: system, configuration: root)
    graph.threeValued = true
    // pool.mfa is read first and is free: the value depends on it, so three-valued forks too.
    let mfa = try #require(model.configurationIndices.first { model.variables[$0].name == "pool.mfa" })
    let phone = try #require(model.configurationIndices.first { model.variables[$0].name == "user.phone" })
    #expect(throws: UnassignedVariable.self) { try graph.explore() }
    // With pool.mfa off the guard is false whatever user.phone is: one graph, where the strict
    // search explores one per value of user.phone only if it reads it (it does not: `&&` stops).
    var off = graph
    off.configuration[mfa] = model.variables[mfa].domain.values[0]
    try off.explore()
    var keys: [[Int]] = []
    off.strictClasses(from: root, canSignIn: nil) { _, key in keys.append(key) }
    #expect(keys == [[mfa, model.variables[mfa].domain.values[0]]])
    // Nothing was decided three-valued: every stop was a fork, and the class is a strict one.
    #expect(off.threeValuedDecisions == 0)
    // With pool.mfa required the guard reads user.phone: forked in both searches.
    var required = graph
    required.configuration[mfa] = model.variables[mfa].domain.values[1]
    #expect(throws: UnassignedVariable.self) { try required.explore() }
    // Rewritten with user.phone first, the strict search reads user.phone before pool.mfa,
    // where three-valued evaluation decides `!user.phone && …` and `user.phone && …` with
    // pool.mfa off without it: one three-valued graph, two strict classes.
    let swapped = try smallModel(
      signIn: """
            correctPassword:
              - when: "user.phone && pool.mfa == required"
                goto: code
                verifies: firstFactor
              - when: "!(user.phone && pool.mfa == required)"
                goto: done
                verifies: firstFactor
        """,
      steps: Self.codeStep)
    var offFirst = FlowGraph(system: TransitionSystem(model: swapped), configuration: root)
    offFirst.threeValued = true
    offFirst.configuration[mfa] = model.variables[mfa].domain.values[0]
    try offFirst.explore()
    #expect(offFirst.threeValuedDecisions > 0)
    var split: [(configuration: [Int], key: [Int])] = []
    offFirst.strictClasses(from: offFirst.configuration, canSignIn: nil) { split.append(($0, $1)) }
    #expect(split.map(\.key) == [[phone, 0], [phone, 1]])
    #expect(split.allSatisfy { $0.configuration[mfa] == model.variables[mfa].domain.values[0] })
    let (threeValued, strict) = Self.reports(swapped, jobs: 1)
    Self.expectSame(threeValued, strict, "user.phone && pool.mfa == required")
  }
}
