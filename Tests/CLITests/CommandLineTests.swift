import Foundation
import Testing

/// Runs the built `signin-spec` binary and checks its output and exit status.
@Suite("The signin-spec command line")
struct CommandLineTests {
  struct Run {
    let status: Int32
    let stdout: String
    let stderr: String
  }

  static var binary: URL {
    // The test bundle sits in the same products folder as the executable.
    var candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
    candidates.append(
      URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug"))
    for folder in candidates {
      let url = folder.appendingPathComponent("signin-spec")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return candidates.last!.appendingPathComponent("signin-spec")
  }

  static func run(_ arguments: [String]) throws -> Run {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  static func temporaryModel(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("signin-spec-\(UUID().uuidString).yaml")
      .path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("verify on the shipped models exits 0 and prints every invariant as holding")
  func verifyShipped() throws {
    let run = try Self.run(["verify", "models/2023-swift.yaml"])
    #expect(run.status == 0)
    #expect(
      run.stdout.split(separator: "\n").contains {
        $0.hasPrefix("  holds     failAuthenticationRestarts ")
          && $0.contains(" after the define trigger fails authentication")
      })
    #expect(run.stdout.contains("nothing but a new signIn proceeds  [Z3: proven, unbounded]"))
    #expect(run.stdout.hasSuffix("1 model, 20 checks: 20 hold\n"))  // 13 built-ins + the model's 7
  }

  @Test("a violated invariant exits 1 and prints the shortest counterexample with platform names")
  func verifyViolation() throws {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8).replacingOccurrences(
      of:
        "      failingAnswer:\n        - restart: \"NotAuthorizedException: the define trigger failed authentication\"",
      with: "      failingAnswer:\n        - error: NotAuthorizedException")
    let path = try Self.temporaryModel(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try Self.run(["verify", path, "--invariant", "failAuthenticationRestarts", "--platform", "js"])
    #expect(run.status == 1)
    #expect(run.stdout.contains("VIOLATED  failAuthenticationRestarts"))
    #expect(run.stdout.contains("shortest counterexample, 3 calls:"))
    #expect(run.stdout.contains("1. signIn(correctPassword)             -> CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE"))
    // After the failed trigger the flow goes on: a status exception the JS client reports as a step.
    #expect(run.stdout.contains("3. confirmSignIn(statusResetRequired)  -> RESET_PASSWORD"))
    #expect(run.stdout.hasSuffix("1 model, 1 checks: 0 hold, 1 violated\n"))
  }

  @Test("a malformed model exits 2 with file:line:column and a suggestion")
  func malformedModel() throws {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
      .replacingOccurrences(of: "goto: confirmSignInWithTOTPCode", with: "goto: confirmSignInWithTOTPCod")
    let path = try Self.temporaryModel(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try Self.run(["verify", path])
    #expect(run.status == 2)
    #expect(run.stderr.contains("\(path):"))
    #expect(
      run.stderr.contains(": error: unknown step 'confirmSignInWithTOTPCod'; did you mean 'confirmSignInWithTOTPCode'?")
    )
    #expect(run.stdout.isEmpty)
  }

  @Test("an unknown invariant is a usage error (64) that suggests the closest name")
  func unknownInvariant() throws {
    let run = try Self.run(["verify", "--invariant", "terminate"])
    #expect(run.status == 64)
    #expect(run.stderr.contains("unknown invariant 'terminate'; did you mean 'terminates'?"))
  }

  @Test("--format json reports each verdict and --junit writes one test case per model and invariant")
  func machineReadable() throws {
    let junit = FileManager.default.temporaryDirectory.appendingPathComponent("signin-\(UUID().uuidString).xml").path
    let run = try Self.run([
      "verify", "models/2023-swift.yaml", "models/2024-flutter.yaml", "--format", "json", "--junit", junit,
    ])
    #expect(run.status == 0)
    let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    let models = json?["models"] as? [[String: Any]]
    #expect(models?.count == 2)
    let invariants = models?.first?["invariants"] as? [[String: Any]]
    #expect(invariants?.count == 20)
    #expect(invariants?.allSatisfy { $0["verdict"] as? String == "holds" } == true)
    #expect(invariants?.allSatisfy { $0["z3"] as? String == "proven" } == true)
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.components(separatedBy: "<testcase ").count - 1 == 39)
    #expect(xml.contains("<testsuites name=\"signin-spec verify\" tests=\"39\" failures=\"0\" skipped=\"0\">"))
  }

  @Test("list shows each step with every platform's name and the seeds' disagreements")
  func list() throws {
    let run = try Self.run(["list", "models/2026-all-platforms.yaml"])
    #expect(run.status == 0)
    #expect(run.stdout.contains("  resetPassword [ends: new signIn needed]"))
    #expect(run.stdout.contains("      android  thrown as PasswordResetRequiredException, not a step"))
    #expect(run.stdout.contains("CONFIRM_SIGN_IN_WITH_EMAIL_MFA_CODE"))
    #expect(run.stdout.contains("Invariants:"))
  }

  @Test("diff and lint on two threads print what they print on one")
  func diffAndLintInParallel() throws {
    for arguments in [
      ["diff", "models/2023-swift.yaml", "models/2024-flutter.yaml", "--format", "json"],
      ["lint", "models/2024-flutter.yaml"],
    ] {
      let parallel = try Self.run(arguments + ["--jobs", "2", "--buffered-classes", "2"])
      let sequential = try Self.run(arguments + ["--jobs", "1"])
      #expect(parallel.status == sequential.status, "\(arguments)")
      #expect(parallel.stdout == sequential.stdout, "\(arguments)")
      #expect(!sequential.stdout.isEmpty)
    }
  }

  @Test("diff stopped by --max-classes says so and exits 4 (inconclusive) when nothing breaks")
  func diffClassLimit() throws {
    let run = try Self.run(["diff", "models/2023-swift.yaml", "models/2023-swift.yaml", "--max-classes", "10"])
    #expect(run.status == 4, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("INCOMPLETE: stopped after 10 configuration classes (--max-classes)"))
    #expect(run.stdout.contains("behaviour: 10 configuration classes"))
    let whole = try Self.run(["diff", "models/2023-swift.yaml", "models/2023-swift.yaml"])
    #expect(whole.status == 0, "\(whole.stdout)\(whole.stderr)")
    #expect(!whole.stdout.contains("INCOMPLETE"))
  }

  @Test(
    "a --jobs, --buffered-classes, --max-classes or --max-pending-memory out of range is bad usage naming the option",
    arguments: [
      ["diff", "--jobs", "0"], ["diff", "--buffered-classes", "0"], ["lint", "--jobs", "257"],
      ["lint", "--buffered-classes", "-1"], ["diff", "--max-classes", "0"], ["lint", "--max-classes", "0"],
      ["lint", "--max-pending-memory", "0"], ["diff", "--max-pending-memory", "2000000"],
      ["verify", "--max-pending-memory", "0"], ["diff", "--max-states", "0"],
    ])
  func badThreadOptions(arguments: [String]) throws {
    let models =
      arguments[0] == "diff" ? ["models/2023-swift.yaml", "models/2023-swift.yaml"] : ["models/2023-swift.yaml"]
    let run = try Self.run([arguments[0]] + models + Array(arguments.dropFirst()))
    #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains(arguments[1]), "\(run.stderr)")
  }

  @Test("prove --jobs 2 proves models side by side and prints them in the order given, as --jobs 1 does")
  func proveInParallel() throws {
    let arguments = ["prove", "models/2024-flutter.yaml", "models/2023-swift.yaml"]
    let parallel = try Self.run(arguments + ["--jobs", "2"])
    let sequential = try Self.run(arguments + ["--jobs", "1"])
    #expect(parallel.status == 0 && sequential.status == 0)
    func verdicts(_ text: String) -> [String] {
      text.split(separator: "\n").map { line in
        line.replacingOccurrences(of: #"\d+\.\d+ s"#, with: "T s", options: .regularExpression)
      }
    }
    #expect(verdicts(parallel.stdout) == verdicts(sequential.stdout))
    #expect(parallel.stdout.hasPrefix("amplify-signin-2024"))
  }

  @Test("prove says proven (unbounded) for every invariant, with the time of each")
  func prove() throws {
    let run = try Self.run(["prove", "models/2024-flutter.yaml"])
    #expect(run.status == 0)
    #expect(run.stdout.components(separatedBy: "proven (unbounded)").count - 1 == 19)
    #expect(run.stdout.contains("  proven (unbounded)  terminates"))
  }

  @Test("prove on a broken model exits 1 with a counterexample replayed by the explicit engine")
  func proveViolation() throws {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8).replacingOccurrences(
      of:
        "      failingAnswer:\n        - restart: \"NotAuthorizedException: the define trigger failed authentication\"",
      with: "      failingAnswer:\n        - error: NotAuthorizedException")
    let path = try Self.temporaryModel(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let run = try Self.run(["prove", path, "--invariant", "failAuthenticationRestarts"])
    #expect(run.status == 1)
    #expect(run.stdout.contains("VIOLATED            failAuthenticationRestarts"))
    #expect(run.stdout.contains("counterexample (found by Z3, replayed by the explicit engine), 3 calls:"))
  }

  @Test("a missing model path is a usage error")
  func missingPath() throws {
    let run = try Self.run(["verify", "no/such/model.yaml"])
    #expect(run.status == 64)
    #expect(run.stderr.contains("no such model file or folder: no/such/model.yaml"))
  }
}
