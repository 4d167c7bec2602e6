import CognitoWire
import SignInClient
import Testing

/// The client is an actor, so another call can run while one waits for Cognito. A call that
/// was superseded meanwhile (signIn, signOut) must not write its stale answer into the state.
@Suite("The client across await: a superseded call never changes the state")
struct ReentrancyTests {
  static func challenge(_ name: String) -> JSONObject {
    [
      "ChallengeName": .string(name), "Session": .string("session-\(name)"),
      "ChallengeParameters": .object(["CODE_DELIVERY_DESTINATION": .string("+1***0000")]),
    ]
  }

  static let plain = SignInOptions(authFlow: .userPassword)

  static let superseded = AuthError.invalidState(
    "signIn, signOut or restore was called while this call waited for Cognito; its answer was dropped")

  @Test("signOut while signIn waits: the late challenge is dropped and the client stays signed out")
  func signOutDuringSignIn() async throws {
    let backend = SuspendingBackend()
    let client = SignInClient(backend: backend, clientId: "client", userPoolId: "us-east-1_pool")
    var arrivals = backend.arrivals.makeAsyncIterator()
    let signIn = Task { try await client.signIn(username: "alice", password: "secret", options: Self.plain) }
    let request = try #require(await arrivals.next())
    #expect(request.operation == "InitiateAuth")
    await client.signOut()
    #expect(await backend.answer(request.id, with: .success(Self.challenge("SMS_MFA"))))
    let result = await signIn.result
    #expect(throws: Self.superseded) { try result.get() }
    #expect(await client.currentStep == nil)
  }

  @Test("a late error of a superseded confirmSignIn does not restore its old step over the new flow")
  func lateErrorAfterNewSignIn() async throws {
    let backend = SuspendingBackend()
    let client = SignInClient(backend: backend, clientId: "client", userPoolId: "us-east-1_pool")
    var arrivals = backend.arrivals.makeAsyncIterator()

    let first = Task { try await client.signIn(username: "alice", password: "secret", options: Self.plain) }
    let initiate = try #require(await arrivals.next())
    await backend.answer(initiate.id, with: .success(Self.challenge("SMS_MFA")))
    _ = try await first.value
    #expect(
      await client.currentStep
        == .confirmSignInWithSMSMFACode(
          AuthCodeDeliveryDetails(destination: "+1***0000", medium: .unknown), nil))

    let confirm = Task { try await client.confirmSignIn(challengeResponse: "123456") }
    let respond = try #require(await arrivals.next())
    #expect(respond.operation == "RespondToAuthChallenge")
    // A second answer while the first waits is refused, and sends nothing.
    await #expect(throws: AuthError.self) { try await client.confirmSignIn(challengeResponse: "654321") }

    let second = Task { try await client.signIn(username: "alice", password: "secret", options: Self.plain) }
    let reinitiate = try #require(await arrivals.next())
    #expect(reinitiate.operation == "InitiateAuth")
    await backend.answer(reinitiate.id, with: .success(Self.challenge("SOFTWARE_TOKEN_MFA")))
    #expect(try await second.value.nextStep == .confirmSignInWithTOTPCode)

    await backend.answer(respond.id, with: .failure(.service(type: "CodeMismatchException", message: "")))
    let result = await confirm.result
    #expect(throws: Self.superseded) { try result.get() }
    #expect(await client.currentStep == .confirmSignInWithTOTPCode)
  }
}
