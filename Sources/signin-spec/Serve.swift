import ArgumentParser
import CognitoServer
import Dispatch
import Foundation
import Scenarios
import SignInModel
import SimulatedCognito

/// Serves the simulated user pool over HTTP with Cognito's JSON 1.1 protocol.
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve the simulated user pool as a Cognito sign-in endpoint over HTTP.",
    discussion: """
      One user ("user", password "Passw0rd!") in one pool configured like the model: each pool. and \
      user. variable takes its --set value, else the model's default: value. Each SMS or email \
      code is drawn fresh (GET /_signin-spec/messages?username=user lists them); TOTP codes are \
      checked by RFC 6238 at --clock. Prints "listening on http://HOST:PORT", "pool id: ..." and \
      "client id: ..." on standard output (and "totp secret (user): ..." for a registered TOTP \
      user), then serves InitiateAuth, RespondToAuthChallenge, AssociateSoftwareToken and \
      VerifySoftwareToken until SIGINT or SIGTERM. POST /_signin-spec/faults injects failures. \
      Exit 0 when stopped, 2 for a malformed model, 64 for bad usage.

      Examples:
        signin-spec serve --port 0
        signin-spec serve --set pool.mfa=required --set pool.sms=true --set user.phone=true
      """)

  @Argument(help: "The model whose variables configure the pool.")
  var model = "models/2026-all-platforms.yaml"

  @Option(name: .customLong("set"), help: "NAME=VALUE for a pool. or user. variable of the model (repeatable).")
  var settings: [String] = []

  @Option(help: "The address to bind.")
  var host = "127.0.0.1"

  @Option(help: "The port to bind (0: a free port, printed).")
  var port = 9229

  @Option(help: "Seed of the pool's randomness (SRP's salt and secret b, codes, TOTP secrets).")
  var seed: UInt64 = 0

  @Option(
    help: "The pool's clock for TOTP, fixed at an ISO 8601 time (e.g. 2026-01-01T00:00:00Z); default: the system time.")
  var clock: String?

  @Option(help: "The largest request body accepted, in bytes; a larger one is HTTP 413.")
  var maxBodyBytes = CognitoServer.defaultMaxBodyBytes

  /// The client id printed for clients to use (the simulated pool does not check it).
  static let clientId = "signinspecsimulatedclient"
  /// The largest --max-body-bytes (64 MiB): a body is held in memory while it is answered.
  static let maxBodyLimit = 64 << 20

  func validate() throws {
    try OptionChecks.settings(settings)
    try OptionChecks.range(port, 0...65_535, "--port")
    try OptionChecks.range(maxBodyBytes, 1...Self.maxBodyLimit, "--max-body-bytes", unit: " bytes")
    guard !host.isEmpty else { throw ValidationError("--host must name an address") }
    if let clock, Self.parseClock(clock) == nil {
      throw ValidationError("--clock: '\(clock)' is not an ISO 8601 time such as 2026-01-01T00:00:00Z")
    }
  }

  /// An ISO 8601 time, with or without fractional seconds.
  static func parseClock(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }

  func run() async throws {
    let loaded = try ModelOptions.loadOne(model)
    let pairs = settings.map { s -> (name: String, value: String) in
      // validate() checked that every setting has "=".
      let parts = s.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      return (parts[0], parts.count > 1 ? parts[1] : "")
    }
    let configuration = try Self.poolConfiguration(loaded, pairs)

    // Ignore the signals' default action before anything is printed, so a SIGTERM sent after
    // the start-up lines always reaches the sources below.
    let (stops, stopped) = AsyncStream.makeStream(of: Int32.self)
    let queue = DispatchQueue(label: "signin-spec.serve.signals")
    let sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { stopped.yield(number) }
      source.resume()
      return source
    }
    defer { sources.forEach { $0.cancel() } }

    let poolId = SimulatedUserPool.poolId
    let fixedTime = clock.flatMap(Self.parseClock)
    let pool = SimulatedUserPool(
      configuration: configuration, poolId: poolId, seed: seed,
      codes: .generated(clock: { fixedTime ?? Date() }))
    let server: CognitoServer
    do {
      server = try await CognitoServer.start(
        backend: pool, control: pool, host: host, port: port, maxBodyBytes: maxBodyBytes)
    } catch {
      printError("error: cannot listen on \(host):\(port): \(error)")
      throw ExitStatus.usage
    }
    Self.say("listening on \(server.endpoint.absoluteString.dropLast())")
    Self.say("pool id: \(poolId)")
    Self.say("client id: \(Self.clientId)")
    if configuration["user.totpRegistered"] == "true" {
      Self.say("totp secret (\(SimulatedUserPool.username)): \(pool.totpSecret)")
    }
    for await _ in stops { break }
    await server.stop()
  }

  /// The pool's configuration: each pool. and user. variable's setting, else its default.
  /// Another variable, one the model does not have or a value outside its domain is exit 64.
  static func poolConfiguration(_ model: SignInModel, _ pairs: [(name: String, value: String)]) throws -> [String:
    String]
  {
    for (name, _) in pairs where !isPoolVariable(name) {
      printError("error: --set: '\(name)' is not a pool. or user. variable; the pool is configured by those only")
      throw ExitStatus.usage
    }
    do {
      return try ConfigurationResolver(model: model).resolve(pairs).filter { isPoolVariable($0.key) }
    } catch {
      printError("error: \(error.message)")
      throw ExitStatus.usage
    }
  }

  static func isPoolVariable(_ name: String) -> Bool { name.hasPrefix("pool.") || name.hasPrefix("user.") }

  /// One line on standard output, written at once, unbuffered (a script reads the lines as they come).
  static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}
