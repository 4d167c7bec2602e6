import CognitoWire
import Foundation
import SignInClient
import Testing

/// Cognito fidelity over HTTP against moto: the behaviours the models gained where moto implements
/// them. Each moto difference is named (docs/guide/fuzzing.md "Checked against a real Cognito-compatible
/// server: moto") and the test asserts what moto does.
@Suite("Cognito fidelity against moto's Cognito server", .serialized)
struct MotoFidelityTests {
  /// The TOTP code for `secret` at the fixed time moto reads.
  static func code(_ secret: String) throws -> String {
    try #require(TOTP.code(secret: secret, time: Double(MotoServer.fixedClock)))
  }

  @Test(
    "TOTP setup: a wrong and a malformed code are CodeMismatchException on moto; the session is kept, the right code signs in"
  )
  func totpSetupWrongAndMalformedCode() async throws {
    let moto = try await MotoServer(clock: MotoServer.fixedClock)
    let (poolId, clientId) = try await moto.makePool(mfa: "ON", totp: true)
    try await moto.admin(
      "AdminCreateUser",
      [
        "UserPoolId": .string(poolId), "Username": .string("gus"), "TemporaryPassword": .string("TempPassw0rd!"),
        "MessageAction": .string("SUPPRESS"),
      ])
    let client = SignInClient(backend: moto.backend, clientId: clientId, userPoolId: poolId)
    _ = try await client.signIn(
      username: "gus", password: "TempPassw0rd!", options: SignInOptions(authFlow: .userPassword))
    let setup = try await client.confirmSignIn(challengeResponse: "NewPassw0rd!")
    guard case .continueSignInWithTOTPSetup(let details) = setup.nextStep else {
      Issue.record("expected TOTP setup, got \(setup.nextStep)")
      return
    }
    // Moto difference: VerifySoftwareToken with a wrong code answers CodeMismatchException;
    // Cognito answers EnableSoftwareTokenMFAException (botocore; amplify-swift
    // TOTPSetupWhenUnauthenticatedTests), which the models now say.
    await #expect(throws: AuthError.codeMismatch) { try await client.confirmSignIn(challengeResponse: "000000") }
    // Moto difference: no shape check on UserCode; Cognito answers InvalidParameterException.
    await #expect(throws: AuthError.codeMismatch) { try await client.confirmSignIn(challengeResponse: "userCode") }
    // Both keep the session (as on Cognito): the right code still signs in.
    #expect(try await client.confirmSignIn(challengeResponse: try Self.code(details.sharedSecret)).isSignedIn)
  }

  @Test("an unknown user: UserNotFoundException on moto, also with PreventUserExistenceErrors ENABLED")
  func unknownUser() async throws {
    let moto = try await MotoServer()
    let (poolId, legacyClient) = try await moto.makePool()
    let enabled = try await moto.admin(
      "CreateUserPoolClient",
      [
        "UserPoolId": .string(poolId), "ClientName": .string("prevent"),
        "ExplicitAuthFlows": .array([.string("ALLOW_USER_PASSWORD_AUTH"), .string("ALLOW_USER_SRP_AUTH")]),
        "PreventUserExistenceErrors": .string("ENABLED"),
      ])
    let enabledClient = try #require(enabled["UserPoolClient"]?.object?["ClientId"]?.string)
    let options = SignInOptions(authFlow: .userPassword)
    // LEGACY (the API default): moto agrees with Cognito.
    let legacy = SignInClient(backend: moto.backend, clientId: legacyClient, userPoolId: poolId)
    await #expect(throws: AuthError.userNotFound) {
      try await legacy.signIn(username: "nobody", password: "Passw0rd!", options: options)
    }
    // Moto difference: PreventUserExistenceErrors is not implemented; Cognito answers
    // NotAuthorizedException "Incorrect username or password." (DG "Managing user existence
    // error responses").
    let prevent = SignInClient(backend: moto.backend, clientId: enabledClient, userPoolId: poolId)
    await #expect(throws: AuthError.userNotFound) {
      try await prevent.signIn(username: "nobody", password: "Passw0rd!", options: options)
    }
  }
}
