import CognitoSRPMath
import CognitoServer
import CognitoWire
import Foundation
import SimulatedCognito
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The pool's generated codes (`SimulatedUserPool.Codes.generated`, what `signin-spec serve`
/// uses), its outbox, RFC 6238's check of TOTP codes, and serve's `/_signin-spec/` endpoints.
@Suite("Generated codes, the outbox and the control endpoints")
struct GeneratedCodesTests {
  /// The pool's clock in these tests: 2026-01-01T00:00:00Z.
  static let time = Date(timeIntervalSince1970: 1_767_225_600)
  static let sms = CognitoServerTests.sms
  static let totp = ["pool.mfa": "required", "pool.totp": "true", "user.totpRegistered": "true"]
  static let setup = ["pool.mfa": "required", "pool.totp": "true"]

  static func pool(_ settings: [String: String], seed: UInt64 = 1) -> SimulatedUserPool {
    SimulatedUserPool(configuration: settings, seed: seed, codes: .generated(clock: { time }))
  }

  static func initiate(_ pool: SimulatedUserPool) async throws -> JSONObject {
    try await pool.send(
      "InitiateAuth",
      [
        "AuthFlow": .string("USER_PASSWORD_AUTH"), "ClientId": .string("c"),
        "AuthParameters": .object([
          "USERNAME": .string(SimulatedUserPool.username), "PASSWORD": .string(SimulatedUserPool.password),
        ]),
      ])
  }

  static func respond(_ pool: SimulatedUserPool, _ challenge: JSONObject, _ answers: [String: String]) async throws
    -> JSONObject
  {
    try await pool.send(
      "RespondToAuthChallenge",
      [
        "ChallengeName": challenge["ChallengeName"] ?? .null, "Session": challenge["Session"] ?? .null,
        "ClientId": .string("c"), "ChallengeResponses": .object(answers.mapValues { .string($0) }),
      ])
  }

  /// The Cognito error type `body` throws, or nil when it succeeds.
  static func errorType(_ body: () async throws -> JSONObject) async -> String? {
    do {
      _ = try await body()
      return nil
    } catch {
      if case .service(let type, _) = error as? CognitoCallError { return type }
      return "\(error)"
    }
  }

  // MARK: - RFC 6238

  /// RFC 6238 appendix B, SHA-1 (the key is "12345678901234567890"); the six-digit codes are
  /// the last six digits of the eight-digit ones.
  static let vectors: [(time: Double, code: String)] = [
    (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
    (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
  ]
  static let rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

  @Test("RFC 6238's SHA-1 vectors: the codes, and the check with one step of tolerance either side")
  func rfc6238() {
    #expect(OneTimePassword.base32Encode(Array("12345678901234567890".utf8)) == Self.rfcSecret)
    #expect(OneTimePassword.base32Decode(Self.rfcSecret) == Array("12345678901234567890".utf8))
    for (time, code) in Self.vectors {
      #expect(OneTimePassword.code(secret: Self.rfcSecret, time: time, digits: 8) == code)
      let six = String(code.suffix(6))
      let step = UInt64(time / 30)
      #expect(OneTimePassword.matchingStep(six, secret: Self.rfcSecret, time: time) == step)
      #expect(OneTimePassword.matchingStep(six, secret: Self.rfcSecret, time: time + 30) == step)
      #expect(OneTimePassword.matchingStep(six, secret: Self.rfcSecret, time: time - 30) == step)
      #expect(OneTimePassword.matchingStep(six, secret: Self.rfcSecret, time: time + 60) == nil)
      if time >= 90 { #expect(OneTimePassword.matchingStep(six, secret: Self.rfcSecret, time: time - 60) == nil) }
    }
  }

  // MARK: - The pool

  @Test("a generated SMS code is right once: a wrong one is a mismatch, the used one is expired in the next flow")
  func smsCodeOnce() async throws {
    let pool = Self.pool(Self.sms)
    let first = try await Self.initiate(pool)
    #expect(first["ChallengeName"]?.string == "SMS_MFA")
    let sent = await pool.messages(for: "user")
    try #require(sent.count == 1)
    #expect(
      sent[0]
        == SimulatedUserPool.SentMessage(
          username: "user", medium: "SMS", destination: "+1***0100", code: sent[0].code, operation: "InitiateAuth",
          time: Self.time))
    #expect(sent[0].destination == first["ChallengeParameters"]?.object?["CODE_DELIVERY_DESTINATION"]?.string)
    #expect(sent[0].code.count == 6 && sent[0].code.allSatisfy(\.isNumber))
    #expect(sent[0].code != SimulatedUserPool.code)
    let code = sent[0].code
    let wrong = code == "000000" ? "000001" : "000000"
    #expect(
      await Self.errorType { try await Self.respond(pool, first, ["SMS_MFA_CODE": wrong]) } == "CodeMismatchException")
    #expect(
      await Self.errorType { try await Self.respond(pool, first, ["SMS_MFA_CODE": "123456"]) }
        == "CodeMismatchException")
    let done = try await Self.respond(pool, first, ["SMS_MFA_CODE": code])
    #expect(done["AuthenticationResult"] != nil)

    let second = try await Self.initiate(pool)
    let again = await pool.messages(for: "user")
    try #require(again.count == 2)
    #expect(again[1].code != code)
    #expect(
      await Self.errorType { try await Self.respond(pool, second, ["SMS_MFA_CODE": code]) } == "ExpiredCodeException")
    #expect(try await Self.respond(pool, second, ["SMS_MFA_CODE": again[1].code])["AuthenticationResult"] != nil)
    #expect(await pool.messages(for: "someone else").isEmpty)
  }

  @Test("the outbox keeps the last codes up to its limit, oldest dropped first")
  func outboxLimit() async throws {
    let pool = SimulatedUserPool(
      configuration: Self.sms, seed: 1, codes: .generated(clock: { Self.time }), outboxLimit: 2)
    var codes: [String] = []
    for _ in 0..<3 {
      let challenge = try await Self.initiate(pool)
      codes.append(try #require(await pool.messages(for: "user").last).code)
      #expect(challenge["ChallengeName"]?.string == "SMS_MFA")
    }
    #expect(await pool.messages(for: "user").map(\.code) == Array(codes.suffix(2)))
  }

  @Test("email codes go to the outbox masked as the challenge shows them, with the operation that sent them")
  func emailOutbox() async throws {
    let pool = Self.pool(["pool.mfa": "required", "pool.email": "true", "user.email": "true"])
    let challenge = try await Self.initiate(pool)
    #expect(challenge["ChallengeName"]?.string == "EMAIL_OTP")
    let sent = await pool.messages(for: "user")
    #expect(sent.map(\.medium) == ["EMAIL"])
    #expect(sent.map(\.destination) == ["u***@e***"])
    #expect(sent.map(\.operation) == ["InitiateAuth"])
    #expect(try await Self.respond(pool, challenge, ["EMAIL_OTP_CODE": sent[0].code])["AuthenticationResult"] != nil)
  }

  @Test("a first-factor SMS code (USER_AUTH's SMS_OTP) is masked as its challenge shows it, and signs in once")
  func firstFactorOutbox() async throws {
    let pool = Self.pool(["pool.allowSmsOTP": "true", "user.phone": "true"])
    let challenge = try await pool.send(
      "InitiateAuth",
      [
        "AuthFlow": .string("USER_AUTH"), "ClientId": .string("c"),
        "AuthParameters": .object(["USERNAME": .string("user"), "PREFERRED_CHALLENGE": .string("SMS_OTP")]),
      ])
    #expect(challenge["ChallengeName"]?.string == "SMS_OTP")
    let sent = await pool.messages(for: "user")
    #expect(sent.map(\.destination) == ["x***"])
    #expect(sent.map(\.destination) == [challenge["ChallengeParameters"]?.object?["CODE_DELIVERY_DESTINATION"]?.string])
    let code = try #require(sent.first?.code)
    #expect(try await Self.respond(pool, challenge, ["SMS_OTP_CODE": code])["AuthenticationResult"] != nil)
    #expect(
      await Self.errorType { try await Self.respond(pool, challenge, ["SMS_OTP_CODE": code]) }
        == "NotAuthorizedException")
  }

  @Test("the same seed draws the same codes and secret; the default (fixed) pool still takes 123456")
  func seededAndFixed() async throws {
    let a = Self.pool(Self.sms, seed: 7)
    let b = Self.pool(Self.sms, seed: 7)
    _ = try await Self.initiate(a)
    _ = try await Self.initiate(b)
    #expect(await a.messages(for: "user").map(\.code) == b.messages(for: "user").map(\.code))
    #expect(a.totpSecret == b.totpSecret)
    #expect(a.totpSecret != SimulatedUserPool.secretCode)

    let fixed = SimulatedUserPool(configuration: Self.sms)
    #expect(fixed.totpSecret == SimulatedUserPool.secretCode)
    let challenge = try await Self.initiate(fixed)
    #expect(await fixed.messages(for: "user").map(\.code) == [SimulatedUserPool.code])
    #expect(
      await Self.errorType { try await Self.respond(fixed, challenge, ["SMS_MFA_CODE": SimulatedUserPool.usedCode]) }
        == "ExpiredCodeException")
    #expect(try await Self.respond(fixed, challenge, ["SMS_MFA_CODE": "123456"])["AuthenticationResult"] != nil)
  }

  @Test("SOFTWARE_TOKEN_MFA checks RFC 6238 at the pool's clock, one step either side; a used step is expired")
  func totpAnswer() async throws {
    let pool = Self.pool(Self.totp)
    let secret = pool.totpSecret
    let now = Self.time.timeIntervalSince1970
    let challenge = try await Self.initiate(pool)
    #expect(challenge["ChallengeName"]?.string == "SOFTWARE_TOKEN_MFA")
    let far = try #require(OneTimePassword.code(secret: secret, time: now + 60))
    #expect(
      await Self.errorType { try await Self.respond(pool, challenge, ["SOFTWARE_TOKEN_MFA_CODE": far]) }
        == "CodeMismatchException")
    let previous = try #require(OneTimePassword.code(secret: secret, time: now - 30))
    #expect(
      try await Self.respond(pool, challenge, ["SOFTWARE_TOKEN_MFA_CODE": previous])["AuthenticationResult"] != nil)

    let next = try await Self.initiate(pool)
    #expect(
      await Self.errorType { try await Self.respond(pool, next, ["SOFTWARE_TOKEN_MFA_CODE": previous]) }
        == "ExpiredCodeException")
    let current = try #require(OneTimePassword.code(secret: secret, time: now))
    #expect(try await Self.respond(pool, next, ["SOFTWARE_TOKEN_MFA_CODE": current])["AuthenticationResult"] != nil)
    #expect(await pool.messages(for: "user").isEmpty)
  }

  @Test("TOTP setup: AssociateSoftwareToken draws a secret, and only its code verifies")
  func totpSetup() async throws {
    let pool = Self.pool(Self.setup)
    let challenge = try await Self.initiate(pool)
    #expect(challenge["ChallengeName"]?.string == "MFA_SETUP")
    let associated = try await pool.send("AssociateSoftwareToken", ["Session": challenge["Session"] ?? .null])
    let secret = try #require(associated["SecretCode"]?.string)
    #expect(secret != SimulatedUserPool.secretCode && secret != pool.totpSecret)
    #expect(OneTimePassword.base32Decode(secret)?.count == 20)
    let now = Self.time.timeIntervalSince1970
    let registered = try #require(OneTimePassword.code(secret: pool.totpSecret, time: now))
    #expect(
      await Self.errorType {
        try await pool.send(
          "VerifySoftwareToken", ["Session": associated["Session"] ?? .null, "UserCode": .string(registered)])
      } == "EnableSoftwareTokenMFAException")
    let code = try #require(OneTimePassword.code(secret: secret, time: now))
    let verified = try await pool.send(
      "VerifySoftwareToken", ["Session": associated["Session"] ?? .null, "UserCode": .string(code)])
    #expect(verified["Status"]?.string == "SUCCESS")
    let done = try await Self.respond(
      pool, ["ChallengeName": .string("MFA_SETUP"), "Session": verified["Session"] ?? .null], [:])
    #expect(done["AuthenticationResult"] != nil)
  }

  // MARK: - The control endpoints over HTTP

  /// Sends `method` to `path` (with its query) on `server` and returns the status and JSON body.
  static func call(
    _ server: CognitoServer, _ method: String, _ path: String, body: String? = nil, target: String? = nil
  ) async throws -> (status: Int, json: JSONObject?) {
    let url = try #require(URL(string: path, relativeTo: server.endpoint))
    var request = URLRequest(url: url, timeoutInterval: hangGuard)
    request.httpMethod = method
    // A fresh connection each time: with kept-alive connections this test took 60 s (URLSession
    // waited on the reset connection) instead of 0.07 s.
    request.setValue("close", forHTTPHeaderField: "Connection")
    if let body { request.httpBody = Data(body.utf8) }
    if let target {
      request.setValue("AWSCognitoIdentityProviderService.\(target)", forHTTPHeaderField: "X-Amz-Target")
      request.setValue("application/x-amz-json-1.1", forHTTPHeaderField: "Content-Type")
    }
    let answer = try await send(request)
    return (answer.status, answer.json)
  }

  static func withServer(
    _ settings: [String: String], _ body: (CognitoServer, SimulatedUserPool) async throws -> Void
  ) async throws {
    try await servingService(settings, time: Self.time) { server, _, user in try await body(server, user) }
  }

  static let signIn =
    #"{"AuthFlow":"USER_PASSWORD_AUTH","ClientId":"signinspecsimulatedclient","AuthParameters":{"USERNAME":"user","PASSWORD":"Passw0rd!"}}"#

  @Test("GET /_signin-spec/messages lists the codes sent to the user, oldest first; other paths are a JSON 404")
  func messagesEndpoint() async throws {
    try await Self.withServer(Self.sms) { server, pool in
      let empty = try await Self.call(server, "GET", "/_signin-spec/messages?username=user")
      #expect(empty.status == 200)
      #expect(empty.json?["messages"]?.array?.isEmpty == true)
      for _ in 0..<2 {
        #expect(try await Self.call(server, "POST", "/", body: Self.signIn, target: "InitiateAuth").status == 200)
      }
      let listed = try await Self.call(server, "GET", "/_signin-spec/messages?username=user")
      let messages = try #require(listed.json?["messages"]?.array)
      let codes = await pool.messages(for: "user").map(\.code)
      #expect(messages.compactMap { $0.object?["code"]?.string } == codes)
      #expect(
        messages.first?.object
          == [
            "username": .string("user"), "medium": .string("SMS"), "destination": .string("+1***0100"),
            "code": .string(codes[0]), "operation": .string("InitiateAuth"),
            "time": .string("2026-01-01T00:00:00.000Z"),
          ])
      let other = try await Self.call(server, "GET", "/_signin-spec/messages?username=nobody")
      #expect(other.json?["messages"]?.array?.isEmpty == true)
      let missing = try await Self.call(server, "GET", "/_signin-spec/messages")
      #expect(missing.status == 400)
      #expect(missing.json?["field"]?.string == "username")
      let unknown = try await Self.call(server, "GET", "/_signin-spec/nothing")
      #expect(unknown.status == 404)
      #expect(unknown.json?["error"]?.string?.contains("/_signin-spec/nothing") == true)
    }
  }

  @Test("POST /_signin-spec/faults: the next count requests of the operation fail that way, then it serves again")
  func faultsEndpoint() async throws {
    try await Self.withServer([:]) { server, _ in
      let inject = #"{"username":"user","operation":"InitiateAuth","fault":"status500","count":2}"#
      #expect(try await Self.call(server, "POST", "/_signin-spec/faults", body: inject).status == 200)
      for _ in 0..<2 {
        #expect(try await Self.call(server, "POST", "/", body: Self.signIn, target: "InitiateAuth").status == 500)
      }
      #expect(try await Self.call(server, "POST", "/", body: Self.signIn, target: "InitiateAuth").status == 200)

      let error = #"{"username":"user","operation":"InitiateAuth","fault":"error","error":"TooManyRequestsException"}"#
      #expect(try await Self.call(server, "POST", "/_signin-spec/faults", body: error).status == 200)
      let refused = try await Self.call(server, "POST", "/", body: Self.signIn, target: "InitiateAuth")
      #expect(refused.status == 400)
      #expect(refused.json?["__type"]?.string == "TooManyRequestsException")

      let unreadable = #"{"username":"user","operation":"InitiateAuth","fault":"unreadable"}"#
      #expect(try await Self.call(server, "POST", "/_signin-spec/faults", body: unreadable).status == 200)
      let garbled = try await Self.call(server, "POST", "/", body: Self.signIn, target: "InitiateAuth")
      #expect(garbled.status == 200 && garbled.json == nil)

      let reset = #"{"username":"user","operation":"InitiateAuth","fault":"reset"}"#
      #expect(try await Self.call(server, "POST", "/_signin-spec/faults", body: reset).status == 200)
      await #expect(throws: (any Error).self) {
        _ = try await Self.call(server, "POST", "/", body: Self.signIn, target: "InitiateAuth")
      }
      #expect(try await Self.call(server, "POST", "/", body: Self.signIn, target: "InitiateAuth").status == 200)
    }
  }

  @Test(
    "a bad fault body is a 400 naming the field",
    arguments: [
      (#"[1]"#, nil),
      (#"{"operation":"InitiateAuth","fault":"reset"}"#, "username"),
      (#"{"username":"other","operation":"InitiateAuth","fault":"reset"}"#, "username"),
      (#"{"username":"user","operation":"SignUp","fault":"reset"}"#, "operation"),
      (#"{"username":"user","operation":"InitiateAuth","fault":"slow"}"#, "fault"),
      (#"{"username":"user","operation":"InitiateAuth","fault":"error"}"#, "error"),
      (#"{"username":"user","operation":"InitiateAuth","fault":"error","error":"NoSuchException"}"#, "error"),
      (#"{"username":"user","operation":"InitiateAuth","fault":"reset","count":0}"#, "count"),
      (#"{"username":"user","operation":"InitiateAuth","fault":"reset","count":"2"}"#, "count"),
    ] as [(String, String?)])
  func badFaultBody(_ body: String, _ field: String?) async throws {
    try await Self.withServer([:]) { server, _ in
      let answer = try await Self.call(server, "POST", "/_signin-spec/faults", body: body)
      #expect(answer.status == 400)
      #expect(answer.json?["field"]?.string == field)
      #expect(answer.json?["error"]?.string != nil)
      #expect(try await Self.call(server, "POST", "/", body: Self.signIn, target: "InitiateAuth").status == 200)
    }
  }
}
