import ArgumentParser
import CognitoServer
import CognitoWire
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
      A pool configured like the model: each pool. and user. variable takes its --set value, else \
      the model's default: value. Without --users it has one user ("user", password "Passw0rd!"); \
      --users FILE lists users instead (schemas/serve-users.v1.schema.json). Each SMS or email \
      code is drawn fresh (GET /_signin-spec/messages?username=U lists them); TOTP codes are \
      checked by RFC 6238 at --clock. ID and access tokens are RS256 JWTs (key set at \
      /<poolId>/.well-known/jwks.json). Prints "listening on http://HOST:PORT", "pool id: ...", \
      "client id: ..." and "totp secret (U): ..." for each user with a TOTP secret on standard \
      output, then serves InitiateAuth, RespondToAuthChallenge, AssociateSoftwareToken, \
      VerifySoftwareToken, ConfirmDevice, UpdateDeviceStatus and GetUser until SIGINT or SIGTERM. \
      POST /_signin-spec/faults injects failures; POST /_signin-spec/pools and PUT \
      /_signin-spec/pools/<poolId>/users/<username> add pools and users. Exit 0 when stopped, 2 \
      for a malformed model, 64 for bad usage (an option, a users file, a variable the pool does \
      not implement).

      Examples:
        signin-spec serve --port 0
        signin-spec serve --set pool.mfa=required --set pool.sms=true --set user.phone=true
        signin-spec serve --users users.yaml --log requests.jsonl
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

  @Option(help: "How long a timeout fault holds the connection unanswered before closing it, in seconds.")
  var timeoutFaultSeconds = CognitoServer.defaultTimeoutFaultSeconds

  @Option(help: "How many sent SMS and email codes each user's outbox keeps (the oldest go first).")
  var outboxLimit = SimulatedUserPool.defaultOutboxLimit

  @Option(help: "A YAML file of users (schemas/serve-users.v1.schema.json); default: one user, 'user'.")
  var users: String?

  @Option(help: "An RSA private key (PEM) that signs the tokens; default: a key generated at start.")
  var signingKey: String?

  @Option(help: "Write every Cognito request as a JSON line to FILE (signin-spec-request-log), secrets redacted.")
  var log: String?

  /// The first pool's client id, printed for clients to use.
  static let clientId = SimulatedService.firstClientId
  /// The largest --max-body-bytes (64 MiB): a body is held in memory while it is answered.
  static let maxBodyLimit = 64 << 20

  func validate() throws {
    try OptionChecks.settings(settings)
    try OptionChecks.range(port, 0...65_535, "--port")
    try OptionChecks.range(maxBodyBytes, 1...Self.maxBodyLimit, "--max-body-bytes", unit: " bytes")
    try OptionChecks.range(timeoutFaultSeconds, 0...3_600, "--timeout-fault-seconds", unit: " s")
    try OptionChecks.range(outboxLimit, 1...1_000_000, "--outbox-limit", unit: " messages")
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
    let poolPairs = pairs.filter { $0.name.hasPrefix("pool.") }
    let resolver = ConfigurationResolver(model: loaded)
    var fileUsers: [(entry: UsersFile.Entry, configuration: [String: String])] = []
    if let users {
      let file: UsersFile
      do { file = try UsersFile.load(users) } catch {
        printError("error: --users: \(error.description)")
        throw ExitStatus.usage
      }
      for entry in file.entries {
        do {
          try Self.checkImplemented(entry.settings.map(\.name))
          fileUsers.append((entry, try Self.resolve(resolver, poolPairs + entry.settings)))
        } catch {
          printError("error: --users: \(users):\(entry.line(for: error.message)): \(error.message)")
          throw ExitStatus.usage
        }
      }
    }
    let signingPEM: String?
    if let signingKey {
      guard let text = try? String(contentsOfFile: signingKey, encoding: .utf8) else {
        printError("error: --signing-key: cannot read \(signingKey) as text")
        throw ExitStatus.usage
      }
      signingPEM = text
    } else {
      signingPEM = nil
    }

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

    let fixedTime = clock.flatMap(Self.parseClock)
    let now: @Sendable () -> Date = { fixedTime ?? Date() }
    let minter: JWTMinter
    do {
      minter = try await JWTMinter(privateKeyPEM: signingPEM, clock: now)
    } catch {
      printError("error: --signing-key: \(error)")
      throw ExitStatus.usage
    }
    let service = SimulatedService(
      seed: seed, codes: .generated(clock: now), minter: minter, outboxLimit: outboxLimit)
    let (poolId, _) = await service.createPool(configuration: configuration)
    var printed: [(String, String)] = []
    var deviceLine: RememberedDeviceSecret?
    if fileUsers.isEmpty && users == nil {
      if configuration["user.exists"] != "false" {
        let user = try await service.putUser(poolId: poolId, user: .init(), configuration: configuration)
        if configuration["user.totpRegistered"] == "true" { printed.append((user.username, user.totpSecret)) }
        deviceLine = user.configuredDevice
      }
    }
    for (entry, userConfiguration) in fileUsers {
      let user = try await service.putUser(poolId: poolId, user: entry.user, configuration: userConfiguration)
      if entry.user.totpSecret != nil || userConfiguration["user.totpRegistered"] == "true" {
        printed.append((user.username, user.totpSecret))
      }
    }
    let requestLog: RequestLog?
    if let log {
      do {
        requestLog = try RequestLog(
          path: log, stepFor: Self.stepFor(loaded),
          configurationOf: { request in await service.configuration(forRequest: request) })
      } catch {
        printError("error: --log: \(error)")
        throw ExitStatus.usage
      }
    } else {
      requestLog = nil
    }
    let control = ServerControl(
      service: service,
      resolve: { settings, pool in
        try Self.checkImplemented(settings.map(\.name))
        if let pool {
          for (name, _) in settings where !name.hasPrefix("user.") {
            throw ConfigurationProblem("set: '\(name)' is not a user. variable (a user's set names user. variables)")
          }
          if settings.contains(where: { $0.name == "user.exists" }) {
            throw ConfigurationProblem(
              "set: 'user.exists' is not a user's setting: a user put here exists (sign in with another name)")
          }
          let base = pool.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
          return try Self.resolve(resolver, base + settings)
        }
        for (name, _) in settings where !name.hasPrefix("pool.") {
          throw ConfigurationProblem("set: '\(name)' is not a pool. variable (a pool's set names pool. variables)")
        }
        return try Self.resolve(resolver, settings)
      },
      jwks: { minter.jwks() }, log: requestLog)
    let server: CognitoServer
    do {
      server = try await CognitoServer.start(
        backend: service, control: control, host: host, port: port, maxBodyBytes: maxBodyBytes,
        timeoutFaultSeconds: timeoutFaultSeconds)
    } catch {
      printError("error: cannot listen on \(host):\(port): \(error)")
      throw ExitStatus.usage
    }
    let url = String(server.endpoint.absoluteString.dropLast())
    await minter.setEndpoint(url)
    Self.say("listening on \(url)")
    Self.say("pool id: \(poolId)")
    Self.say("client id: \(Self.clientId)")
    for (username, secret) in printed { Self.say("totp secret (\(username)): \(secret)") }
    if let device = deviceLine {
      Self.say("device (user): key=\(device.key) groupKey=\(device.groupKey) password=\(device.password)")
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
    do { try checkImplemented(pairs.map(\.name)) } catch {
      printError("error: --set: \(error.message)")
      throw ExitStatus.usage
    }
    do {
      return try ConfigurationResolver(model: model).resolve(pairs).filter { isPoolVariable($0.key) }
    } catch {
      printError("error: \(error.message)")
      throw ExitStatus.usage
    }
  }

  /// A configuration: the pairs over the model's defaults, checked against its domains and
  /// constraints; only pool. and user. variables are kept.
  static func resolve(_ resolver: ConfigurationResolver, _ pairs: [(name: String, value: String)])
    throws(ConfigurationProblem) -> [String: String]
  {
    do {
      return try resolver.resolve(pairs).filter { isPoolVariable($0.key) }
    } catch {
      throw ConfigurationProblem(error.message)
    }
  }

  /// A variable the pool does not implement (a model's `pool.voice`, say) cannot be set.
  static func checkImplemented(_ names: [String]) throws(ConfigurationProblem) {
    for name in names where isPoolVariable(name) && !SimulatedUserPool.implementedVariables.contains(name) {
      throw ConfigurationProblem(
        "'\(name)' is a variable the simulated pool does not implement; it serves "
          + SimulatedUserPool.implementedVariables.sorted().joined(separator: ", "))
    }
  }

  static func isPoolVariable(_ name: String) -> Bool { name.hasPrefix("pool.") || name.hasPrefix("user.") }

  /// One line on standard output, written at once, unbuffered (a script reads the lines as they come).
  static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}

extension Serve {
  /// The model step a Cognito answer leads to, for the request log: tokens are `done`; a
  /// challenge is the step the clients show for it (the models' step ids); PASSWORD_VERIFIER
  /// and the device challenges are answered inside the client and show no step (nil). A step
  /// the model does not have is nil.
  static func stepFor(_ model: SignInModel) -> @Sendable (JSONObject) -> String? {
    let known = Set(model.steps.map(\.id))
    return { response in
      let step: String?
      if response["AuthenticationResult"] != nil {
        step = "done"
      } else {
        let parameters = response["ChallengeParameters"]?.object ?? [:]
        switch response["ChallengeName"]?.string {
        case "SMS_MFA": step = "confirmSignInWithSMSMFACode"
        case "SOFTWARE_TOKEN_MFA": step = "confirmSignInWithTOTPCode"
        case "EMAIL_OTP":
          step =
            parameters["CODE_DELIVERY_DESTINATION"]?.string == "x***"
            ? "confirmSignInWithOTP.emailFirstFactor" : "confirmSignInWithOTP.emailMFA"
        case "SMS_OTP": step = "confirmSignInWithOTP.smsFirstFactor"
        case "SELECT_MFA_TYPE": step = "continueSignInWithMFASelection"
        case "SELECT_CHALLENGE": step = "continueSignInWithFirstFactorSelection"
        case "NEW_PASSWORD_REQUIRED": step = "confirmSignInWithNewPassword"
        case "CUSTOM_CHALLENGE": step = "confirmSignInWithCustomChallenge"
        case "MFA_SETUP":
          let types = parameters["MFAS_CAN_SETUP"]?.string ?? ""
          let totp = types.contains("SOFTWARE_TOKEN_MFA")
          let email = types.contains("EMAIL_OTP")
          step =
            totp && email
            ? "continueSignInWithMFASetupSelection"
            : totp ? "continueSignInWithTOTPSetup" : email ? "continueSignInWithEmailMFASetup" : nil
        default: step = nil
        }
      }
      return step.flatMap { known.contains($0) ? $0 : nil }
    }
  }
}
