import CognitoWire
import CryptoExtras
import Foundation
import JWTKit
import Testing

@testable import CognitoTokens

/// `Tests/Fixtures/signing-key.pem` is a test key made once with openssl and committed: it signs
/// only these tests' tokens and is not a secret.
@Suite struct TokenIssuerTests {
  static let keyPEM = try! String(contentsOfFile: "Tests/Fixtures/signing-key.pem", encoding: .utf8)
  static let pool = "http://127.0.0.1:9229/us-east-1_sim"
  static let client = "3n4b5urk1ft4fl3mg5e62d9ado"
  /// 2026-01-01T00:00:00Z.
  static let now = Date(timeIntervalSince1970: 1_767_225_600)

  static func issuer(at time: Date = now) async throws -> TokenIssuer {
    try await TokenIssuer(privateKeyPEM: keyPEM, clock: { time })
  }

  static let alice = TokenSubject(
    issuer: pool, clientId: client, username: "alice", sub: "8f3e2c1a-5b7d-4e9f-a012-3456789abcde",
    deviceKey: "us-east-1_0a1b2c3d-4e5f-6789-abcd-ef0123456789", email: "alice@example.com", emailVerified: true,
    phoneNumber: "+15555550100", phoneNumberVerified: false, authTime: now.addingTimeInterval(-5))

  /// Any JWT payload, claim by claim.
  struct AnyClaims: JWTPayload {
    var claims: [String: JSONValue]
    init(from decoder: any Decoder) throws {
      claims = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(claims)
    }
    func verify(using algorithm: some JWTAlgorithm) async throws {}
  }

  /// The token's signature checked by jwt-kit against the issuer's published JWKS only.
  static func verifiedByJWKS(_ token: String, jwks: String) async throws -> [String: JSONValue] {
    let keys = try await JWTKeyCollection().add(jwksJSON: jwks)
    return try await keys.verify(token, as: AnyClaims.self).claims
  }

  static func part(_ token: String, _ index: Int) throws -> [String: JSONValue] {
    var text = String(token.split(separator: ".")[index]).replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    text += String(repeating: "=", count: (4 - text.count % 4) % 4)
    let data = try #require(Data(base64Encoded: text))
    return try JSONDecoder().decode([String: JSONValue].self, from: data)
  }

  static func expectRejected(
    _ expected: TokenError, _ token: String, issuer: TokenIssuer, pool: String = pool, client: String? = client
  ) async {
    await #expect(throws: expected) { try await issuer.verifyAccessToken(token, issuer: pool, clientId: client) }
  }

  @Test("Both tokens from the fixed key verify against the issuer's JWKS, independently of the issuer")
  func tokensVerifyAgainstTheJWKS() async throws {
    let issuer = try await Self.issuer()
    let tokens = try await issuer.issue(Self.alice)
    let id = try await Self.verifiedByJWKS(tokens.idToken, jwks: issuer.jwks())
    let access = try await Self.verifiedByJWKS(tokens.accessToken, jwks: issuer.jwks())
    #expect(id["token_use"] == .string("id"))
    #expect(access["token_use"] == .string("access"))
  }

  @Test("The header carries the key's kid and alg RS256")
  func header() async throws {
    let issuer = try await Self.issuer()
    let tokens = try await issuer.issue(Self.alice)
    for token in [tokens.idToken, tokens.accessToken] {
      let header = try Self.part(token, 0)
      #expect(header["alg"] == .string("RS256"))
      #expect(header["kid"] == .string(issuer.keyId))
    }
  }

  @Test("The ID token has exactly Cognito's ID claims, with the subject's values")
  func idTokenClaims() async throws {
    let issuer = try await Self.issuer()
    let tokens = try await issuer.issue(Self.alice)
    let claims = try await Self.verifiedByJWKS(tokens.idToken, jwks: issuer.jwks())
    #expect(
      Set(claims.keys) == [
        "sub", "iss", "aud", "token_use", "auth_time", "exp", "iat", "jti", "cognito:username", "email",
        "email_verified", "phone_number", "phone_number_verified", "origin_jti", "event_id",
      ])
    #expect(claims["sub"] == .string(Self.alice.sub))
    #expect(claims["iss"] == .string(Self.pool))
    #expect(claims["aud"] == .string(Self.client))
    #expect(claims["cognito:username"] == .string("alice"))
    #expect(claims["email"] == .string("alice@example.com"))
    #expect(claims["email_verified"] == .bool(true))
    #expect(claims["phone_number"] == .string("+15555550100"))
    #expect(claims["phone_number_verified"] == .bool(false))
    #expect(claims["iat"] == .number(1_767_225_600))
    #expect(claims["auth_time"] == .number(1_767_225_595))
    #expect(claims["exp"] == .number(1_767_225_600 + 3600))
    #expect(tokens.expiresIn == 3600)
    #expect(tokens.tokenType == "Bearer")
  }

  @Test("The access token has exactly Cognito's access claims, device_key among them when there is a device")
  func accessTokenClaims() async throws {
    let issuer = try await Self.issuer()
    let tokens = try await issuer.issue(Self.alice)
    let claims = try await Self.verifiedByJWKS(tokens.accessToken, jwks: issuer.jwks())
    #expect(
      Set(claims.keys) == [
        "sub", "iss", "client_id", "token_use", "scope", "auth_time", "exp", "iat", "jti", "username", "origin_jti",
        "event_id", "device_key",
      ])
    #expect(claims["client_id"] == .string(Self.client))
    #expect(claims["scope"] == .string("aws.cognito.signin.user.admin"))
    #expect(claims["username"] == .string("alice"))
    #expect(claims["device_key"] == .string(Self.alice.deviceKey!))
    #expect(claims["exp"] == .number(1_767_225_600 + 3600))

    var noDevice = Self.alice
    noDevice.deviceKey = nil
    noDevice.email = nil
    noDevice.phoneNumber = nil
    let plain = try await issuer.issue(noDevice)
    #expect(try Self.part(plain.accessToken, 1)["device_key"] == nil)
    #expect(try Self.part(plain.idToken, 1)["email"] == nil)
    #expect(try Self.part(plain.idToken, 1)["phone_number"] == nil)
  }

  @Test("One sign-in's two tokens share origin_jti and event_id; each has its own jti; a refresh keeps origin_jti")
  func tokenIdentifiers() async throws {
    let issuer = try await Self.issuer()
    let tokens = try await issuer.issue(Self.alice)
    let id = try Self.part(tokens.idToken, 1)
    let access = try Self.part(tokens.accessToken, 1)
    #expect(id["origin_jti"] == access["origin_jti"])
    #expect(id["event_id"] == access["event_id"])
    #expect(id["jti"] != access["jti"])
    let again = try await issuer.issue(Self.alice)
    #expect(try Self.part(again.accessToken, 1)["origin_jti"] != access["origin_jti"])

    var refreshed = Self.alice
    refreshed.originJti = access["origin_jti"]?.string
    let afterRefresh = try await issuer.issue(refreshed)
    #expect(try Self.part(afterRefresh.accessToken, 1)["origin_jti"] == access["origin_jti"])
  }

  @Test("The issuer's own check accepts its access token and returns the claims")
  func verifyAccessToken() async throws {
    let issuer = try await Self.issuer()
    let tokens = try await issuer.issue(Self.alice)
    let claims = try await issuer.verifyAccessToken(tokens.accessToken, issuer: Self.pool, clientId: Self.client)
    #expect(claims.sub == Self.alice.sub)
    #expect(claims.username == "alice")
    #expect(claims.clientId == Self.client)
    #expect(claims.deviceKey == Self.alice.deviceKey)
    #expect(claims.scope == TokenIssuer.signInScope)
    #expect(claims.issuedAt == Self.now)
    #expect(claims.authTime == Self.now.addingTimeInterval(-5))
    #expect(claims.expiresAt == Self.now.addingTimeInterval(3600))
    // Without a client id to match, any client's token of this pool is accepted.
    _ = try await issuer.verifyAccessToken(tokens.accessToken, issuer: Self.pool, clientId: nil)
  }

  @Test("A token with a changed payload is rejected, by the issuer and by the JWKS")
  func tamperedToken() async throws {
    let issuer = try await Self.issuer()
    let tokens = try await issuer.issue(Self.alice)
    let parts = tokens.accessToken.split(separator: ".").map(String.init)
    var claims = try Self.part(tokens.accessToken, 1)
    claims["username"] = .string("mallory")
    let payload = try JSONEncoder().encode(claims).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    let forged = [parts[0], payload, parts[2]].joined(separator: ".")
    await Self.expectRejected(.invalidSignature, forged, issuer: issuer)
    await #expect(throws: JWTError.self) { try await Self.verifiedByJWKS(forged, jwks: issuer.jwks()) }
  }

  @Test("A token of another key, an unsigned token and a token of another pool or client are rejected")
  func foreignTokens() async throws {
    let issuer = try await Self.issuer()
    let stranger = try await TokenIssuer(clock: { Self.now })
    let theirs = try await stranger.issue(Self.alice)
    await Self.expectRejected(.unknownKey(stranger.keyId), theirs.accessToken, issuer: issuer)

    let ours = try await issuer.issue(Self.alice)
    let parts = ours.accessToken.split(separator: ".").map(String.init)
    let none = Data(#"{"alg":"none","kid":"\#(issuer.keyId)"}"#.utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "")
    await Self.expectRejected(.unsupportedAlgorithm("none"), "\(none).\(parts[1]).", issuer: issuer)

    let otherPool = "http://127.0.0.1:9229/us-east-1_other"
    await Self.expectRejected(
      .wrongIssuer(expected: otherPool, found: Self.pool), ours.accessToken, issuer: issuer, pool: otherPool)
    await Self.expectRejected(
      .wrongClient(expected: "another-client", found: Self.client), ours.accessToken, issuer: issuer,
      client: "another-client")
  }

  @Test("An access token is accepted until the second before exp and rejected from exp on, by the clock")
  func expiry() async throws {
    let tokens = try await Self.issuer().issue(Self.alice)
    let lastSecond = try await Self.issuer(at: Self.now.addingTimeInterval(3599))
    _ = try await lastSecond.verifyAccessToken(tokens.accessToken, issuer: Self.pool, clientId: Self.client)
    let expiry = Self.now.addingTimeInterval(3600)
    let atExpiry = try await Self.issuer(at: expiry)
    await Self.expectRejected(.expired(expiredAt: expiry, now: expiry), tokens.accessToken, issuer: atExpiry)
    #expect(TokenError.expired(expiredAt: expiry, now: expiry).cognitoMessage == "Access Token has expired")

    var short = Self.alice
    short.lifetime = 300
    let shortTokens = try await Self.issuer().issue(short)
    #expect(shortTokens.expiresIn == 300)
    let later = try await Self.issuer(at: Self.now.addingTimeInterval(300))
    await #expect(throws: TokenError.self) {
      try await later.verifyAccessToken(shortTokens.accessToken, issuer: Self.pool, clientId: nil)
    }
    await #expect(throws: TokenError.invalidSubject("lifetime 0 s is not positive")) {
      var never = Self.alice
      never.lifetime = 0
      _ = try await Self.issuer().issue(never)
    }
  }

  @Test("An ID token passed as an access token is rejected, though its signature is good")
  func idTokenIsNotAnAccessToken() async throws {
    let issuer = try await Self.issuer()
    let tokens = try await issuer.issue(Self.alice)
    await Self.expectRejected(.notAnAccessToken(tokenUse: "id"), tokens.idToken, issuer: issuer)
    #expect(TokenError.notAnAccessToken(tokenUse: "id").cognitoMessage == "Invalid Access Token")
  }

  @Test("The refresh token is opaque: not a JWT, not an access token, new each time")
  func refreshTokenIsNotAJWT() async throws {
    let issuer = try await Self.issuer()
    let first = try await issuer.issue(Self.alice)
    let second = try await issuer.issue(Self.alice)
    #expect(!first.refreshToken.contains("."))
    #expect(first.refreshToken.count >= 64)
    #expect(first.refreshToken != second.refreshToken)
    await #expect(throws: TokenError.malformedToken("1 dot-separated parts, not 3")) {
      try await issuer.verifyAccessToken(first.refreshToken, issuer: Self.pool, clientId: nil)
    }
  }

  @Test("The kid is the key's RFC 7638 thumbprint: the same for the same key in PKCS#8 or PKCS#1, new for a new key")
  func stableKeyId() async throws {
    let issuer = try await Self.issuer()
    // The fixture's thumbprint, computed with Python's hashlib and pyca/cryptography.
    #expect(issuer.keyId == "llam5dqnQgyECDHVnn5SigqkriHk80d71T8Bw2tEoCc")
    let again = try await Self.issuer(at: Self.now.addingTimeInterval(86_400))
    #expect(issuer.keyId == again.keyId)
    let pkcs1 = try _RSA.Signing.PrivateKey(pemRepresentation: Self.keyPEM).pemRepresentation
    #expect(pkcs1.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
    #expect(try await TokenIssuer(privateKeyPEM: pkcs1).keyId == issuer.keyId)
    let fresh = try await TokenIssuer()
    let fresh2 = try await TokenIssuer()
    #expect(fresh.keyId != issuer.keyId)
    #expect(fresh.keyId != fresh2.keyId)
  }

  @Test("The JWKS holds one RS256 signing key with the kid, modulus and exponent")
  func jwksShape() async throws {
    let issuer = try await Self.issuer()
    let jwks = try JSONDecoder().decode([String: JSONValue].self, from: Data(issuer.jwks().utf8))
    let keys = try #require(jwks["keys"]?.array)
    #expect(keys.count == 1)
    let key = try #require(keys.first?.object)
    #expect(Set(key.keys) == ["kty", "alg", "use", "kid", "n", "e"])
    #expect(key["kty"] == .string("RSA"))
    #expect(key["alg"] == .string("RS256"))
    #expect(key["use"] == .string("sig"))
    #expect(key["kid"] == .string(issuer.keyId))
    #expect(key["e"] == .string("AQAB"))
    #expect(key["n"]?.string?.count == 342)  // 256 bytes of modulus in unpadded base64url
  }

  @Test(
    "A PEM that is not a usable RSA private key gives an error that says what it is",
    arguments: [
      ("not a key", "no PEM block"),
      ("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "does not hold an RSA private key"),
      ("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", "the PEM block is 'PUBLIC KEY'"),
      ("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n", "encrypted"),
    ])
  func malformedPEM(pem: String, says: String) async throws {
    let error = await #expect(throws: TokenError.self) { try await TokenIssuer(privateKeyPEM: pem) }
    let message = try #require(error).description
    #expect(message.hasPrefix("invalid signing key: "))
    #expect(message.contains(says))
  }

  @Test("A 1024-bit RSA key is refused as too short")
  func shortKey() async throws {
    let pem = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).pemRepresentation
    await #expect(throws: TokenError.invalidPrivateKey("a 1024-bit RSA key; RS256 here needs at least 2048 bits")) {
      try await TokenIssuer(privateKeyPEM: pem)
    }
  }

  @Test("A fresh key (no PEM) issues tokens that verify against its own JWKS")
  func freshKey() async throws {
    let issuer = try await TokenIssuer()
    let tokens = try await issuer.issue(Self.alice)
    let claims = try await Self.verifiedByJWKS(tokens.accessToken, jwks: issuer.jwks())
    #expect(claims["username"] == .string("alice"))
    _ = try await issuer.verifyAccessToken(tokens.accessToken, issuer: Self.pool, clientId: Self.client)
  }

  /// PyJWT and pyca/cryptography, when both are installed (they are not the project's
  /// dependencies): a second JOSE implementation checks the signatures, the kid and the JWKS.
  static let pythonJWT: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import jwt, cryptography"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  static let pythonCheck = #"""
    import base64, hashlib, json, sys, jwt
    from cryptography.hazmat.primitives.serialization import load_pem_private_key
    given = json.load(sys.stdin)
    key = json.loads(given["jwks"])["keys"][0]
    b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
    pem = open("Tests/Fixtures/signing-key.pem", "rb").read()
    numbers = load_pem_private_key(pem, None).public_key().public_numbers()
    assert key["n"] == b64(numbers.n.to_bytes(256, "big")), "n is not the fixture key's modulus"
    thumb = json.dumps({"e": key["e"], "kty": "RSA", "n": key["n"]}, separators=(",", ":"), sort_keys=True)
    assert key["kid"] == b64(hashlib.sha256(thumb.encode()).digest()), "kid is not the RFC 7638 thumbprint"
    public = jwt.PyJWK(key).key
    for name, token in (("id", given["id"]), ("access", given["access"])):
        assert jwt.get_unverified_header(token)["kid"] == key["kid"]
        claims = jwt.decode(token, public, algorithms=["RS256"], options={"verify_exp": False, "verify_aud": False})
        assert claims["token_use"] == name, claims
    try:
        jwt.decode(given["access"][:-4] + "AAAA", public, algorithms=["RS256"], options={"verify_exp": False})
        sys.exit("a tampered signature verified")
    except jwt.InvalidSignatureError:
        pass
    print("ok")
    """#

  @Test(
    "PyJWT verifies both tokens with the JWKS key, whose n is the fixture's and kid its thumbprint",
    .enabled(if: pythonJWT))
  func pythonCrossCheck() async throws {
    let issuer = try await Self.issuer()
    let tokens = try await issuer.issue(Self.alice)
    let input = try JSONEncoder().encode(["jwks": issuer.jwks(), "id": tokens.idToken, "access": tokens.accessToken])
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", Self.pythonCheck]
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(errors)")
    #expect(output == "ok\n")
  }
}
