import CognitoWire
import Foundation
import SignInClient
import Testing

/// Bad input and faults: each gives a typed error with a clear message, no secret leaks,
/// and afterwards a new signIn always works.
@Suite("Client behaviour on bad input and faults")
struct ClientBehaviourTests {
  static let smsChallenge: JSONObject = [
    "ChallengeName": .string("SMS_MFA"), "Session": .string("session-SECRET-1"),
    "ChallengeParameters": .object([
      "CODE_DELIVERY_DESTINATION": .string("+1***0100"), "CODE_DELIVERY_DELIVERY_MEDIUM": .string("SMS"),
    ]),
  ]
  static let tokens: JSONObject = ["AuthenticationResult": .object(["AccessToken": .string("t")])]

  static func client(_ script: [ScriptedBackend.Answer]) -> (SignInClient, ScriptedBackend) {
    let backend = ScriptedBackend(script)
    return (SignInClient(backend: backend, clientId: "c", userPoolId: "us-east-1_pool"), backend)
  }

  @Test("confirmSignIn with no sign-in in progress is an invalid state")
  func confirmWithoutFlow() async {
    let (client, _) = Self.client([])
    await #expect(throws: AuthError.invalidState("No sign-in is in progress; call signIn first")) {
      try await client.confirmSignIn(challengeResponse: "123456")
    }
  }

  @Test("a wrong code keeps the step and the session; the right code then signs in")
  func wrongCodeRetried() async throws {
    let (client, backend) = Self.client([
      .init(operation: "InitiateAuth", result: .success(Self.smsChallenge)),
      .init(
        operation: "RespondToAuthChallenge",
        result: .failure(.service(type: "CodeMismatchException", message: "Invalid code"))),
      .init(operation: "RespondToAuthChallenge", result: .success(Self.tokens)),
    ])
    let first = try await client.signIn(
      username: "u", password: "pw-SECRET", options: SignInOptions(authFlow: .userPassword))
    #expect(
      first.nextStep
        == .confirmSignInWithSMSMFACode(AuthCodeDeliveryDetails(destination: "+1***0100", medium: .sms), nil))
    await #expect(throws: AuthError.codeMismatch) { try await client.confirmSignIn(challengeResponse: "000000") }
    #expect(try await client.confirmSignIn(challengeResponse: "123456").isSignedIn)
    let sessions = await backend.requests.dropFirst().map { $0.body["Session"]?.string }
    #expect(sessions == ["session-SECRET-1", "session-SECRET-1"], "the retry re-sends the same session")
  }

  @Test("a network fault keeps the step; the answer can be sent again")
  func networkFault() async throws {
    let (client, _) = Self.client([
      .init(operation: "InitiateAuth", result: .success(Self.smsChallenge)),
      .init(operation: "RespondToAuthChallenge", result: .failure(.network("connection reset"))),
      .init(operation: "RespondToAuthChallenge", result: .success(Self.tokens)),
    ])
    _ = try await client.signIn(username: "u", password: "pw", options: SignInOptions(authFlow: .userPassword))
    await #expect(throws: AuthError.network("connection reset")) {
      try await client.confirmSignIn(challengeResponse: "123456")
    }
    #expect(try await client.confirmSignIn(challengeResponse: "123456").isSignedIn)
  }

  @Test("an unknown challenge from the server (a future enum value) is a typed error, and signIn works after it")
  func unknownChallenge() async throws {
    let (client, _) = Self.client([
      .init(
        operation: "InitiateAuth",
        result: .success(["ChallengeName": .string("PASSKEY_REGISTRATION"), "Session": .string("s")])),
      .init(operation: "InitiateAuth", result: .success(Self.tokens)),
    ])
    await #expect(throws: AuthError.unknownChallenge("PASSKEY_REGISTRATION")) {
      try await client.signIn(username: "u", password: "pw", options: SignInOptions(authFlow: .userPassword))
    }
    #expect(await client.currentStep == nil)
    #expect(
      try await client.signIn(username: "u", password: "pw", options: SignInOptions(authFlow: .userPassword)).isSignedIn
    )
  }

  @Test("a response with neither tokens nor a challenge is an invalid service response")
  func truncatedResponse() async throws {
    let (client, _) = Self.client([
      .init(operation: "InitiateAuth", result: .success(["Session": .string("s")])),
      .init(operation: "InitiateAuth", result: .failure(.malformed("the response body is not a JSON object"))),
    ])
    let options = SignInOptions(authFlow: .userPassword)
    await #expect(
      throws: AuthError.invalidServiceResponse("neither AuthenticationResult nor ChallengeName in the answer")
    ) {
      try await client.signIn(username: "u", password: "pw", options: options)
    }
    await #expect(throws: AuthError.invalidServiceResponse("the response body is not a JSON object")) {
      try await client.signIn(username: "u", password: "pw", options: options)
    }
  }

  @Test("passwords, codes and sessions never appear in errors")
  func noSecretsInErrors() async throws {
    let (client, _) = Self.client([
      .init(operation: "InitiateAuth", result: .success(Self.smsChallenge)),
      .init(
        operation: "RespondToAuthChallenge",
        result: .failure(
          .service(
            type: "NotAuthorizedException", message: "session session-SECRET-1 code 987654 password pw-SECRET rejected")
        )),
    ])
    _ = try await client.signIn(username: "u", password: "pw-SECRET", options: SignInOptions(authFlow: .userPassword))
    do {
      _ = try await client.confirmSignIn(challengeResponse: "987654")
      Issue.record("expected NotAuthorized")
    } catch {
      let text = "\(error) \(error.description)"
      for secret in ["session-SECRET-1", "987654", "pw-SECRET"] {
        #expect(!text.contains(secret), "\(secret) leaked: \(text)")
      }
      #expect(text.contains("[redacted]"))
    }
  }

  @Test("a secret inside a longer one leaves nothing of the longer one showing, in any set order")
  func nestedSecrets() async throws {
    let (client, _) = Self.client([
      .init(operation: "InitiateAuth", result: .success(Self.smsChallenge)),
      .init(
        operation: "RespondToAuthChallenge",
        result: .failure(.service(type: "NotAuthorizedException", message: "answer NewPassw0rd!9 rejected"))),
    ])
    _ = try await client.signIn(username: "u", password: "Passw0rd!", options: SignInOptions(authFlow: .userPassword))
    do {
      _ = try await client.confirmSignIn(challengeResponse: "NewPassw0rd!9")
      Issue.record("expected NotAuthorized")
    } catch {
      #expect(error.description.contains("answer [redacted] rejected"), "\(error.description)")
      #expect(!error.description.contains("New"), "\(error.description)")
    }
  }

  @Test("signIn during a sign-in cancels it and starts again")
  func restartDuringFlow() async throws {
    let (client, _) = Self.client([
      .init(operation: "InitiateAuth", result: .success(Self.smsChallenge)),
      .init(operation: "InitiateAuth", result: .success(Self.tokens)),
    ])
    let options = SignInOptions(authFlow: .userPassword)
    _ = try await client.signIn(username: "u", password: "pw", options: options)
    #expect(try await client.signIn(username: "u", password: "pw", options: options).isSignedIn)
  }

  @Test("MFA setup offering only SMS is an error, as in every Amplify client, and the flow ends")
  func smsOnlySetup() async throws {
    let (client, _) = Self.client([
      .init(
        operation: "InitiateAuth",
        result: .success([
          "ChallengeName": .string("MFA_SETUP"), "Session": .string("s"),
          "ChallengeParameters": .object(["MFAS_CAN_SETUP": .string("[\"SMS_MFA\"]")]),
        ]))
    ])
    await #expect(
      throws: AuthError.invalidServiceResponse("Cannot initiate MFA setup from available types: [\"SMS_MFA\"]")
    ) {
      try await client.signIn(username: "u", password: "pw", options: SignInOptions(authFlow: .userPassword))
    }
    #expect(await client.currentStep == nil)
  }

  /// A local HTTP server that answers 500 with a text body, or never answers.
  static func fakeServer(_ behaviour: String) throws -> (Process, Int) {
    let port = try MotoServer.freePort()
    let script =
      behaviour == "500"
      ? "import http.server as h\nclass H(h.BaseHTTPRequestHandler):\n def do_POST(s):\n  s.send_response(500); s.end_headers(); s.wfile.write(b'oops')\n def log_message(s,*a): pass\nh.HTTPServer(('127.0.0.1',\(port)),H).serve_forever()"
      : "import socket,time\ns=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1',\(port))); s.listen()\nc=[]\nwhile True: c.append(s.accept())"
    let p = Process()
    p.executableURL = URL(fileURLWithPath: try MotoServer.python())
    p.arguments = ["-c", script]
    try p.run()
    // Wait until the server accepts connections (up to 30 s), not for a fixed time.
    _ = try MotoServer.pythonOutput(
      "import socket,time\nfor i in range(600):\n try:\n  socket.create_connection(('127.0.0.1',\(port)),1).close()\n"
        + "  break\n except OSError:\n  time.sleep(0.05)")
    return (p, port)
  }

  @Test("over HTTP: a 500 without an error body, a server that never answers, and nothing listening")
  func httpFaults() async throws {
    let (server, port) = try Self.fakeServer("500")
    defer { kill(server.processIdentifier, SIGKILL) }
    let client = SignInClient(
      backend: HTTPCognitoBackend(endpoint: URL(string: "http://127.0.0.1:\(port)/")!, timeout: 2),
      clientId: "c", userPoolId: "p_q")
    await #expect(throws: AuthError.invalidServiceResponse("HTTP status 500 without a Cognito error body")) {
      try await client.signIn(username: "u", password: "pw", options: SignInOptions(authFlow: .userPassword))
    }
    let (silent, silentPort) = try Self.fakeServer("silent")
    defer { kill(silent.processIdentifier, SIGKILL) }
    let slow = SignInClient(
      backend: HTTPCognitoBackend(endpoint: URL(string: "http://127.0.0.1:\(silentPort)/")!, timeout: 1),
      clientId: "c", userPoolId: "p_q")
    do {
      _ = try await slow.signIn(username: "u", password: "pw", options: SignInOptions(authFlow: .userPassword))
      Issue.record("expected a timeout")
    } catch {
      guard case .network = error else {
        Issue.record("expected a network error, got \(error)")
        return
      }
    }
    let closed = SignInClient(
      backend: HTTPCognitoBackend(endpoint: URL(string: "http://127.0.0.1:\(try MotoServer.freePort())/")!, timeout: 2),
      clientId: "c", userPoolId: "p_q")
    do {
      _ = try await closed.signIn(username: "u", password: "pw", options: SignInOptions(authFlow: .userPassword))
      Issue.record("expected a network error")
    } catch {
      guard case .network = error else {
        Issue.record("expected a network error, got \(error)")
        return
      }
    }
  }
}
