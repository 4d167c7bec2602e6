import Foundation
import ModelChecking
import ModelTestSupport
import SignInModel
import SymbolicChecking
import Testing

/// `prove`'s counterexamples are shortest over all configurations (as short as the explicit
/// engine's shortest) and show only the configuration variables the trace depends on.
@Suite("Z3 counterexamples are shortest and show only what matters")
struct ProveTraceTests {
  /// Every hand-written broken model with a trace: the engine agreement set and the fact properties.
  static let broken: [(String, String, String, String, Invariant)] =
    (EngineAgreementTests.handWritten + FactPropertyTests.broken).filter { $0.4 != .stepsReachable }

  /// The cases whose Z3 trace is shortest over all configurations: not `doneReachable`, nor a
  /// model's `eventually` or `leadsTo` property. Z3 decides those by a backward fixpoint that
  /// gives any one configuration of the violating region, and the replayed trace is the shortest
  /// for that configuration only (docs/guide/limits.md).
  static let shortestOverAll: [Int] = broken.indices.filter { index in
    let invariant = broken[index].4
    guard invariant != .doneReachable, let model = try? load(index) else { return false }
    let kind = model.properties.first { $0.name == invariant.rawValue }?.kind
    return kind != .eventually && kind != .leadsTo
  }

  static func load(_ index: Int) throws -> SignInModel {
    let (name, file, old, new, _) = broken[index]
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let range = try #require(text.range(of: old), "\(name): the text to replace is not in \(file)")
    return try ModelLoader.load(yaml: text.replacingCharacters(in: range, with: new), file: "broken.yaml")
  }

  @Test(
    "on each hand-written broken model, prove's trace is as long as the explicit engine's shortest",
    arguments: shortestOverAll)
  func shortest(index: Int) throws {
    let (name, _, _, _, invariant) = Self.broken[index]
    let model = try Self.load(index)
    let explicit = ExplicitChecker(model: model, jobs: 1).check(invariants: [invariant])
    guard case .violated(let expected)? = explicit.results.first?.verdict else {
      Issue.record("\(name): the explicit engine says \(String(describing: explicit.results.first?.verdict))")
      return
    }
    let proof = SymbolicChecker(model: model).prove(invariants: [invariant])
    guard case .violated(let found)? = proof.results.first?.verdict else {
      Issue.record("\(name): Z3 says \(String(describing: proof.results.first?.verdict))")
      return
    }
    #expect(
      found.length == expected.length,
      "\(name): Z3's trace has \(found.length) calls, the explicit engine's \(expected.length)")
  }

  @Test("the shortest-trace cases are most of the broken models, and every safety kind among them")
  func shortestCasesCoverSafety() {
    #expect(
      Self.shortestOverAll.count >= Self.broken.count / 2, "\(Self.shortestOverAll.count) of \(Self.broken.count)")
    #expect(Self.shortestOverAll.contains { Self.broken[$0].4 == .terminates })
  }

  @Test(
    "prove drops variables that do not matter, and the shown ones alone still give a shortest violation",
    arguments: broken.indices)
  func onlyWhatMatters(index: Int) throws {
    let (name, _, _, _, invariant) = Self.broken[index]
    let model = try Self.load(index)
    guard
      case .violated(let found)? = SymbolicChecker(model: model).prove(invariants: [invariant]).results.first?.verdict
    else {
      Issue.record("\(name): no violation")
      return
    }
    let shown = found.configuration.filter { $0.value != nil }
    #expect(shown.count < model.configurationCount, "\(name): every variable is shown")
    // The shown values fixed, every other variable free: the explicit engine's shortest
    // violation over that region is as long as Z3's trace (Z3's own choice lies in it).
    var partial = [Int](repeating: unassigned, count: model.configurationCount)
    for (i, assignment) in found.configuration.enumerated() {
      guard let value = assignment.value else { continue }
      partial[i] = try #require(
        model.variables[i].domain.values.first { model.variables[i].domain.render($0) == value })
    }
    let report = ExplicitChecker(model: model, jobs: 1).check(invariants: [invariant], configuration: partial)
    guard case .violated(let other)? = report.results.first?.verdict else {
      Issue.record("\(name): no violation with only the shown variables fixed")
      return
    }
    #expect(other.length == found.length, "\(name)")
  }
}
