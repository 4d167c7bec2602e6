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

  /// The configuration of a Z3 trace is the first (in variable and domain order) of those the
  /// question allows, not whichever model Z3 found first, which follows the order its terms were
  /// made in: proving a property alone or after every other gives the same trace.
  @Test(
    "on each hand-written broken model, a Z3 trace is the same proven alone or after every other property",
    arguments: broken.indices)
  func independentOfWhatCameBefore(index: Int) throws {
    let (name, _, _, _, invariant) = Self.broken[index]
    let model = try Self.load(index)
    let alone = SymbolicChecker(model: model).prove(invariants: [invariant]).results.first?.verdict
    let all = Invariant.all(for: model)
    let last = SymbolicChecker(model: model).prove(invariants: all.filter { $0 != invariant } + [invariant])
    #expect(alone == last.results.last?.verdict, "\(name)")
    if case .violated = alone {
    } else {
      Issue.record("\(name): Z3 says \(String(describing: alone))")
    }
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
    // A pair of runs is a trace of the product model (`left.X`, `right.X`): the region below is
    // the single model's, so only single runs are replayed here (pairs: SpecificationStrengthTests).
    if found.pairedSteps != nil { return }
    // The shown values fixed, every other variable free: the explicit engine's shortest
    // violation over that region is as long as Z3's trace (Z3's own choice lies in it).
    var partial = [Int](repeating: unassigned, count: model.configurationCount)
    for assignment in found.configuration {
      guard let value = assignment.value else { continue }
      let i = try #require(model.variableIndex(named: assignment.variable))
      let k = try #require(model.configurationIndices.firstIndex(of: i))
      partial[k] = try #require(
        model.variables[i].domain.values.first { model.variables[i].domain.render($0) == value })
    }
    let report = ExplicitChecker(model: model, jobs: 1).check(invariants: [invariant], configuration: partial)
    guard case .violated(let other)? = report.results.first?.verdict else {
      Issue.record("\(name): no violation with only the shown variables fixed")
      return
    }
    #expect(other.length == found.length, "\(name)")
  }

  /// The explicit engine on every configuration the "any value" variables of `c` span (the
  /// shown values fixed, each combination the constraints allow): the first where the
  /// violation has other calls or is gone, or nil. Regions above 4,096 configurations are not
  /// enumerated (nil).
  static func differingConfiguration(_ model: SignInModel, _ c: Counterexample) throws -> String? {
    var values = [Int](repeating: unassigned, count: model.variables.count)
    var free: [Int] = []
    for a in c.configuration {
      let i = try #require(model.variableIndex(named: a.variable))
      if let text = a.value {
        values[i] = try #require(
          model.variables[i].domain.values.first { model.variables[i].domain.render($0) == text })
      } else {
        free.append(i)
      }
    }
    let domains = free.map { model.variables[$0].domain.values }
    guard domains.reduce(1, { $0 * $1.count }) <= 4096 else { return nil }
    let checker = ExplicitChecker(model: model, jobs: 1)
    var combination = [Int](repeating: 0, count: free.count)
    while true {
      for (k, i) in free.enumerated() { values[i] = domains[k][combination[k]] }
      if model.constraints.allSatisfy({ $0.expr.evaluatePartially(values) != 0 }) {
        let configuration = model.configurationIndices.map { values[$0] }
        let verdict = checker.check(invariants: [c.invariant], configuration: configuration).results.first?.verdict
        let steps: [TraceStep]?
        if case .violated(let other)? = verdict { steps = other.steps } else { steps = nil }
        if steps != c.steps {
          return (steps == nil ? "no violation" : "other calls") + " under "
            + free.map { "\(model.variables[$0].name) = \(model.variables[$0].domain.render(values[$0]))" }
            .joined(separator: ", ")
        }
      }
      // The next combination, or done.
      var k = 0
      while k < free.count {
        combination[k] += 1
        if combination[k] < domains[k].count { break }
        combination[k] = 0
        k += 1
      }
      if k == free.count { return nil }
    }
  }

  @Test(
    "every value an 'any value' variable may take gives the same calls (a value the constraints allow only together with another freed variable's included)",
    arguments: ["docs/guide/examples/device-2026.yaml", "docs/guide/examples/smsoffer-2026.yaml"])
  func anyValueMeansAny(file: String) throws {
    let model = try ModelLoader.load(file: file)
    let invariant: Invariant = file.contains("device") ? .noFactorSkipped : .offersAreUsable
    guard
      case .violated(let found)? = SymbolicChecker(model: model).prove(invariants: [invariant]).results.first?.verdict
    else {
      Issue.record("\(file): \(invariant.rawValue) is not violated")
      return
    }
    // pool.mfa decides whether MFA is asked at all: it can never be left free here.
    #expect(found.configuration.first { $0.variable == "pool.mfa" }?.value != nil)
    #expect(found.configuration.contains { $0.value == nil }, "\(file): nothing is left free")
    #expect(try Self.differingConfiguration(model, found) == nil)
  }

  @Test("the any-value check finds a variable wrongly left free")
  func anyValueCheckCanFail() throws {
    let model = try ModelLoader.load(file: "docs/guide/examples/device-2026.yaml")
    guard
      case .violated(let found)? = SymbolicChecker(model: model).prove(invariants: [.noFactorSkipped]).results.first?
        .verdict
    else {
      Issue.record("noFactorSkipped is not violated")
      return
    }
    // Freeing pool.mfa, as one flip at a time used to: with MFA off nothing requires a factor.
    let loosened = Counterexample(
      invariant: found.invariant, message: found.message,
      configuration: found.configuration.map {
        $0.variable == "pool.mfa" ? Assignment(variable: $0.variable, value: nil) : $0
      }, steps: found.steps, loopStartsAt: found.loopStartsAt)
    #expect(try Self.differingConfiguration(model, loosened) != nil)
  }
}
