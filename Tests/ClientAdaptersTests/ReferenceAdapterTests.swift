import ClientAdapters
import CognitoServer
import CognitoWire
import Foundation
import SignInClient
import SimulatedCognito
import Testing

/// `signin-spec-adapter`, the reference client behind the adapter protocol, signs in through
/// `signin-spec serve`'s HTTP endpoint (a `CognitoServer` in front of a `SimulatedService`,
/// started here), and reports each step as the client returns it.
@Suite("The reference client as an adapter")
struct ReferenceAdapterTests {
  /// The pool's clock: codes are RFC 6238 at this time, SMS codes are drawn and read from the outbox.
  static let time = Date(timeIntervalSince1970: 1_767_225_600)
  /// How long a call and each of the adapter's HTTP requests may wait: a guard against a hang,
  /// not a timing condition. The server answers on the test process's cooperative threads,
  /// which the other suites of the process share (as `hangGuard` in CognitoServerTests).
  static let hangGuard: Double = 600

  /// The reference adapter with `arguments`, under the hang guard.
  static func start(_ arguments: [String] = []) throws -> AdapterProcess {
    try AdapterProcess(
      command: AdapterCommand(
        program: referenceAdapterBinary.path,
        arguments: ["--request-timeout", String(Int(hangGuard))] + arguments),
      timeLimit: hangGuard)
  }

  /// Runs `body` with the reference adapter, hello and reset done, against a pool configured
  /// `settings` with its user "user" (password `Passw0rd!`).
  func signingIn(
    _ settings: [String: String], arguments: [String] = [],
    _ body: (AdapterProcess, SimulatedService, _ poolId: String) async throws -> Void
  ) async throws {
    let service = SimulatedService(seed: 1, codes: .generated(clock: { Self.time }), minter: nil)
    let ids = await service.createPool(configuration: settings)
    _ = try await service.putUser(poolId: ids.poolId, user: .init(), configuration: settings)
    let server = try await CognitoServer.start(backend: service, port: 0)
    let adapter = try Self.start(arguments)
    let pid = adapter.processIdentifier
    do {
      let hello = try await adapter.hello(endpoint: server.endpoint.absoluteString)
      #expect(hello.protocol == 1)
      let reset = try await adapter.reset(
        poolId: ids.poolId, clientId: ids.clientId, username: "user", password: "Passw0rd!")
      #expect(reset == AdapterObservation(id: 2, step: nil, isSignedIn: false))
      try await body(adapter, service, ids.poolId)
    } catch {
      adapter.close()
      await server.stop()
      throw error
    }
    adapter.close()
    await server.stop()
    #expect(isGone(pid))
  }

  @Test("hello declares every flow and every challenge but WEB_AUTHN, and maps Swift's step names to themselves")
  func hello() async throws {
    let adapter = try Self.start()
    defer { adapter.close() }
    let hello = try await adapter.hello(endpoint: "http://127.0.0.1:9/")
    #expect(hello.client == "signin-spec SignInClient 1")
    #expect(hello.capabilities.flows == ["userSRP", "userPassword", "customWithSRP", "customWithoutSRP", "userAuth"])
    #expect(
      Set(hello.capabilities.challenges).isSuperset(of: [
        "SMS_MFA", "SOFTWARE_TOKEN_MFA", "MFA_SETUP", "SELECT_CHALLENGE",
      ]))
    #expect(!hello.capabilities.challenges.contains("WEB_AUTHN"))
    #expect(hello.steps["continueSignInWithTOTPSetup"] == "continueSignInWithTOTPSetup")
    #expect(hello.steps.count == 14)
  }

  @Test(
    "USER_PASSWORD_AUTH with SMS MFA: a wrong password ends the flow, a wrong code keeps the step, the code signs in")
  func passwordWithSMS() async throws {
    try await signingIn(["pool.mfa": "required", "pool.sms": "true", "user.phone": "true"]) {
      adapter, service, poolId in
      let options = SignInRequestOptions(authFlow: .userPassword)
      let wrong = try await adapter.signIn(username: "user", password: "Wr0ng!pass", options: options)
      #expect(wrong.error?.type == "NotAuthorizedException")
      #expect(wrong.step == nil)
      #expect(!wrong.isSignedIn)

      let challenge = try await adapter.signIn(username: "user", password: "Passw0rd!", options: options)
      #expect(challenge.step == "confirmSignInWithSMSMFACode")
      #expect(challenge.error == nil)
      #expect(!challenge.isSignedIn)
      let sent = try #require(await service.messages(for: "user", poolId: poolId).last)
      #expect(challenge.delivery == AdapterObservation.Delivery(medium: "SMS", destination: sent.destination))

      let mismatch = try await adapter.confirmSignIn(answer: sent.code == "000000" ? "000001" : "000000")
      #expect(mismatch.error?.type == "CodeMismatchException")
      #expect(mismatch.step == "confirmSignInWithSMSMFACode", "a wrong code keeps the step")

      let done = try await adapter.confirmSignIn(answer: sent.code)
      #expect(done == AdapterObservation(id: done.id, step: "done", isSignedIn: true))

      let again = try await adapter.signIn(username: "user", password: "Passw0rd!", options: options)
      #expect(again.error?.type == "InvalidStateError", "a signed-in user must sign out first")
      #expect(again.isSignedIn)

      let out = try await adapter.signOut()
      #expect(out == AdapterObservation(id: out.id, step: nil, isSignedIn: false))
    }
  }

  @Test("USER_SRP_AUTH with TOTP setup: the setup step carries the secret, its code signs in")
  func srpWithTOTPSetup() async throws {
    try await signingIn(["pool.mfa": "required", "pool.totp": "true"]) { adapter, _, _ in
      let setup = try await adapter.signIn(
        username: "user", password: "Passw0rd!", options: SignInRequestOptions(authFlow: .userSRP))
      #expect(setup.step == "continueSignInWithTOTPSetup")
      #expect(!setup.isSignedIn)
      let secret = try #require(setup.totpSecret)
      #expect(setup.totpUsername == "user")
      let code = try #require(TOTP.code(secret: secret, time: Self.time.timeIntervalSince1970))
      let done = try await adapter.confirmSignIn(answer: code)
      #expect(done.step == "done")
      #expect(done.isSignedIn)

      // A new case: the adapter forgets the signed-in user.
      _ = try await adapter.reset(
        poolId: "us-east-1_sim", clientId: "signinspecsimulatedclient", username: "user", password: "Passw0rd!")
      let next = try await adapter.signIn(
        username: "user", password: "Passw0rd!", options: SignInRequestOptions(authFlow: .userSRP))
      #expect(next.step == "confirmSignInWithTOTPCode", "the registered authenticator is asked for")
    }
  }

  @Test("USER_AUTH without a preference offers the first factors as options")
  func firstFactorSelection() async throws {
    try await signingIn(["pool.allowEmailOTP": "true", "user.email": "true"]) {
      adapter, _, _ in
      let choice = try await adapter.signIn(
        username: "user", password: nil, options: SignInRequestOptions(authFlow: .userAuth))
      #expect(choice.step == "continueSignInWithFirstFactorSelection", "\(choice)")
      #expect(choice.options?.contains("PASSWORD") == true, "\(choice)")
      #expect(choice.options == choice.options?.sorted())
    }
  }

  /// An observation's `isSignedIn` is what a user of the client reads: the result's after a call
  /// that returned, the client's own after a call that threw. `signedInOnChallenge` lies in the
  /// client's property, so through the adapter its lie shows after an error;
  /// `resultSignedInOnChallenge` lies in the result, so it shows at once.
  @Test(
    "a broken client's isSignedIn shows through the adapter: the client's after an error, the result's after a return")
  func brokenClientThroughTheAdapter() async throws {
    try await signingIn(
      ["pool.mfa": "required", "pool.sms": "true", "user.phone": "true"],
      arguments: ["--client", "signedInOnChallenge"]
    ) { adapter, service, poolId in
      let challenge = try await adapter.signIn(
        username: "user", password: "Passw0rd!", options: SignInRequestOptions(authFlow: .userPassword))
      #expect(challenge.step == "confirmSignInWithSMSMFACode")
      #expect(!challenge.isSignedIn, "the result's isSignedIn is the reference's")
      let sent = try #require(await service.messages(for: "user", poolId: poolId).last)
      let mismatch = try await adapter.confirmSignIn(answer: sent.code == "000000" ? "000001" : "000000")
      #expect(mismatch.step == "confirmSignInWithSMSMFACode")
      #expect(mismatch.isSignedIn, "after an error the client's own isSignedIn is read, and it lies")
    }
    try await signingIn(
      ["pool.mfa": "required", "pool.sms": "true", "user.phone": "true"],
      arguments: ["--client", "resultSignedInOnChallenge"]
    ) { adapter, _, _ in
      let challenge = try await adapter.signIn(
        username: "user", password: "Passw0rd!", options: SignInRequestOptions(authFlow: .userPassword))
      #expect(challenge.step == "confirmSignInWithSMSMFACode")
      #expect(challenge.isSignedIn, "the result's isSignedIn is read after a return, and it lies")
    }
  }
}
