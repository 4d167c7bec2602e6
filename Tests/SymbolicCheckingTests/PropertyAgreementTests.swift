import Foundation
import ModelChecking
import SignInModel
import SymbolicChecking
import Testing

/// Properties a model states (`properties:`): each kind refutes a hand-written broken model
/// in both engines, with a trace where a path exists, and the engines agree on everything else.
@Suite("Model properties: both engines read the same properties")
struct PropertyAgreementTests {
  static let models = EngineAgreementTests.models

  /// Adds `entries` (YAML lines of `properties:` entries) at the top of a shipped model's `properties:`.
  static func adding(_ entries: String) -> String { "properties:\n" + entries }

  /// (name, file, old text, new text, the property that breaks, its kind): one or more per kind.
  static let broken: [(String, String, String, String, Invariant, ModelProperty.Kind)] = [
    (
      "a wrong SMS code signs the user in", models[0],
      "      wrongCode:\n        - when: \"flow.retries < 4\"\n          error: CodeMismatchException\n"
        + "          set: {flow.retries: \"flow.retries + 1\"}\n        - when: \"flow.retries == 4\"\n"
        + "          restart: \"NotAuthorizedException: five wrong MFA codes start the lockout\"",
      "      wrongCode:\n        - goto: done\n          verifies: mfa",
      Invariant(rawValue: "wrongCodeNeverSignsIn"), .never
    ),
    (
      "a property asking for fewer failures than the model allows", models[0], "properties:\n",
      adding("  fewFailures: {always: \"flow.retries < 3\", description: at most two failures}\n"),
      Invariant(rawValue: "fewFailures"), .always
    ),
    (
      "an unconfirmed user reaching done", models[0], "properties:\n",
      adding("  unconfirmedSignsIn: {reachable: \"step == done && user.status == unconfirmed\"}\n"),
      Invariant(rawValue: "unconfirmedSignsIn"), .reachable
    ),
    (
      "unbounded wrong codes never end the flow", models[0],
      "        - when: \"flow.retries < 4\"\n          error: CodeMismatchException\n"
        + "          set: {flow.retries: \"flow.retries + 1\"}\n        - when: \"flow.retries == 4\"\n"
        + "          restart: \"NotAuthorizedException: five wrong MFA codes start the lockout\"",
      "        - error: CodeMismatchException", Invariant(rawValue: "everyFlowEnds"), .eventually
    ),
    (
      "every sign-in signed in, although a wrong password restarts", models[0], "properties:\n",
      adding("  alwaysSignedIn: {eventually: \"step == done\"}\n"), Invariant(rawValue: "alwaysSignedIn"), .eventually
    ),
    (
      "the SMS code step always leading to done, although a lockout restarts", models[0], "properties:\n",
      adding("  smsAlwaysDone:\n    leadsTo: {from: \"step == confirmSignInWithSMSMFACode\", to: \"step == done\"}\n"),
      Invariant(rawValue: "smsAlwaysDone"), .leadsTo
    ),
    (
      "a wrong SMS code looping forever", models[0],
      "        - when: \"flow.retries < 4\"\n          error: CodeMismatchException\n"
        + "          set: {flow.retries: \"flow.retries + 1\"}\n        - when: \"flow.retries == 4\"\n"
        + "          restart: \"NotAuthorizedException: five wrong MFA codes start the lockout\"",
      "        - error: CodeMismatchException", Invariant(rawValue: "smsCodeLeadsToEnd"), .leadsTo
    ),
    (
      "an unknown user told apart under PreventUserExistenceErrors", models[0],
      "&& pool.preventUserExistenceErrors\"\n      restart: \"NotAuthorizedException: Incorrect username or password\"",
      "&& pool.preventUserExistenceErrors\"\n      restart: \"UserNotFoundException: User does not exist.\"",
      Invariant(rawValue: "unknownUserLikeWrongPassword"), .indistinguishable
    ),
  ]

  static func load(_ index: Int) throws -> SignInModel {
    let (name, file, old, new, _, _) = broken[index]
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let range = try #require(text.range(of: old), "\(name): the text to replace is not in \(file)")
    return try ModelLoader.load(yaml: text.replacingCharacters(in: range, with: new), file: "broken.yaml")
  }

  @Test("every property kind refutes a hand-written broken model")
  func everyKindCovered() {
    #expect(Set(Self.broken.map(\.5)) == Set(ModelProperty.Kind.allCases))
  }

  @Test(
    "the explicit engine refutes each broken model's property with a trace (none for unreachability)",
    arguments: broken.indices)
  func explicitRefutes(index: Int) throws {
    let (name, _, _, _, invariant, kind) = Self.broken[index]
    let report = ExplicitChecker(model: try Self.load(index), jobs: 1).check(invariants: [invariant])
    guard case .violated(let c)? = report.results.first?.verdict else {
      Issue.record("\(name): explicit says \(String(describing: report.results.first?.verdict))")
      return
    }
    #expect(c.invariant == invariant)
    if kind == .reachable {
      #expect(c.steps.isEmpty && c.message.contains("no path"), "\(name)")
    } else {
      #expect(!c.steps.isEmpty && !c.configuration.isEmpty, "\(name): the counterexample has a trace")
    }
  }

  @Test(
    "Z3 refutes each broken model's property, replayed by the explicit engine, and the engines agree",
    arguments: broken.indices)
  func symbolicRefutes(index: Int) throws {
    let (name, _, _, _, invariant, _) = Self.broken[index]
    let model = try Self.load(index)
    let proof = SymbolicChecker(model: model).prove(invariants: [invariant])
    guard case .violated(let c)? = proof.results.first?.verdict else {
      Issue.record("\(name): Z3 says \(String(describing: proof.results.first?.verdict))")
      return
    }
    #expect(c.invariant == invariant)
    #expect(EngineAgreementTests.disagreements(model) == [], "\(name)")
  }

  @Test("each shipped model states at least three properties, and both engines prove them", arguments: models)
  func shippedProperties(file: String) throws {
    let model = try ModelLoader.load(file: file)
    #expect(model.properties.count >= 3)
    let own = model.properties.map { Invariant(rawValue: $0.name) }
    for result in ExplicitChecker(model: model, jobs: 1).check(invariants: own).results {
      #expect(result.verdict == .holds, "\(file) \(result.invariant): \(result.verdict)")
    }
    for result in SymbolicChecker(model: model).prove(invariants: own).results {
      #expect(result.verdict == .proven, "\(file) \(result.invariant): \(result.verdict)")
    }
  }

  @Test("the loader's reserved names are exactly the built-in invariants")
  func reservedNames() {
    #expect(ModelProperty.builtinNames == Invariant.builtins.map(\.rawValue))
  }
}
