import CognitoWire
import Foundation
import SignInClient
import SimulatedCognito
import Testing

/// The simulated pool's server side of SRP-6a, with the reference client: USER_SRP_AUTH (and
/// CUSTOM_AUTH with SRP_A, USER_AUTH's PASSWORD_SRP) answers PASSWORD_VERIFIER; a claim signed
/// with the right password goes on as a right password does in USER_PASSWORD_AUTH, anything
/// else is the wrong-password error. (Debug-build BigInt makes one exchange take seconds.)
@Suite("SRP on the simulated pool")
struct PoolSRPTests {
  static let sms = [
    "pool.mfa": "optional", "pool.sms": "true", "user.phone": "true", "user.smsEnabled": "true",
  ]
  static let totp = [
    "pool.mfa": "optional", "pool.totp": "true", "user.totpRegistered": "true", "user.totpEnabled": "true",
  ]

  /// A reference client on `pool`, with a fixed ephemeral secret (so runs repeat) of 256 bits:
  /// the client asks for 128 bytes, but a shorter `a` keeps debug-build BigInt quick.
  static func client(_ pool: any CognitoBackend) -> SignInClient {
    SignInClient(
      backend: pool, clientId: "c", userPoolId: SimulatedUserPool.poolId,
      random: { _ in [UInt8](repeating: 7, count: 32) })
  }

  /// A pool configured with `settings`, the flow `signIn` uses, the steps the client shows
  /// (the first after signIn, the others after each answer) and the answers it gives.
  struct Case: Sendable, CustomTestStringConvertible {
    let label: String
    let settings: [String: String]
    let flow: AuthFlowType
    let steps: [String]
    let answers: [String]
    var testDescription: String { label }
  }

  static let cases = [
    Case(label: "USER_SRP_AUTH, no MFA", settings: [:], flow: .userSRP, steps: ["done"], answers: []),
    Case(
      label: "USER_SRP_AUTH, SMS MFA", settings: sms, flow: .userSRP, steps: ["confirmSignInWithSMSMFACode", "done"],
      answers: [SimulatedUserPool.code]),
    Case(
      label: "USER_SRP_AUTH, TOTP", settings: totp, flow: .userSRP, steps: ["confirmSignInWithTOTPCode", "done"],
      answers: [SimulatedUserPool.code]),
    Case(
      label: "USER_SRP_AUTH, temporary password", settings: ["user.status": "forceChangePassword"], flow: .userSRP,
      steps: ["confirmSignInWithNewPassword", "done"], answers: ["NewPassw0rd!"]),
    Case(
      label: "CUSTOM_AUTH with SRP_A", settings: [:], flow: .customWithSRP,
      steps: ["confirmSignInWithCustomChallenge", "done"], answers: ["right"]),
    Case(
      label: "CUSTOM_AUTH with SRP_A, temporary password", settings: ["user.status": "forceChangePassword"],
      flow: .customWithSRP, steps: ["confirmSignInWithNewPassword", "confirmSignInWithCustomChallenge", "done"],
      answers: ["NewPassw0rd!", "right"]),
    Case(
      label: "CUSTOM_AUTH with SRP_A, SMS MFA then the custom challenge",
      settings: sms.merging(["pool.customMfa": "mfaThenCustom"]) { $1 }, flow: .customWithSRP,
      steps: ["confirmSignInWithSMSMFACode", "confirmSignInWithCustomChallenge", "done"],
      answers: [SimulatedUserPool.code, "right"]),
    Case(
      label: "USER_AUTH preferring PASSWORD_SRP", settings: [:], flow: .userAuth(preferredFirstFactor: .passwordSRP),
      steps: ["done"], answers: []),
  ]

  @Test("the right password over SRP goes on as it does in USER_PASSWORD_AUTH", arguments: cases)
  func rightPassword(_ c: Case) async throws {
    let pool = SimulatedUserPool(configuration: c.settings)
    let client = Self.client(pool)
    var steps = [
      try await client.signIn(
        username: SimulatedUserPool.username, password: SimulatedUserPool.password,
        options: SignInOptions(authFlow: c.flow)
      ).nextStep.name
    ]
    for answer in c.answers {
      steps.append(try await client.confirmSignIn(challengeResponse: answer).nextStep.name)
    }
    #expect(steps == c.steps)
    #expect(await client.isSignedIn)
  }

  /// Whether `error` is the wrong-password error (the pool echoes the request after the
  /// message, as its other errors do).
  static func isWrongPassword(_ error: AuthError) -> Bool {
    guard case .notAuthorized(let message) = error else { return false }
    return message.hasPrefix("Incorrect username or password.")
  }

  @Test("a wrong password over SRP is NotAuthorizedException inside signIn, and the client is signed out")
  func wrongPassword() async throws {
    let client = Self.client(SimulatedUserPool(configuration: Self.sms))
    do {
      _ = try await client.signIn(username: SimulatedUserPool.username, password: "Wr0ngPassword!")
      Issue.record("a wrong password signed in")
    } catch {
      #expect(Self.isWrongPassword(error), "\(error)")
    }
    #expect(await client.currentStep == nil)
  }

  @Test(
    "over SRP an unconfirmed user is told so whatever the password; a reset-required one only after a right password",
    arguments: [("unconfirmed", "confirmSignUp"), ("resetRequired", "resetPassword")])
  func status(_ status: String, step: String) async throws {
    let client = Self.client(SimulatedUserPool(configuration: ["user.status": status]))
    let result = try await client.signIn(username: SimulatedUserPool.username, password: SimulatedUserPool.password)
    #expect(result.nextStep.name == step)
    // amazon-cognito-identity-js#288 (unconfirmed: "the intended behavior"); amplify-js #4890 (reset).
    let pool = SimulatedUserPool(configuration: ["user.status": status])
    let wrong = Self.client(pool)
    if status == "unconfirmed" {
      let again = try await wrong.signIn(username: SimulatedUserPool.username, password: "Wr0ngPassword!")
      #expect(again.nextStep.name == step)
      #expect(await pool.lastChallengeParameters.isEmpty, "no PASSWORD_VERIFIER before UserNotConfirmedException")
    } else {
      do {
        _ = try await wrong.signIn(username: SimulatedUserPool.username, password: "Wr0ngPassword!")
        Issue.record("a wrong password of a reset-required user returned a step")
      } catch {
        #expect(Self.isWrongPassword(error), "\(error)")
      }
    }
  }

  @Test(
    "a user that does not exist: UserNotFoundException, or with PreventUserExistenceErrors a verifier no claim passes")
  func unknownUser() async throws {
    let legacy = Self.client(SimulatedUserPool(configuration: ["user.exists": "false"]))
    await #expect(throws: AuthError.userNotFound) {
      try await legacy.signIn(username: SimulatedUserPool.username, password: SimulatedUserPool.password)
    }
    let pool = SimulatedUserPool(configuration: ["user.exists": "false", "pool.preventUserExistenceErrors": "true"])
    let prevent = Self.client(pool)
    do {
      _ = try await prevent.signIn(username: SimulatedUserPool.username, password: SimulatedUserPool.password)
      Issue.record("a user that does not exist signed in")
    } catch {
      #expect(Self.isWrongPassword(error), "\(error)")
    }
    #expect(await pool.lastChallengeParameters["SRP_B"] != nil, "the pool answered PASSWORD_VERIFIER first")
  }

  @Test("SRP_A ≡ 0 mod N (0, or N itself) is InvalidParameterException at InitiateAuth")
  func zeroA() async throws {
    let pool = SimulatedUserPool(configuration: [:])
    let N =
      "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
      + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
      + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
      + "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
      + "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
      + "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
      + "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
      + "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF"
    for (flow, a) in [("USER_SRP_AUTH", "0"), ("USER_SRP_AUTH", N.lowercased()), ("CUSTOM_AUTH", "00")] {
      do {
        _ = try await pool.send("InitiateAuth", Self.initiate(flow: flow, srpA: a))
        Issue.record("\(flow) with SRP_A \(a.prefix(8))… was answered")
      } catch {
        guard case .service(let type, _) = error else { throw error }
        #expect(type == "InvalidParameterException")
      }
    }
  }

  static func initiate(flow: String, srpA: String) -> JSONObject {
    [
      "ClientId": .string("c"), "AuthFlow": .string(flow),
      "AuthParameters": .object(["USERNAME": .string(SimulatedUserPool.username), "SRP_A": .string(srpA)]),
    ]
  }

  /// Forwards to the pool, changing the PASSWORD_VERIFIER answer on the way.
  struct Tampering: CognitoBackend {
    let pool: SimulatedUserPool
    let key: String
    let change: @Sendable (String) -> String

    func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject {
      var request = request
      if request["ChallengeName"]?.string == "PASSWORD_VERIFIER", var answers = request["ChallengeResponses"]?.object,
        let value = answers[key]?.string
      {
        answers[key] = .string(change(value))
        request["ChallengeResponses"] = .object(answers)
      }
      return try await pool.send(operation, request)
    }
  }

  @Test(
    "a tampered claim is the wrong-password error: the signature, the TIMESTAMP signed, the secret block",
    arguments: [
      ("PASSWORD_CLAIM_SIGNATURE", "flipped"), ("TIMESTAMP", "another time"),
      ("PASSWORD_CLAIM_SECRET_BLOCK", "another"),
    ])
  func tampered(key: String, how: String) async throws {
    let change: @Sendable (String) -> String =
      switch key {
      case "PASSWORD_CLAIM_SIGNATURE": { ($0.first == "A" ? "B" : "A") + $0.dropFirst() }
      case "TIMESTAMP": { _ in "Sun Jan 1 00:00:00 UTC 2034" }
      default: { _ in Data("another block".utf8).base64EncodedString() }
      }
    let client = Self.client(Tampering(pool: SimulatedUserPool(configuration: [:]), key: key, change: change))
    do {
      _ = try await client.signIn(username: SimulatedUserPool.username, password: SimulatedUserPool.password)
      Issue.record("a claim with a changed \(key) signed in")
    } catch {
      #expect(Self.isWrongPassword(error), "\(error)")
    }
  }

  /// Forwards to the pool, sending the PASSWORD_VERIFIER answer without its Session (as
  /// pycognito's `AWSSRP.authenticate_user` does), and optionally with another secret block.
  struct WithoutSession: CognitoBackend {
    let pool: SimulatedUserPool
    var otherBlock = false

    func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject {
      var request = request
      if request["ChallengeName"]?.string == "PASSWORD_VERIFIER" {
        request["Session"] = nil
        if otherBlock, var answers = request["ChallengeResponses"]?.object {
          answers["PASSWORD_CLAIM_SECRET_BLOCK"] = .string(Data("another block".utf8).base64EncodedString())
          request["ChallengeResponses"] = .object(answers)
        }
      }
      return try await pool.send(operation, request)
    }
  }

  @Test("a PASSWORD_VERIFIER answer without a Session is taken by its secret block; another block is no session")
  func verifierWithoutSession() async throws {
    let signedIn = try await Self.client(WithoutSession(pool: SimulatedUserPool(configuration: [:]))).signIn(
      username: SimulatedUserPool.username, password: SimulatedUserPool.password)
    #expect(signedIn.isSignedIn)
    let client = Self.client(WithoutSession(pool: SimulatedUserPool(configuration: [:]), otherBlock: true))
    do {
      _ = try await client.signIn(username: SimulatedUserPool.username, password: SimulatedUserPool.password)
      Issue.record("an answer with no Session and an unknown secret block signed in")
    } catch {
      guard case .notAuthorized(let message) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(message.contains("Invalid session"), "\(message)")
    }
  }

  @Test("a TIMESTAMP not in Cognito's format is InvalidParameterException")
  func malformedTimestamp() async throws {
    let pool = SimulatedUserPool(configuration: [:])
    let client = Self.client(Tampering(pool: pool, key: "TIMESTAMP", change: { _ in "2026-09-05T09:13:07Z" }))
    do {
      _ = try await client.signIn(username: SimulatedUserPool.username, password: SimulatedUserPool.password)
      Issue.record("an ISO 8601 TIMESTAMP signed in")
    } catch {
      guard case .invalidParameter = error else {
        Issue.record("\(error)")
        return
      }
    }
  }

  @Test("the same seed gives the same SALT, SRP_B and SECRET_BLOCK; another seed other ones")
  func determinism() async throws {
    func parameters(seed: UInt64) async throws -> [String: String] {
      let pool = SimulatedUserPool(configuration: [:], seed: seed)
      let answer = try await pool.send("InitiateAuth", Self.initiate(flow: "USER_SRP_AUTH", srpA: "2"))
      #expect(answer["ChallengeName"]?.string == "PASSWORD_VERIFIER")
      return answer["ChallengeParameters"]?.stringMap ?? [:]
    }
    let first = try await parameters(seed: 42)
    #expect(try await parameters(seed: 42) == first)
    let other = try await parameters(seed: 43)
    for key in ["SALT", "SRP_B", "SECRET_BLOCK"] {
      #expect(first[key] != nil && first[key] != other[key], "\(key)")
    }
    #expect(first["USER_ID_FOR_SRP"] == SimulatedUserPool.username)
  }
}
