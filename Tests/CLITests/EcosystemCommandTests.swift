import Foundation
import Testing

/// `graph` and `export` as a user runs them, and the documents they write.
@Suite("graph and export on the command line")
struct EcosystemCommandTests {
  static let models = ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"]

  static func temporaryFile(_ text: String, suffix: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "signin-spec-\(UUID().uuidString)\(suffix)")
    try text.write(to: path, atomically: true, encoding: .utf8)
    return path.path
  }

  /// Runs python3 with the arguments; its exit status and combined output.
  static func python(_ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  static let validate = """
    import json, sys, jsonschema
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))
    print("valid")
    """

  @Test("export writes a document the JSON Schema in schemas/ accepts", arguments: models)
  func exportMatchesSchema(model: String) throws {
    let run = try CommandLineTests.run(["export", model, "--format", "json"])
    #expect(run.status == 0, "\(run.stderr)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(document["format"] as? String == "signin-spec-model-export")
    #expect(document["version"] as? Int == 1)
    let file = try Self.temporaryFile(run.stdout, suffix: ".json")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let (status, output) = try Self.python(["-c", Self.validate, "schemas/model-export.v1.schema.json", file])
    #expect(status == 0 && output.contains("valid"), "\(output)")
  }

  @Test("The schema rejects a document with a misspelt outcome kind")
  func schemaRejects() throws {
    let run = try CommandLineTests.run(["export", "models/2023-swift.yaml"])
    let broken = run.stdout.replacingOccurrences(of: "\"kind\" : \"restart\"", with: "\"kind\" : \"restrat\"")
    #expect(broken != run.stdout)
    let file = try Self.temporaryFile(broken, suffix: ".json")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let (status, output) = try Self.python(["-c", Self.validate, "schemas/model-export.v1.schema.json", file])
    #expect(status != 0 && output.contains("ValidationError"), "\(output)")
  }

  @Test("graph prints Mermaid by default, DOT on request, and platform names with --platform")
  func graphFormats() throws {
    let mermaid = try CommandLineTests.run(["graph", "models/2026-all-platforms.yaml", "--platform", "js"])
    #expect(mermaid.status == 0, "\(mermaid.stderr)")
    #expect(mermaid.stdout.contains("flowchart TD"))
    #expect(mermaid.stdout.contains("CONFIRM_SIGN_IN_WITH_TOTP_CODE"))
    let dot = try CommandLineTests.run(["graph", "models/2023-swift.yaml", "--format", "dot"])
    #expect(dot.status == 0)
    #expect(dot.stdout.contains("digraph \"amplify-signin-2023\" {"))
  }

  @Test("graph --set: unknown variables, values outside the domain and broken constraints exit 64")
  func graphSetErrors() throws {
    let unknown = try CommandLineTests.run(["graph", "models/2026-all-platforms.yaml", "--set", "pool.mfq=off"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("did you mean 'pool.mfa'"))
    let value = try CommandLineTests.run(["graph", "models/2026-all-platforms.yaml", "--set", "pool.mfa=sometimes"])
    #expect(value.status == 64)
    #expect(value.stderr.contains("[off, optional, required]"))
    let flow = try CommandLineTests.run(["graph", "models/2026-all-platforms.yaml", "--set", "flow.retries=2"])
    #expect(flow.status == 64)
    let noEquals = try CommandLineTests.run(["graph", "models/2026-all-platforms.yaml", "--set", "pool.mfa"])
    #expect(noEquals.status == 64)
  }

  @Test("graph --set draws fewer transitions; --trace marks the path")
  func graphSetAndTrace() throws {
    let all = try CommandLineTests.run(["graph", "models/2026-all-platforms.yaml"])
    let srp = try CommandLineTests.run([
      "graph", "models/2026-all-platforms.yaml", "--set", "pool.authFlow=userSRP",
      "--set", "pool.mfa=off",
    ])
    #expect(srp.status == 0, "\(srp.stderr)")
    func edges(_ text: String) -> Int { text.split(separator: "\n").filter { $0.contains(" -->|") }.count }
    #expect(edges(srp.stdout) < edges(all.stdout))
    #expect(!srp.stdout.contains("continueSignInWithMFASelection"))
    let traced = try CommandLineTests.run([
      "graph", "models/2026-all-platforms.yaml", "--trace",
      "Tests/Fixtures/counterexample-unknown-challenge.json",
    ])
    #expect(traced.status == 0, "\(traced.stderr)")
    #expect(traced.stdout.contains("linkStyle"))
    let missing = try CommandLineTests.run(["graph", "models/2026-all-platforms.yaml", "--trace", "no/such.json"])
    #expect(missing.status == 64)
    let other = try CommandLineTests.run([
      "graph", "models/2023-swift.yaml", "--trace",
      "Tests/Fixtures/counterexample-unknown-challenge.json",
    ])
    #expect(other.status == 64)
    #expect(other.stderr.contains("amplify-signin-2026"))
  }

  @Test("graph --format svg runs Graphviz, or exits 64 naming dot when it is missing")
  func graphSVG() throws {
    let run = try CommandLineTests.run(["graph", "models/2023-swift.yaml", "--format", "svg"])
    let hasDot = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
      .contains { FileManager.default.isExecutableFile(atPath: "\($0)/dot") }
    if hasDot {
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains("<svg"))
    } else {
      #expect(run.status == 64)
      #expect(run.stderr.contains("Graphviz's 'dot'"))
    }
  }

  @Test(
    "--help of every subcommand shows an example",
    arguments: [
      "verify", "prove", "fuzz", "replay", "list", "bench", "export", "graph", "serve",
    ])
  func helpExamples(subcommand: String) throws {
    let run = try CommandLineTests.run([subcommand, "--help"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("Example"))
    #expect(run.stdout.contains("signin-spec \(subcommand)"))
  }

  @Test("argument-parser writes shell completion scripts that know the subcommands")
  func completions() throws {
    for shell in ["bash", "zsh", "fish"] {
      let run = try CommandLineTests.run(["--generate-completion-script", shell])
      #expect(run.status == 0)
      #expect(run.stdout.contains("graph") && run.stdout.contains("export"))
    }
  }
}
