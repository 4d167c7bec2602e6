import Foundation
import Testing

/// `fuzz` on a model from which no configuration can be drawn runs nothing and says why:
/// exit 2 naming the first constraint's line when the constraints have no solution, exit 4
/// when the harness covers none of the solutions (never a run over the model's defaults).
@Suite("fuzz when no configuration can be drawn")
struct FuzzConfigurationCommandTests {
  /// The 2023 model with one more constraint (first in the list), written to a temporary
  /// file; its path and the new constraint's line.
  static func model(adding constraint: String) throws -> (path: String, line: Int) {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let header = try #require(text.components(separatedBy: "\n").firstIndex(of: "constraints:"))
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("fuzz-config-\(UUID().uuidString).yaml").path
    try text.replacingOccurrences(of: "constraints:\n", with: "constraints:\n  - \"\(constraint)\"\n")
      .write(toFile: path, atomically: true, encoding: .utf8)
    return (path, header + 2)
  }

  @Test("constraints with no solution: exit 2, file:line and text of the constraint that rules them out, no case run")
  func unsatisfiable() throws {
    let (path, line) = try Self.model(adding: "pool.mfa == off && pool.mfa != off")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try CommandLineTests.run(["fuzz", "--model", path, "--runs", "10", "--seed", "1", "--no-save"])
    #expect(run.status == 2)
    #expect(
      run.stderr.contains(
        "\(path):\(line): error: no configuration satisfies the model's constraints: the constraint at line \(line) "
          + "(\"pool.mfa == off && pool.mfa != off\") rules every one out; nothing to fuzz"))
    #expect(!run.stdout.contains("transition coverage"))
  }

  @Test("solutions the harness cannot run only: exit 4")
  func notCovered() throws {
    // PreventUserExistenceErrors is read only for a user that does not exist (`Harness.covers`).
    let (path, _) = try Self.model(adding: "pool.preventUserExistenceErrors && user.exists")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try CommandLineTests.run(["fuzz", "--model", path, "--runs", "10", "--seed", "1", "--no-save"])
    #expect(run.status == 4)
    #expect(run.stderr.contains("no configuration that satisfies the model's constraints is one the harness can run"))
  }
}
