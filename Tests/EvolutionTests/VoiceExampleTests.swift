import Evolution
import Foundation
import SignInModel
import Testing

/// `examples/2026-voice-mfa.yaml` is today's 2026 model plus voice MFA and nothing else, so the
/// docs/guide/models.md's walkthrough and the "one more MFA type" benchmark stay true as the model grows.
@Suite("The voice-MFA example")
struct VoiceExampleTests {
  static let example = "examples/2026-voice-mfa.yaml"

  @Test("the example is what scripts/voice-example.py makes of today's 2026 model (make voice-example)")
  func current() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("voice-\(UUID().uuidString).yaml").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "scripts/voice-example.py", "models/2026-all-platforms.yaml", out]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let made = try String(contentsOfFile: out, encoding: .utf8)
    let committed = try String(contentsOfFile: Self.example, encoding: .utf8)
    #expect(made == committed, "the example is stale: run `make voice-example`")
  }

  @Test("its declarations differ from the 2026 model's by the voice MFA type alone")
  func structuralChangesAreVoiceOnly() throws {
    let old = try ModelLoader.load(file: "models/2026-all-platforms.yaml")
    let new = try ModelLoader.load(file: Self.example)
    let changes = StructuralDiff.compare(old, new).changes.map { "\($0.kind.rawValue) \($0.category) \($0.name)" }
    #expect(
      Set(changes) == [
        "added step confirmSignInWithVoiceCode", "added configurationVariable pool.voice", "added option mfaType.VOICE",
        "changed optionSetGeneration mfaType", "added route smsOrVoice",
      ])
  }
}

/// The whole diff of the example (half a minute on the 2-core machine): no configuration of
/// the 2026 model behaves differently; voice pools reach a step today's clients do not know.
@Suite("The voice-MFA example's behaviour diff")
struct VoiceExampleLongTests {
  @Test("every configuration both models have behaves the same; the new step is a breaking change on every platform")
  func behaviour() throws {
    let old = try ModelLoader.load(file: "models/2026-all-platforms.yaml")
    let new = try ModelLoader.load(file: VoiceExampleTests.example)
    let d = ModelDiff(old: old, new: new, platforms: nil)
    #expect(d.changedCount == 0 && d.removedCount == 0 && d.lostDone.isEmpty)
    #expect(d.compared == d.addedCount, "pool.voice doubles the configurations; the old half is unchanged")
    #expect(Set(d.compatibility.map(\.platform)) == Set(old.platforms))
    #expect(d.compatibility.allSatisfy { $0.kind == .unknownStep && $0.step == "confirmSignInWithVoiceCode" })
  }
}
