import Evolution
import Foundation
import SignInModel
import Testing

/// The shipped generations, compared: the history itself is a test.
@Suite("Generation history")
struct GenerationHistoryTests {
  @Test(
    "2023 → 2024: email MFA is added; the 2023 configurations keep their behaviour except the new selectEMAIL answer; 2023 clients meet the email steps"
  )
  func from2023To2024() throws {
    let new = try EvolutionPairs.model("2024-flutter")
    let d = ModelDiff(old: try EvolutionPairs.model("2023-swift"), new: new)
    let all2024 = ModelDiff(old: new, new: new).compared  // every valid 2024 configuration
    #expect(d.compared == 535_392 && d.addedCount == all2024 - 535_392 && d.removedCount == 0)
    #expect(d.changed.allSatisfy { $0.step == "continueSignInWithMFASelection" && $0.response == "selectEMAIL" })
    #expect(d.structural.contains { $0.category == "optionSetGeneration" && $0.name == "mfaType" })
    #expect(d.isBreaking && d.lostDone.isEmpty)
    #expect(d.compatibility.contains { $0.platform == "swift" && $0.step == "continueSignInWithEmailMFASetup" })
  }

  @Test("every shipped model lints clean with --strict: what it means is acknowledged")
  func shippedModelsLintClean() throws {
    for name in ["2023-swift", "2024-flutter"] {
      let warnings = Linter(model: try EvolutionPairs.model(name)).warnings()
      #expect(warnings.allSatisfy { $0.acknowledged != nil }, "\(name): \(warnings.filter { $0.acknowledged == nil })")
      #expect(warnings.contains { $0.target == "smsOnlySetupDeadEnd" })
    }
  }

  @Test("JSON output names its format and version")
  func jsonFormat() throws {
    let d = ModelDiff(old: try EvolutionPairs.model("2023-swift"), new: try EvolutionPairs.model("2023-swift"))
    let json =
      try JSONSerialization.jsonObject(with: Data(DiffJSONReport.render(d, tool: "test").utf8)) as? [String: Any]
    #expect(json?["format"] as? String == "signin-spec-diff")
    #expect(json?["version"] as? Int == 2)
    #expect(json?["breaking"] as? Bool == false)
  }
}
