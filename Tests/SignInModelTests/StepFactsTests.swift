import Foundation
import Testing

@testable import SignInModel

@Suite("Step facts: factors, preferences and failed attempts in the model format")
struct StepFactsTests {
  static let facts = """

    factors:
      sms: {usable: "user.phone"}
    preferences:
      pool.mfa: {role: mfa, values: {required: sms}}
    failedAttempts: {counter: flow.tries, limit: 3, responses: [wrongCode]}
    """

  static func withFacts(step: String = "    factor: sms\n    delivery: sms\n    carries: [codeDeliveryDetails]\n")
    -> String
  {
    TinyModel.replacing("  code:\n", with: "  code:\n" + step) + facts
  }

  @Test("a step's factor, delivery and details, and the model's factor sections, are read")
  func readsFacts() throws {
    let model = try ModelLoader.load(yaml: Self.withFacts(), file: "tiny.yaml")
    let code = model.steps[model.stepIndex(named: "code")!]
    #expect(code.facts.factor == .sms)
    #expect(code.facts.action == .challenge)
    #expect(code.facts.delivery == .sms)
    #expect(code.facts.carries == [.codeDeliveryDetails])
    #expect(model.factorCondition(ofStep: model.stepIndex(named: "code")!) != nil)
    #expect(model.preference(for: .mfa)?.preferredFactor(in: [1, 0, 0, 0, 0, 0]) == FactorRef(.sms))
    #expect(model.preference(for: .mfa)?.preferredFactor(in: [0, 0, 0, 0, 0, 0]) == nil)
    let attempts = try #require(model.failedAttempts)
    #expect(attempts.limit == 3)
    let wrong = model.responses.firstIndex { $0.name == "wrongCode" }!
    #expect(attempts.counts(response: wrong, outcome: .error("CodeMismatchException")))
    #expect(!attempts.counts(response: wrong, outcome: .step(1)))
  }

  @Test("an unknown factor is an error at its line with a suggestion")
  func unknownFactor() {
    let text = Self.withFacts(step: "    factor: smss\n")
    let diagnostics = TinyModel.diagnostics(text)
    let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("smss") }! + 1
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.message.hasPrefix("unknown factor 'smss'; did you mean 'sms'?") == true)
    #expect(diagnostics.first?.line == line)
  }

  @Test("an unknown action, delivery or detail is an error naming the vocabulary")
  func unknownVocabulary() {
    let messages = TinyModel.diagnostics(
      Self.withFacts(step: "    factor: sms\n    action: challange\n    delivery: mail\n    carries: [secret]\n")
    ).map(\.message)
    #expect(messages.contains { $0.hasPrefix("unknown action 'challange'; did you mean 'challenge'?") })
    #expect(messages.contains { $0.hasPrefix("unknown delivery 'mail'") })
    #expect(messages.contains { $0.hasPrefix("unknown a detail 'secret'") || $0.hasPrefix("unknown detail 'secret'") })
  }

  @Test("a TOTP step cannot say where its code is delivered")
  func deliveryOfTotp() {
    let text = Self.withFacts(step: "    factor: totp\n    delivery: sms\n").replacingOccurrences(
      of: "  sms: {usable: \"user.phone\"}", with: "  totp: {usable: \"user.phone\"}")
    let messages = TinyModel.diagnostics(text).map(\.message)
    #expect(messages == ["'totp' is not delivered by sms (it sends no code)"])
  }

  @Test("a step's factor must be declared under factors:")
  func undeclaredFactor() {
    let text = Self.withFacts(step: "    factor: totp\n")
    let expected = ["step 'code' challenges 'totp', which 'factors:' does not declare"]
    #expect(TinyModel.diagnostics(text).map(\.message) == expected)
  }

  @Test("a setup step needs 'setUp:' for its factor")
  func setupNeedsSetUp() {
    let text = Self.withFacts(step: "    factor: sms\n    action: setup\n")
    let expected = ["step 'code' sets up 'sms', but 'factors:' gives no 'setUp:' for it"]
    #expect(TinyModel.diagnostics(text).map(\.message) == expected)
  }

  @Test("a preference value outside the variable's domain, and a flow-less counter, are errors")
  func badPreferenceAndCounter() {
    let text = Self.withFacts()
      .replacingOccurrences(of: "values: {required: sms}", with: "values: {always: sms}")
      .replacingOccurrences(of: "counter: flow.tries", with: "counter: pool.mfa")
    let messages = TinyModel.diagnostics(text).map(\.message)
    #expect(messages.contains("'always' is not in the domain [off, required] of 'pool.mfa'"))
    #expect(
      messages.contains {
        $0.hasPrefix("the counter must be a flow variable with a range domain, not 'pool.mfa'")
      })
  }

  @Test("the shipped models state a factor for every challenge step and a limit of five failed attempts")
  func shippedModels() throws {
    for file in ["2023-swift.yaml", "2024-flutter.yaml", "2026-all-platforms.yaml"] {
      let model = try ModelLoader.load(file: "models/\(file)")
      for step in model.steps where step.kind == .challenge {
        #expect(step.facts.factor != nil || step.facts.action?.isSelection == true, "\(file): \(step.id)")
      }
      #expect(model.failedAttempts?.limit == 5)
      #expect(model.preference(for: .mfa) != nil)
      for i in model.configurationIndices {
        #expect(model.variables[i].defaultValue != nil, "\(model.variables[i].name)")
      }
    }
  }
}
