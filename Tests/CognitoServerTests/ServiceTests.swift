import CognitoServer
import CognitoWire
import Foundation
import SignInClient
import SimulatedCognito
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The pools and users behind `signin-spec serve`: many flows at once, each user's sessions
/// their own, state kept as Cognito keeps it.
@Suite("Pools and users over HTTP")
struct ServiceTests {
  static let sms = ["pool.mfa": "required", "pool.sms": "true", "user.phone": "true"]
  static let clientId = SimulatedService.firstClientId

  /// POSTs one Cognito operation on a connection of `session` (several connections share the load).
  static func call(_ server: CognitoServer, _ session: URLSession, _ operation: String, _ body: JSONObject)
    async throws -> HTTPAnswer
  {
    var request = URLRequest(url: server.endpoint, timeoutInterval: hangGuard)
    request.httpMethod = "POST"
    request.setValue("application/x-amz-json-1.1", forHTTPHeaderField: "Content-Type")
    request.setValue("AWSCognitoIdentityProviderService.\(operation)", forHTTPHeaderField: "X-Amz-Target")
    request.httpBody = try JSONEncoder().encode(JSONValue.object(body))
    let (data, status): (Data, Int) = try await withCheckedThrowingContinuation { continuation in
      session.dataTask(with: request) { data, response, error in
        if let error {
          continuation.resume(throwing: error)
        } else {
          continuation.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
        }
      }.resume()
    }
    return HTTPAnswer(
      status: status, headers: [:], json: (try? JSONDecoder().decode(JSONValue.self, from: data))?.object)
  }

  static func initiate(_ username: String, _ password: String) -> JSONObject {
    [
      "AuthFlow": .string("USER_PASSWORD_AUTH"), "ClientId": .string(clientId),
      "AuthParameters": .object(["USERNAME": .string(username), "PASSWORD": .string(password)]),
    ]
  }

  static func answer(_ session: JSONValue?, _ username: String, _ code: String) -> JSONObject {
    [
      "ChallengeName": .string("SMS_MFA"), "ClientId": .string(clientId), "Session": session ?? .null,
      "ChallengeResponses": .object(["USERNAME": .string(username), "SMS_MFA_CODE": .string(code)]),
    ]
  }

  @Test("200 sign-ins in flight at once over 8 connections keep their sessions and codes apart")
  func concurrentSessions() async throws {
    try await servingService(Self.sms) { server, service, _ in
      let users = (0..<200).map { "user\($0)" }
      for name in users {
        _ = try await service.putUser(
          poolId: nil, user: .init(username: name, password: "Pw-\(name)"), configuration: Self.sms)
      }
      let configuration = URLSessionConfiguration.ephemeral
      configuration.httpMaximumConnectionsPerHost = 8
      let connections = URLSession(configuration: configuration)
      // Every flow opens before any is answered: 200 sessions are open at once.
      let challenges = try await withThrowingTaskGroup(of: (String, JSONObject).self) { group in
        for name in users {
          group.addTask {
            (
              name,
              try #require(
                try await Self.call(server, connections, "InitiateAuth", Self.initiate(name, "Pw-\(name)")).json)
            )
          }
        }
        var all: [String: JSONObject] = [:]
        for try await (name, challenge) in group { all[name] = challenge }
        return all
      }
      #expect(Set(challenges.values.compactMap { $0["Session"]?.string }).count == 200)
      let results = try await withThrowingTaskGroup(of: (String, Int, Int, Int).self) { group in
        for name in users {
          group.addTask {
            let session = challenges[name]?["Session"]
            let code = try #require(await service.messages(for: name).last?.code)
            let other = name == "user0" ? "user1" : "user0"
            let stolen = try await Self.call(
              server, connections, "RespondToAuthChallenge", Self.answer(session, other, code))
            let done = try await Self.call(
              server, connections, "RespondToAuthChallenge", Self.answer(session, name, code))
            let again = try await Self.call(
              server, connections, "RespondToAuthChallenge", Self.answer(session, name, code))
            #expect(done.json?["AuthenticationResult"] != nil, "\(name): \(String(describing: done.json))")
            #expect(stolen.json?["__type"]?.string == "NotAuthorizedException")
            #expect(again.json?["__type"]?.string == "NotAuthorizedException")
            return (name, stolen.status, done.status, again.status)
          }
        }
        var all: [(String, Int, Int, Int)] = []
        for try await result in group { all.append(result) }
        return all
      }
      #expect(results.count == 200)
      #expect(results.allSatisfy { $0.1 == 400 && $0.2 == 200 && $0.3 == 400 })
      connections.invalidateAndCancel()
    }
  }

  @Test("a new password stays: the next sign-in takes it and refuses the temporary one")
  func newPasswordPersists() async throws {
    try await servingService(["user.status": "forceChangePassword"]) { server, _, _ in
      let http = URLSession(configuration: .ephemeral)
      let first = try #require(
        try await Self.call(server, http, "InitiateAuth", Self.initiate("user", "Passw0rd!")).json)
      #expect(first["ChallengeName"]?.string == "NEW_PASSWORD_REQUIRED")
      let changed = try await Self.call(
        server, http, "RespondToAuthChallenge",
        [
          "ChallengeName": .string("NEW_PASSWORD_REQUIRED"), "ClientId": .string(Self.clientId),
          "Session": first["Session"] ?? .null,
          "ChallengeResponses": .object(["USERNAME": .string("user"), "NEW_PASSWORD": .string("Brand-new-1")]),
        ])
      #expect(changed.json?["AuthenticationResult"] != nil)
      let old = try await Self.call(server, http, "InitiateAuth", Self.initiate("user", "Passw0rd!"))
      #expect(old.json?["__type"]?.string == "NotAuthorizedException")
      let new = try await Self.call(server, http, "InitiateAuth", Self.initiate("user", "Brand-new-1"))
      #expect(new.json?["AuthenticationResult"] != nil)
    }
  }

  @Test("an unknown ClientId is ResourceNotFoundException; a missing USERNAME is InvalidParameterException")
  func routingErrors() async throws {
    try await servingService([:]) { server, _, _ in
      let http = URLSession(configuration: .ephemeral)
      var request = Self.initiate("user", "Passw0rd!")
      request["ClientId"] = .string("nosuchclient")
      #expect(
        try await Self.call(server, http, "InitiateAuth", request).json?["__type"]?.string
          == "ResourceNotFoundException")
      request = Self.initiate("user", "Passw0rd!")
      request["AuthParameters"] = .object(["PASSWORD": .string("Passw0rd!")])
      #expect(
        try await Self.call(server, http, "InitiateAuth", request).json?["__type"]?.string
          == "InvalidParameterException")
      let getUser = try await Self.call(server, http, "GetUser", ["AccessToken": .string("forged")])
      #expect(getUser.json?["__type"]?.string == "NotAuthorizedException")
    }
  }
}

/// Requests Cognito refuses by their shape, and the passkey test mode.
@Suite("Request shapes and passkeys over HTTP")
struct ShapeAndPasskeyTests {
  static func type(_ answer: HTTPAnswer) -> String? { answer.json?["__type"]?.string }
  static func message(_ answer: HTTPAnswer) -> String { answer.json?["message"]?.string ?? "" }

  @Test(
    "a field outside Cognito's shape is InvalidParameterException naming it; a wrong JSON type is SerializationException"
  )
  func shapes() async throws {
    try await servingService(["pool.mfa": "required", "pool.sms": "true", "user.phone": "true"]) { server, _, _ in
      let http = URLSession(configuration: .ephemeral)
      let challenge = try #require(
        try await ServiceTests.call(server, http, "InitiateAuth", ServiceTests.initiate("user", "Passw0rd!")).json)
      var short = ServiceTests.answer(.string("tooshort"), "user", "123456")
      let tooShort = try await ServiceTests.call(server, http, "RespondToAuthChallenge", short)
      #expect(Self.type(tooShort) == "InvalidParameterException")
      #expect(
        Self.message(tooShort).contains(
          "'session' failed to satisfy constraint: Member must have length greater than or equal to 20"))
      short = ServiceTests.answer(challenge["Session"], "user", "123456")
      short["ChallengeName"] = nil
      let missing = try await ServiceTests.call(server, http, "RespondToAuthChallenge", short)
      #expect(Self.message(missing).contains("Value null at 'challengeName'"))
      var flow = ServiceTests.initiate("user", "Passw0rd!")
      flow["AuthFlow"] = .string("MAGIC_AUTH")
      let unknownFlow = try await ServiceTests.call(server, http, "InitiateAuth", flow)
      #expect(Self.type(unknownFlow) == "InvalidParameterException")
      #expect(Self.message(unknownFlow).contains("enum value set"))
      flow = ServiceTests.initiate("user", "Passw0rd!")
      flow["ClientId"] = .string("no spaces allowed")
      #expect(Self.message(try await ServiceTests.call(server, http, "InitiateAuth", flow)).contains("pattern"))
      flow["ClientId"] = .number(7)
      #expect(Self.type(try await ServiceTests.call(server, http, "InitiateAuth", flow)) == "SerializationException")
      flow = ServiceTests.initiate("user", "Passw0rd!")
      flow["AuthParameters"] = .object(["USERNAME": .array([])])
      #expect(Self.type(try await ServiceTests.call(server, http, "InitiateAuth", flow)) == "SerializationException")
    }
  }

  @Test("WEB_AUTHN test mode: the credential's id and clientDataJSON challenge sign in; another id does not")
  func passkey() async throws {
    let settings = ["pool.allowWebAuthn": "true", "user.passkey": "true"]
    try await servingService(settings) { server, _, user in
      let http = URLSession(configuration: .ephemeral)
      func start() async throws -> (session: JSONValue?, challenge: String) {
        let body: JSONObject = [
          "AuthFlow": .string("USER_AUTH"), "ClientId": .string(ServiceTests.clientId),
          "AuthParameters": .object(["USERNAME": .string("user"), "PREFERRED_CHALLENGE": .string("WEB_AUTHN")]),
        ]
        let answer = try #require(try await ServiceTests.call(server, http, "InitiateAuth", body).json)
        #expect(answer["ChallengeName"]?.string == "WEB_AUTHN")
        let options = try #require(answer["ChallengeParameters"]?.object?["CREDENTIAL_REQUEST_OPTIONS"]?.string)
        let parsed = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(options.utf8)).object)
        #expect(parsed["allowCredentials"]?.array?.first?.object?["id"]?.string == user.passkeyCredentialId)
        return (answer["Session"], try #require(parsed["challenge"]?.string))
      }
      func credential(id: String, challenge: String) throws -> String {
        let clientData = try JSONEncoder().encode(
          JSONValue.object(["type": .string("webauthn.get"), "challenge": .string(challenge)]))
        let encoded = clientData.base64EncodedString().replacingOccurrences(of: "+", with: "-")
          .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let value = JSONValue.object([
          "id": .string(id), "type": .string("public-key"),
          "response": .object(["clientDataJSON": .string(encoded)]),
        ])
        return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
      }
      func respond(_ session: JSONValue?, _ text: String) async throws -> HTTPAnswer {
        try await ServiceTests.call(
          server, http, "RespondToAuthChallenge",
          [
            "ChallengeName": .string("WEB_AUTHN"), "ClientId": .string(ServiceTests.clientId),
            "Session": session ?? .null,
            "ChallengeResponses": .object(["USERNAME": .string("user"), "CREDENTIAL": .string(text)]),
          ])
      }
      let first = try await start()
      let wrong = try await respond(first.session, try credential(id: "someone-else", challenge: first.challenge))
      #expect(Self.type(wrong) == "NotAuthorizedException")
      let second = try await start()
      let right = try await respond(
        second.session, try credential(id: user.passkeyCredentialId, challenge: second.challenge))
      #expect(right.json?["AuthenticationResult"] != nil)
    }
  }
}

/// The reference client against the pools behind `serve`, with signed tokens: it confirms the
/// device Cognito issues, and its next sign-in passes the device challenges.
@Suite("The reference client and remembered devices over HTTP")
struct DeviceOverHTTPTests {
  static let key = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/signing-key.pem")

  static func client(_ server: CognitoServer) -> SignInClient {
    SignInClient(
      backend: HTTPCognitoBackend(endpoint: server.endpoint, timeout: hangGuard),
      clientId: SimulatedService.firstClientId, userPoolId: SimulatedService.firstPoolId)
  }

  @Test("a confirmed device signs in by device SRP; where the pool says so it replaces the SMS code")
  func rememberedDevice() async throws {
    let pem = try String(contentsOf: Self.key, encoding: .utf8)
    let time = Date()
    let minter = try await JWTMinter(privateKeyPEM: pem, clock: { time })
    let settings = [
      "pool.mfa": "required", "pool.sms": "true", "user.phone": "true", "pool.deviceTracking": "always",
      "pool.deviceSuppressesMfa": "true",
    ]
    try await servingService(settings, time: time, minter: minter) { server, service, _ in
      await minter.setEndpoint(String(server.endpoint.absoluteString.dropLast()))
      let client = Self.client(server)
      let first = try await client.signIn(
        username: "user", password: "Passw0rd!", options: SignInOptions(authFlow: .userSRP))
      #expect(first.nextStep.name == "confirmSignInWithSMSMFACode")
      let code = try #require(await service.messages(for: "user").last?.code)
      #expect(try await client.confirmSignIn(challengeResponse: code).nextStep.name == "done")
      let device = try #require(await client.rememberedDevice(for: "user"))
      #expect(device.key.hasPrefix("us-east-1_"))

      await client.signOut()
      let again = try await client.signIn(
        username: "user", password: "Passw0rd!", options: SignInOptions(authFlow: .userSRP))
      #expect(again.nextStep.name == "done")
      #expect(await service.messages(for: "user").count == 1)

    }
  }
}
