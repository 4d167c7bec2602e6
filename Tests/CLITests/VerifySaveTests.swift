import Foundation
import Testing

/// `verify --save DIR`: each counterexample as a replayable corpus file, named stably, that
/// `replay` re-checks to the same verdict and `graph --trace` draws.
@Suite("signin-spec verify --save and replaying model-check findings")
struct VerifySaveTests {
  /// Two rules match `correctPassword` at signIn (deterministic) and one of them skips MFA (noFactorSkipped).
  static let ambiguous = """
    model: ambiguous
    generation: test
    platforms: [swift]
    configuration:
      pool.mfa: [off, required]
      user.phone: bool
    definitions:
      mfaRequired: "pool.mfa == required"
    responses:
      correctPassword: the right password
      correctCode: the right code
    signIn:
      responses:
        correctPassword:
          - goto: done
            verifies: firstFactor
          - when: "pool.mfa == required"
            goto: code
            verifies: firstFactor
    steps:
      code:
        responses:
          correctCode:
            - goto: done
              verifies: mfa
      done:
        ends: signedIn
    """

  static let fixed = ambiguous.replacingOccurrences(
    of: "      - goto: done\n        verifies: firstFactor\n",
    with: "      - when: \"pool.mfa == off\"\n        goto: done\n        verifies: firstFactor\n")

  static func folder() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("save-\(UUID().uuidString)").path
  }

  static func saved(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  @Test("one file per finding, named by invariant, model and hash; saving again gives the same files")
  func savesStably() throws {
    #expect(Self.fixed != Self.ambiguous)
    let model = try CommandLineTests.temporaryModel(Self.ambiguous)
    defer { try? FileManager.default.removeItem(atPath: model) }
    let folder = Self.folder() + "/nested"
    let first = try CommandLineTests.run(["verify", model, "--engines", "explicit", "--save", folder])
    #expect(first.status == 1, "\(first.stderr)")
    let names = try Self.saved(folder)
    #expect(names.count == 2, "\(names)")
    #expect(
      names.first?.hasPrefix("deterministic-ambiguous-") == true && names.last?.hasPrefix("noFactorSkipped-") == true)
    #expect(first.stdout.contains("saved deterministic counterexample of ambiguous: \(folder)/\(names[0])"))
    let again = try CommandLineTests.run([
      "verify", model, "--engines", "explicit", "--save", folder, "--format", "json",
    ])
    #expect(again.status == 1)
    #expect(try Self.saved(folder) == names, "the same findings are the same files, not new ones")
    #expect(again.stderr.contains("saved deterministic counterexample"), "JSON keeps stdout one document")
    let file = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: folder + "/" + names[0]))) as? [String: Any])
    #expect(file["format"] as? String == "signin-spec-counterexample" && file["version"] as? Int == 4)
    #expect(file["invariant"] as? String == "deterministic" && file["client"] as? String == "model")
    let states = ((file["itf"] as? [String: Any])?["states"] as? [Any]) ?? []
    #expect(states.count == 2, "the ITF trace: the state before the call and the state it leaves undetermined")
  }

  @Test("replay reports a saved finding again while the model keeps it, and passes once the model is fixed")
  func replaysToTheSameVerdict() throws {
    let model = try CommandLineTests.temporaryModel(Self.ambiguous)
    defer { try? FileManager.default.removeItem(atPath: model) }
    let folder = Self.folder()
    #expect(try CommandLineTests.run(["verify", model, "--engines", "explicit", "--save", folder]).status == 1)
    let replay = try CommandLineTests.run(["replay", folder])
    #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
    #expect(
      replay.stdout.contains(
        "deterministic is still violated: response 'correctPassword' at step 'signIn': "
          + "rules at lines 15, 17 all match"))
    #expect(replay.stdout.contains("noFactorSkipped is still violated"))
    let deterministic = try #require(try Self.saved(folder).first)

    try Self.fixed.write(toFile: model, atomically: true, encoding: .utf8)
    let fixedRun = try CommandLineTests.run(["replay", folder + "/" + deterministic])
    #expect(fixedRun.status == 0, "\(fixedRun.stdout)\(fixedRun.stderr)")
    #expect(fixedRun.stdout.contains("passes") && fixedRun.stdout.contains("deterministic now holds"))
  }

  @Test("graph --trace draws a saved model-check finding up to the call that has no single outcome")
  func graphReadsIt() throws {
    let model = try CommandLineTests.temporaryModel(Self.ambiguous)
    defer { try? FileManager.default.removeItem(atPath: model) }
    let folder = Self.folder()
    #expect(try CommandLineTests.run(["verify", model, "--engines", "explicit", "--save", folder]).status == 1)
    for name in try Self.saved(folder) {
      let graph = try CommandLineTests.run(["graph", model, "--trace", folder + "/" + name])
      #expect(graph.status == 0, "\(name): \(graph.stderr)")
      #expect(graph.stdout.contains("flowchart"))
    }
  }

  @Test("--save must name a folder or a path one can be made at (exit 64 naming --save)")
  func validation() throws {
    let model = try CommandLineTests.temporaryModel(Self.ambiguous)
    defer { try? FileManager.default.removeItem(atPath: model) }
    let file = try CommandLineTests.temporaryModel("not a folder")
    defer { try? FileManager.default.removeItem(atPath: file) }
    for arguments in [["--save", file], ["--save", ""], ["--save", Self.folder(), "--engines", "z3"]] {
      let run = try CommandLineTests.run(["verify", model] + arguments)
      #expect(run.status == 64, "\(arguments)")
      #expect(run.stderr.contains("--save"), "\(arguments): \(run.stderr)")
    }
    let below = try CommandLineTests.run(["verify", model, "--engines", "explicit", "--save", file + "/sub"])
    #expect(below.status == 64 && below.stderr.contains("--save"), "\(below.stderr)")
  }
}
