import CognitoWire
import Foundation
import SignInClient
import Testing

/// The client over HTTP against moto's Cognito server, through every flow moto implements.
/// Where moto differs from Cognito (reference part B.4), the test names the difference and
/// asserts what moto does.
@Suite("Against moto's Cognito server", .serialized)
struct MotoFlowTests {
  static let password = "Passw0rd!"

  @Test("password sign-in; UserNotConfirmed -> confirmSignUp -> signIn; a wrong password")
  func passwordAndConfirmSignUp() async throws {
    let moto = try await MotoServer()
    let (poolId, clientId) = try await moto.makePool()
    try await moto.admin(
      "SignUp",
      [
        "ClientId": .string(clientId), "Username": .string("alice"), "Password": .string(Self.password),
        "UserAttributes": .array([.object(["Name": .string("email"), "Value": .string("alice@example.com")])]),
      ])
    let client = SignInClient(backend: moto.backend, clientId: clientId, userPoolId: poolId)
    let options = SignInOptions(authFlow: .userPassword)
    #expect(
      try await client.signIn(username: "alice", password: Self.password, options: options).nextStep
        == .confirmSignUp(nil))
    // moto B.4 item 5: ConfirmSignUp accepts any code.
    try await client.confirmSignUp(username: "alice", confirmationCode: "any-code")
    await #expect(throws: AuthError.notAuthorized("Incorrect username or password.")) {
      try await client.signIn(username: "alice", password: "wrong", options: options)
    }
    let result = try await client.signIn(username: "alice", password: Self.password, options: options)
    #expect(result.isSignedIn)
    await #expect(
      throws: AuthError.invalidState(
        "There is already a user in signedIn state. SignOut the user first before calling signIn")
    ) {
      try await client.signIn(username: "alice", password: Self.password, options: options)
    }
  }

  @Test("NEW_PASSWORD_REQUIRED: a password that breaks the policy, then a good one")
  func newPassword() async throws {
    let moto = try await MotoServer()
    let (poolId, clientId) = try await moto.makePool()
    try await moto.admin(
      "AdminCreateUser",
      [
        "UserPoolId": .string(poolId), "Username": .string("bob"), "TemporaryPassword": .string("TempPassw0rd!"),
        "MessageAction": .string("SUPPRESS"),
      ])
    let client = SignInClient(backend: moto.backend, clientId: clientId, userPoolId: poolId)
    let first = try await client.signIn(
      username: "bob", password: "TempPassw0rd!", options: SignInOptions(authFlow: .userPassword))
    #expect(first.nextStep.name == "confirmSignInWithNewPassword")
    await #expect(throws: AuthError.invalidPassword) { try await client.confirmSignIn(challengeResponse: "short") }
    #expect(await client.currentStep?.name == "confirmSignInWithNewPassword", "the session survives InvalidPassword")
    #expect(try await client.confirmSignIn(challengeResponse: "NewPassw0rd!").isSignedIn)
  }

  /// The TOTP code for `secret` at the fixed time moto reads (`MotoServer(clock:)`): valid
  /// on every run, whatever the wall clock says.
  static func code(_ secret: String, at moto: MotoServer) throws -> String {
    let clock = try #require(moto.clock, "moto runs with the system clock")
    return try #require(TOTP.code(secret: secret, time: Double(clock)))
  }

  @Test(
    "MFA_SETUP -> TOTP setup with a real code from the shared secret; then SOFTWARE_TOKEN_MFA with a wrong and the right code"
  )
  func totpSetupThenTotpCode() async throws {
    let moto = try await MotoServer(clock: MotoServer.fixedClock)
    let (poolId, clientId) = try await moto.makePool(mfa: "ON", totp: true)
    try await moto.admin(
      "AdminCreateUser",
      [
        "UserPoolId": .string(poolId), "Username": .string("carol"), "TemporaryPassword": .string("TempPassw0rd!"),
        "MessageAction": .string("SUPPRESS"),
      ])
    let client = SignInClient(backend: moto.backend, clientId: clientId, userPoolId: poolId)
    let options = SignInOptions(authFlow: .userPassword)
    _ = try await client.signIn(username: "carol", password: "TempPassw0rd!", options: options)
    // moto B.4 item 7: MFAS_CAN_SETUP comes as a JSON array, not a string; the client accepts both.
    let setup = try await client.confirmSignIn(challengeResponse: "NewPassw0rd!")
    guard case .continueSignInWithTOTPSetup(let details) = setup.nextStep else {
      Issue.record("expected TOTP setup, got \(setup.nextStep)")
      return
    }
    // moto B.1: one fixed secret for every user.
    #expect(details.sharedSecret == "asdfasdfasdf")
    let uri = try details.getSetupURI(appName: "signin-spec").absoluteString
    #expect(uri.hasPrefix("otpauth://totp/signin-spec") && uri.contains("carol"))
    #expect(uri.hasSuffix("?secret=asdfasdfasdf&issuer=signin-spec"))
    await #expect(throws: AuthError.codeMismatch) { try await client.confirmSignIn(challengeResponse: "000000") }
    #expect(try await client.confirmSignIn(challengeResponse: try Self.code(details.sharedSecret, at: moto)).isSignedIn)

    await client.signOut()
    let mfa = try await client.signIn(username: "carol", password: "NewPassw0rd!", options: options)
    #expect(mfa.nextStep == .confirmSignInWithTOTPCode)
    await #expect(throws: AuthError.codeMismatch) { try await client.confirmSignIn(challengeResponse: "000000") }
    #expect(try await client.confirmSignIn(challengeResponse: try Self.code(details.sharedSecret, at: moto)).isSignedIn)
  }

  @Test("SMS_MFA: moto issues it from the user's preference and accepts any code")
  func smsMfa() async throws {
    let moto = try await MotoServer()
    let (poolId, clientId) = try await moto.makePool()
    try await moto.admin(
      "AdminCreateUser",
      [
        "UserPoolId": .string(poolId), "Username": .string("dave"), "MessageAction": .string("SUPPRESS"),
        "UserAttributes": .array([.object(["Name": .string("phone_number"), "Value": .string("+15555550100")])]),
      ])
    try await moto.admin(
      "AdminSetUserPassword",
      [
        "UserPoolId": .string(poolId), "Username": .string("dave"), "Password": .string(Self.password),
        "Permanent": .bool(true),
      ])
    try await moto.admin(
      "AdminSetUserMFAPreference",
      [
        "UserPoolId": .string(poolId), "Username": .string("dave"),
        "SMSMfaSettings": .object(["Enabled": .bool(true), "PreferredMfa": .bool(true)]),
      ])
    let client = SignInClient(backend: moto.backend, clientId: clientId, userPoolId: poolId)
    let first = try await client.signIn(
      username: "dave", password: Self.password, options: SignInOptions(authFlow: .userPassword))
    // moto B.4 item 4: SMS_MFA although the pool's MFA is OFF, and no CODE_DELIVERY_* parameters.
    #expect(
      first.nextStep == .confirmSignInWithSMSMFACode(AuthCodeDeliveryDetails(destination: "", medium: .unknown), nil))
    // moto B.4 item 5: any SMS code is accepted.
    #expect(try await client.confirmSignIn(challengeResponse: "123456").isSignedIn)
  }

  @Test("USER_SRP_AUTH reaches PASSWORD_VERIFIER; moto then cannot find the user by USER_ID_FOR_SRP")
  func srp() async throws {
    let moto = try await MotoServer()
    let (poolId, clientId) = try await moto.makePool()
    try await moto.admin(
      "AdminCreateUser",
      [
        "UserPoolId": .string(poolId), "Username": .string("erin"), "MessageAction": .string("SUPPRESS"),
      ])
    try await moto.admin(
      "AdminSetUserPassword",
      [
        "UserPoolId": .string(poolId), "Username": .string("erin"), "Password": .string(Self.password),
        "Permanent": .bool(true),
      ])
    let recorder = SessionRecorder(moto.backend)
    let client = SignInClient(backend: recorder, clientId: clientId, userPoolId: poolId)
    // moto deviation: USER_ID_FOR_SRP is the user's sub, and the PASSWORD_VERIFIER answer, which
    // Cognito's API says must carry USER_ID_FOR_SRP as USERNAME, is then not found
    // (UserNotFoundException). Cognito returns the username there. moto also never checks
    // the signature (B.2), so this test shows the message flow, not the SRP arithmetic.
    await #expect(throws: AuthError.userNotFound) { try await client.signIn(username: "erin", password: Self.password) }
    #expect(await recorder.operations == ["InitiateAuth", "RespondToAuthChallenge"])
    #expect(await client.currentStep == nil, "the flow ended; a new signIn is possible")
  }

  /// Passes calls through and remembers the last session Cognito handed out.
  actor SessionRecorder: CognitoBackend {
    let inner: CognitoBackend
    var lastSession: String?
    var operations: [String] = []
    init(_ inner: CognitoBackend) { self.inner = inner }
    func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject {
      operations.append(operation)
      let response = try await inner.send(operation, request)
      if let s = response["Session"]?.string { lastSession = s }
      return response
    }
  }

  @Test(
    "a used session: moto answers ResourceNotFoundException (Cognito: NotAuthorized); the flow ends, signIn works again"
  )
  func usedSession() async throws {
    let moto = try await MotoServer()
    let (poolId, clientId) = try await moto.makePool()
    try await moto.admin(
      "AdminCreateUser",
      [
        "UserPoolId": .string(poolId), "Username": .string("fay"), "TemporaryPassword": .string("TempPassw0rd!"),
        "MessageAction": .string("SUPPRESS"),
      ])
    let recorder = SessionRecorder(moto.backend)
    let client = SignInClient(backend: recorder, clientId: clientId, userPoolId: poolId)
    _ = try await client.signIn(
      username: "fay", password: "TempPassw0rd!", options: SignInOptions(authFlow: .userPassword))
    // Answer the challenge behind the client's back, so the client's session is used up.
    let session = try #require(await recorder.lastSession)
    try await moto.admin(
      "RespondToAuthChallenge",
      [
        "ClientId": .string(clientId), "ChallengeName": .string("NEW_PASSWORD_REQUIRED"), "Session": .string(session),
        "ChallengeResponses": .object(["USERNAME": .string("fay"), "NEW_PASSWORD": .string("NewPassw0rd!")]),
      ])
    do {
      _ = try await client.confirmSignIn(challengeResponse: "OtherPassw0rd!")
      Issue.record("a used session must fail")
    } catch {
      #expect(error == .notAuthorized("the session is not valid any more"))
      #expect(!error.description.contains(session), "the session string must not leak into errors")
    }
    await #expect(throws: AuthError.invalidState("No sign-in is in progress; call signIn first")) {
      try await client.confirmSignIn(challengeResponse: "OtherPassw0rd!")
    }
    #expect(
      try await client.signIn(
        username: "fay", password: "NewPassw0rd!", options: SignInOptions(authFlow: .userPassword)
      ).isSignedIn)
  }
}
