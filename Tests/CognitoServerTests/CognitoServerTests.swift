import CognitoServer
import CognitoWire
import Foundation
import SignInClient
import SimulatedCognito
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `signin-spec serve`'s server: the simulated pool behind Cognito's JSON 1.1 protocol on
/// HTTP/1.1. The reference client signs in through `HTTPCognitoBackend` exactly as it would
/// against Cognito; requests Cognito refuses get Cognito's error body, and the server goes on.
@Suite("Cognito sign-in over HTTP")
struct CognitoServerTests {
  static let sms = [
    "pool.mfa": "optional", "pool.sms": "true", "user.phone": "true", "user.smsEnabled": "true",
  ]

  /// Runs `body` with a server in front of a pool configured with `settings`.
  static func withServer(
    _ settings: [String: String] = [:], maxBodyBytes: Int = CognitoServer.defaultMaxBodyBytes,
    _ body: (CognitoServer, SimulatedUserPool) async throws -> Void
  ) async throws {
    try await serving(
      SimulatedUserPool(configuration: settings), maxBodyBytes: maxBodyBytes, body)
  }

  /// The reference client on `server`, with a fixed SRP secret so runs repeat.
  static func client(_ server: CognitoServer) -> SignInClient {
    SignInClient(
      backend: HTTPCognitoBackend(endpoint: server.endpoint, timeout: hangGuard), clientId: "c",
      userPoolId: SimulatedUserPool.poolId,
      random: { _ in [UInt8](repeating: 7, count: 32) })
  }

  /// Signs in with the right password and returns the steps shown: after signIn, then after
  /// each answer.
  static func signIn(_ server: CognitoServer, flow: AuthFlowType, answers: [String] = []) async throws -> [String] {
    let client = client(server)
    var steps = [
      try await client.signIn(
        username: SimulatedUserPool.username, password: SimulatedUserPool.password,
        options: SignInOptions(authFlow: flow)
      ).nextStep.name
    ]
    for answer in answers {
      steps.append(try await client.confirmSignIn(challengeResponse: answer).nextStep.name)
    }
    return steps
  }

  /// POSTs `body` to the server with `target` (nil: no X-Amz-Target header).
  static func post(_ server: CognitoServer, target: String?, body: Data) async throws -> HTTPAnswer {
    var request = URLRequest(url: server.endpoint, timeoutInterval: hangGuard)
    request.httpMethod = "POST"
    request.setValue("application/x-amz-json-1.1", forHTTPHeaderField: "Content-Type")
    if let target { request.setValue(target, forHTTPHeaderField: "X-Amz-Target") }
    request.httpBody = body
    return try await send(request)
  }

  @Test("USER_PASSWORD_AUTH without MFA signs in with one InitiateAuth")
  func passwordWithoutMFA() async throws {
    try await Self.withServer { server, _ in
      let steps = try await Self.signIn(server, flow: .userPassword)
      #expect(steps == ["done"])
    }
  }

  @Test("USER_PASSWORD_AUTH with SMS MFA asks for the code, and 123456 signs in")
  func passwordWithSMS() async throws {
    try await Self.withServer(Self.sms) { server, _ in
      let steps = try await Self.signIn(server, flow: .userPassword, answers: [SimulatedUserPool.code])
      #expect(steps == ["confirmSignInWithSMSMFACode", "done"])
    }
  }

  @Test("USER_SRP_AUTH answers PASSWORD_VERIFIER over HTTP, and the client's claim signs in")
  func srp() async throws {
    try await Self.withServer { server, pool in
      let steps = try await Self.signIn(server, flow: .userSRP)
      #expect(steps == ["done"])
      #expect(await pool.lastChallengeParameters["SRP_B"] != nil)
    }
  }

  @Test("a wrong password is NotAuthorizedException through HTTP: __type, message and x-amzn-ErrorType")
  func wrongPassword() async throws {
    try await Self.withServer { server, _ in
      do {
        _ = try await Self.client(server).signIn(
          username: SimulatedUserPool.username, password: "Wr0ngPassword!",
          options: SignInOptions(authFlow: .userPassword))
        Issue.record("a wrong password signed in")
      } catch {
        guard case .notAuthorized(let message) = error as? AuthError else {
          Issue.record("not NotAuthorized: \(error)")
          return
        }
        #expect(message.hasPrefix("Incorrect username or password."))
      }
      let body =
        #"{"AuthFlow":"USER_PASSWORD_AUTH","ClientId":"c","AuthParameters":{"USERNAME":"user","PASSWORD":"x"}}"#
      let answer = try await Self.post(
        server, target: "AWSCognitoIdentityProviderService.InitiateAuth", body: Data(body.utf8))
      #expect(answer.status == 400)
      #expect(answer.json?["__type"] == .string("NotAuthorizedException"))
      #expect(answer.headers["x-amzn-errortype"] == "NotAuthorizedException:")
      #expect(answer.headers["content-type"] == "application/x-amz-json-1.1")
    }
  }

  @Test(
    "requests Cognito refuses get its error, and the server goes on serving",
    arguments: [
      ("malformed JSON", "AWSCognitoIdentityProviderService.InitiateAuth", #"{"AuthFlow": "#, "SerializationException"),
      (
        "a body that is not an object", "AWSCognitoIdentityProviderService.InitiateAuth", "[1, 2]",
        "SerializationException"
      ),
      ("an unknown target", "AWSCognitoIdentityProviderService.DeleteUserPool", "{}", "UnknownOperationException"),
      ("a target of another service", "DynamoDB_20120810.GetItem", "{}", "UnknownOperationException"),
    ])
  func refused(_ label: String, target: String, body: String, type: String) async throws {
    try await Self.withServer { server, _ in
      let answer = try await Self.post(server, target: target, body: Data(body.utf8))
      #expect(answer.status == 400, "\(label)")
      #expect(answer.json?["__type"] == .string(type), "\(label)")
      #expect(answer.headers["x-amzn-errortype"] == "\(type):", "\(label)")
      let steps = try await Self.signIn(server, flow: .userPassword)
      #expect(steps == ["done"])
    }
  }

  @Test("JSON nested 100,000 deep is SerializationException, not a crash, and the server goes on serving")
  func deepNesting() async throws {
    try await Self.withServer { server, _ in
      let body = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
      let answer = try await Self.post(
        server, target: "AWSCognitoIdentityProviderService.InitiateAuth", body: Data(body.utf8))
      #expect(answer.status == 400)
      #expect(answer.json?["__type"] == .string("SerializationException"))
      let steps = try await Self.signIn(server, flow: .userPassword)
      #expect(steps == ["done"])
    }
  }

  @Test("after stop() the server answers nothing: the next call is a network error")
  func stop() async throws {
    let server = try await CognitoServer.start(backend: SimulatedUserPool(configuration: [:]), port: 0)
    let backend = HTTPCognitoBackend(endpoint: server.endpoint, timeout: hangGuard)
    let request: JSONObject = [
      "AuthFlow": .string("USER_PASSWORD_AUTH"), "ClientId": .string("c"),
      "AuthParameters": .object(["USERNAME": .string("user"), "PASSWORD": .string(SimulatedUserPool.password)]),
    ]
    _ = try await backend.send("InitiateAuth", request)
    await server.stop()
    await #expect {
      _ = try await backend.send("InitiateAuth", request)
    } throws: { error in
      if case .network = error as? CognitoCallError { true } else { false }
    }
  }

  @Test("a request without X-Amz-Target is UnknownOperationException")
  func missingTarget() async throws {
    try await Self.withServer { server, _ in
      let answer = try await Self.post(server, target: nil, body: Data("{}".utf8))
      #expect(answer.status == 400)
      #expect(answer.json?["__type"] == .string("UnknownOperationException"))
    }
  }

  @Test("a body over the limit is HTTP 413 with a Cognito error, and the server goes on serving")
  func oversizedBody() async throws {
    try await Self.withServer(maxBodyBytes: 1024) { server, _ in
      let padding = String(repeating: "x", count: 4096)
      let body = #"{"AuthFlow":"USER_PASSWORD_AUTH","ClientId":"\#(padding)"}"#
      let answer = try await Self.post(
        server, target: "AWSCognitoIdentityProviderService.InitiateAuth", body: Data(body.utf8))
      #expect(answer.status == 413)
      #expect(answer.json?["__type"] == .string("RequestEntityTooLargeException"))
      let steps = try await Self.signIn(server, flow: .userPassword)
      #expect(steps == ["done"])
    }
  }

  @Test("the pool's faults: a network fault closes the connection, a server error is a 500 without a body")
  func faults() async throws {
    try await Self.withServer { server, pool in
      let backend = HTTPCognitoBackend(endpoint: server.endpoint, timeout: hangGuard)
      let request: JSONObject = [
        "AuthFlow": .string("USER_PASSWORD_AUTH"), "ClientId": .string("c"),
        "AuthParameters": .object(["USERNAME": .string("user"), "PASSWORD": .string(SimulatedUserPool.password)]),
      ]
      await pool.injectFault(.transport)
      await #expect {
        _ = try await backend.send("InitiateAuth", request)
      } throws: { error in
        if case .network = error as? CognitoCallError { true } else { false }
      }
      await pool.injectFault(.serverError)
      await #expect(throws: CognitoCallError.malformed("HTTP status 500 without a Cognito error body")) {
        _ = try await backend.send("InitiateAuth", request)
      }
      let steps = try await Self.signIn(server, flow: .userPassword)
      #expect(steps == ["done"])
    }
  }

  /// One call each: the pool holds one flow at a time (a new InitiateAuth ends the sessions
  /// before it), so sign-ins with a challenge would expire each other's sessions.
  @Test("50 sign-ins at once, at most 16 in flight, all succeed")
  func concurrentSignIns() async throws {
    try await Self.withServer { server, _ in
      let total = 50
      let width = 16
      let done = try await withThrowingTaskGroup(of: [String].self) { group in
        var started = 0
        var results: [[String]] = []
        while started < total {
          if started >= width, let steps = try await group.next() { results.append(steps) }
          group.addTask { try await Self.signIn(server, flow: .userPassword) }
          started += 1
        }
        while let steps = try await group.next() { results.append(steps) }
        return results
      }
      #expect(done.count == total)
      #expect(done.allSatisfy { $0 == ["done"] })
    }
  }
}
