import CognitoWire
import Foundation
import SignInClient

/// moto's Cognito server (`moto_server`, PyPI `moto`) on 127.0.0.1 and a free port, started
/// for one test and stopped by PID when it ends. TOTP checks are on
/// (MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP=true). With a `clock`, moto's Cognito module reads
/// that fixed time instead of the system clock, so a TOTP code made for it is always valid.
final class MotoServer: @unchecked Sendable {
  let process = Process()
  let port: Int
  let endpoint: URL

  /// The fixed time (seconds since 1970) moto's Cognito module sees, if any.
  let clock: Int?

  /// 2026-01-01T00:00:00Z, the start of a TOTP period (30 s steps).
  static let fixedClock = 1_767_225_600

  init(clock: Int? = nil) async throws {
    port = try MotoServer.freePort()
    endpoint = URL(string: "http://127.0.0.1:\(port)/")!
    self.clock = clock
    // The interpreter itself (not a pyenv shim), so the PID we stop is moto's.
    process.executableURL = URL(fileURLWithPath: try MotoServer.python())
    let server = ["-H", "127.0.0.1", "-p", String(port)]
    if let clock {
      // moto's Cognito module calls time.time() for TOTP checks (and token times); it gets a
      // stand-in module whose time() is the fixed clock. Everything else keeps the real clock.
      let script =
        "import sys, types\nimport moto.cognitoidp.models as models\n"
        + "models.time = types.SimpleNamespace(time=lambda: float(sys.argv[1]))\n"
        + "from moto.server import main\nmain(sys.argv[2:])"
      process.arguments = ["-c", script, String(clock)] + server
    } else {
      process.arguments = ["-m", "moto.server"] + server
    }
    var environment = ProcessInfo.processInfo.environment
    environment["MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP"] = "true"
    process.environment = environment
    // moto logs every request on standard error: to a file (a pipe nobody reads would fill up),
    // whose end goes in the error when the server does not start.
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("signin-spec-moto-\(UUID().uuidString).log")
    FileManager.default.createFile(atPath: log.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: log) }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    // Wait until it answers: a condition, polled every 0.1 s, within one overall deadline.
    let probe = HTTPCognitoBackend(endpoint: endpoint, timeout: 10)
    let clock = ContinuousClock()
    let deadline = clock.now + MotoServer.startLimit
    while clock.now < deadline && process.isRunning {
      if (try? await probe.send("ListUserPools", ["MaxResults": .number(1)])) != nil { return }
      try await Task.sleep(for: .milliseconds(100))
    }
    let why =
      process.isRunning
      ? "did not answer within \(MotoServer.startLimit)" : "exited (status \(process.terminationStatus))"
    stop()
    let output = (try? String(contentsOf: log, encoding: .utf8)).map { String($0.suffix(600)) } ?? ""
    throw StartFailure(
      description: "moto_server on 127.0.0.1:\(port) \(why); is moto installed (make moto: "
        + "pip install \"moto[server]\")? Its output ends with: \(output)")
  }

  /// How long the server may take to answer its first request (it imports all of moto first).
  /// A guard against a server that never answers, not a timing condition: a CI machine whose two
  /// cores also run every other suite can take minutes to import moto.
  static let startLimit = Duration.seconds(600)

  /// The server did not start: why, and the end of its output.
  struct StartFailure: Error, CustomStringConvertible {
    let description: String
  }

  deinit { stop() }

  func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Runs a Python snippet and returns what it prints.
  static func pythonOutput(_ code: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", code]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    p.waitUntilExit()
    return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The interpreter itself (not a pyenv shim).
  static func python() throws -> String { try pythonOutput("import sys; print(sys.executable)") }

  static func freePort() throws -> Int {
    let text = try pythonOutput("import socket;s=socket.socket();s.bind(('127.0.0.1',0));print(s.getsockname()[1])")
    guard let port = Int(text), port > 0 else {
      throw StartFailure(description: "no free port from python3: '\(text)'")
    }
    return port
  }

  /// Requests wait up to 120 s: a guard against a hung server, long enough for a loaded machine.
  var backend: HTTPCognitoBackend { HTTPCognitoBackend(endpoint: endpoint, timeout: 120) }

  /// An admin call; fails the test on error.
  @discardableResult
  func admin(_ operation: String, _ body: JSONObject) async throws -> JSONObject {
    try await backend.send(operation, body)
  }

  /// A pool and an app client; returns (poolId, clientId).
  func makePool(mfa: String = "OFF", totp: Bool = false) async throws -> (String, String) {
    let pool = try await admin("CreateUserPool", ["PoolName": .string("signin-spec")])
    let poolId = pool["UserPool"]?.object?["Id"]?.string ?? ""
    let client = try await admin(
      "CreateUserPoolClient",
      [
        "UserPoolId": .string(poolId), "ClientName": .string("tests"),
        "ExplicitAuthFlows": .array([.string("ALLOW_USER_PASSWORD_AUTH"), .string("ALLOW_USER_SRP_AUTH")]),
      ])
    let clientId = client["UserPoolClient"]?.object?["ClientId"]?.string ?? ""
    if mfa != "OFF" || totp {
      try await admin(
        "SetUserPoolMfaConfig",
        [
          "UserPoolId": .string(poolId), "MfaConfiguration": .string(mfa),
          "SoftwareTokenMfaConfiguration": .object(["Enabled": .bool(totp)]),
        ])
    }
    return (poolId, clientId)
  }
}
