import CognitoWire
import Crypto
import CryptoExtras
import Foundation
import JWTKit

/// Signs Cognito's ID and access tokens (RS256) and serves the JWKS.
///
/// One RSA key signs both tokens (Cognito itself signs them with two keys of the pool's JWKS).
/// Signing, the JWS encoding and the signature check are jwt-kit's; this type chooses the
/// claims and checks them. Times come from `clock`, so a test with a fixed clock issues and
/// verifies the same tokens every run (but for the random `jti`s and refresh token).
package actor TokenIssuer {
  /// The scope of tokens from the user-pool API (`InitiateAuth`, `RespondToAuthChallenge`).
  package static let signInScope = "aws.cognito.signin.user.admin"

  /// The key's id, `kid`: its RFC 7638 JWK thumbprint (base64url SHA-256 of
  /// `{"e":…,"kty":"RSA","n":…}`), so the same key always has the same id.
  package nonisolated let keyId: String
  private nonisolated let modulus: String
  private nonisolated let exponent: String
  private let keys: JWTKeyCollection
  private let clock: @Sendable () -> Date

  /// An issuer signing with `privateKeyPEM`, an RSA private key of at least 2048 bits in PEM
  /// (PKCS#1 `BEGIN RSA PRIVATE KEY` or PKCS#8 `BEGIN PRIVATE KEY`, unencrypted), or with a fresh
  /// RSA-2048 key when nil. Throws `TokenError.invalidPrivateKey` saying what is wrong with it.
  package init(privateKeyPEM: String? = nil, clock: @escaping @Sendable () -> Date = { Date() }) async throws {
    let key = try Self.loadKey(privateKeyPEM)
    let primitives = try key.publicKey.getKeyPrimitives()
    modulus = Base64URL.encode(primitives.modulus)
    exponent = Base64URL.encode(primitives.publicExponent)
    let thumbprintInput = #"{"e":"\#(exponent)","kty":"RSA","n":"\#(modulus)"}"#
    keyId = Base64URL.encode(SHA256.hash(data: Data(thumbprintInput.utf8)))
    keys = JWTKeyCollection()
    await keys.add(
      rsa: try Insecure.RSA.PrivateKey(backing: key), digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyId))
    self.clock = clock
  }

  /// A signed-in user's tokens: an ID token and an access token from this key, valid for
  /// `subject.lifetime` seconds from `subject.issuedAt` (or now), sharing one `origin_jti` and
  /// `event_id`, and a random refresh token.
  package func issue(_ subject: TokenSubject) async throws -> IssuedTokens {
    guard subject.lifetime > 0 else {
      throw TokenError.invalidSubject("lifetime \(subject.lifetime) s is not positive")
    }
    let issuedAt = Int((subject.issuedAt ?? clock()).timeIntervalSince1970)
    let authTime = subject.authTime.map { Int($0.timeIntervalSince1970) } ?? issuedAt
    let expiry = issuedAt + subject.lifetime
    let originJti = subject.originJti ?? Self.newId()
    let eventId = subject.eventId ?? Self.newId()
    let id = IDTokenPayload(
      sub: subject.sub, iss: subject.issuer, aud: subject.clientId, authTime: authTime, exp: expiry, iat: issuedAt,
      jti: Self.newId(), username: subject.username, email: subject.email, emailVerified: subject.emailVerified,
      phoneNumber: subject.phoneNumber, phoneNumberVerified: subject.phoneNumberVerified, originJti: originJti,
      eventId: eventId)
    let access = AccessTokenPayload(
      sub: subject.sub, iss: subject.issuer, clientId: subject.clientId, authTime: authTime, exp: expiry,
      iat: issuedAt, jti: Self.newId(), username: subject.username, originJti: originJti, eventId: eventId,
      deviceKey: subject.deviceKey)
    let kid = JWKIdentifier(string: keyId)
    return IssuedTokens(
      idToken: try await keys.sign(id, kid: kid), accessToken: try await keys.sign(access, kid: kid),
      refreshToken: Self.newRefreshToken(), expiresIn: subject.lifetime, tokenType: "Bearer")
  }

  /// The claims of `token` if it is an access token this key signed for `issuer` (and for
  /// `clientId`, when given) that has not expired by the clock. Throws `TokenError`, checking in
  /// this order: the JWS form, `alg` RS256, `kid`, the signature, `token_use`, `iss`, `client_id`,
  /// `exp`, and that every claim Cognito always sets is there.
  package func verifyAccessToken(_ token: String, issuer: String, clientId: String?) async throws
    -> AccessTokenClaims
  {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw TokenError.malformedToken("\(parts.count) dot-separated parts, not 3")
    }
    guard let headerJSON = Base64URL.decode(parts[0]),
      let header = try? JSONDecoder().decode(ReceivedHeader.self, from: headerJSON)
    else { throw TokenError.malformedToken("the header is not base64url JSON") }
    guard header.alg == "RS256" else { throw TokenError.unsupportedAlgorithm(header.alg) }
    guard header.kid == keyId else { throw TokenError.unknownKey(header.kid) }

    let claims: ReceivedClaims
    do {
      claims = try await keys.verify(token, as: ReceivedClaims.self)
    } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
      throw TokenError.invalidSignature
    } catch {
      throw TokenError.malformedToken(String(describing: error))
    }

    guard claims.tokenUse == "access" else { throw TokenError.notAnAccessToken(tokenUse: claims.tokenUse) }
    guard claims.iss == issuer else { throw TokenError.wrongIssuer(expected: issuer, found: claims.iss) }
    if let clientId, claims.clientId != clientId {
      throw TokenError.wrongClient(expected: clientId, found: claims.clientId)
    }
    guard let exp = claims.exp else { throw TokenError.missingClaim("exp") }
    let now = clock()
    let expiresAt = Date(timeIntervalSince1970: TimeInterval(exp))
    guard now < expiresAt else { throw TokenError.expired(expiredAt: expiresAt, now: now) }

    func required<T>(_ value: T?, _ name: String) throws -> T {
      guard let value else { throw TokenError.missingClaim(name) }
      return value
    }
    return AccessTokenClaims(
      sub: try required(claims.sub, "sub"), username: try required(claims.username, "username"),
      clientId: try required(claims.clientId, "client_id"), deviceKey: claims.deviceKey, issuer: issuer,
      scope: try required(claims.scope, "scope"),
      authTime: Date(timeIntervalSince1970: TimeInterval(try required(claims.authTime, "auth_time"))),
      issuedAt: Date(timeIntervalSince1970: TimeInterval(try required(claims.iat, "iat"))), expiresAt: expiresAt,
      jti: try required(claims.jti, "jti"), originJti: claims.originJti, eventId: claims.eventId)
  }

  /// The pool's JSON Web Key Set, as Cognito serves it at `/.well-known/jwks.json`:
  /// `{"keys":[{"alg":"RS256","e":…,"kid":…,"kty":"RSA","n":…,"use":"sig"}]}` (keys sorted).
  package nonisolated func jwks() -> String {
    struct Key: Encodable { let alg = "RS256", e: String, kid: String, kty = "RSA", n: String, use = "sig" }
    struct KeySet: Encodable { let keys: [Key] }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Encoding strings cannot fail.
    let data = try! encoder.encode(KeySet(keys: [Key(e: exponent, kid: keyId, n: modulus)]))
    return String(decoding: data, as: UTF8.self)
  }

  private static func loadKey(_ pem: String?) throws -> _RSA.Signing.PrivateKey {
    guard let pem else {
      do {
        return try _RSA.Signing.PrivateKey(keySize: .bits2048)
      } catch {
        throw TokenError.invalidPrivateKey("could not generate an RSA-2048 key: \(error)")
      }
    }
    let accepted = "expected an unencrypted RSA private key in PEM ('BEGIN RSA PRIVATE KEY' or 'BEGIN PRIVATE KEY')"
    guard let begin = pem.range(of: #"-----BEGIN [A-Z0-9 ]+-----"#, options: .regularExpression) else {
      throw TokenError.invalidPrivateKey("no PEM block ('-----BEGIN …-----') found; \(accepted)")
    }
    let label = pem[begin].dropFirst("-----BEGIN ".count).dropLast("-----".count)
    switch label {
    case "RSA PRIVATE KEY", "PRIVATE KEY":
      if pem.contains("Proc-Type: 4,ENCRYPTED") {
        throw TokenError.invalidPrivateKey("the key is encrypted; \(accepted)")
      }
    case "ENCRYPTED PRIVATE KEY": throw TokenError.invalidPrivateKey("the key is encrypted; \(accepted)")
    default: throw TokenError.invalidPrivateKey("the PEM block is '\(label)'; \(accepted)")
    }
    let key: _RSA.Signing.PrivateKey
    do {
      // Reads keys down to 1024 bits, so that a short key is named as such below.
      key = try _RSA.Signing.PrivateKey(unsafePEMRepresentation: pem)
    } catch {
      throw TokenError.invalidPrivateKey(
        "the '\(label)' block does not hold an RSA private key (\(error)); \(accepted)")
    }
    guard key.keySizeInBits >= 2048 else {
      throw TokenError.invalidPrivateKey("a \(key.keySizeInBits)-bit RSA key; RS256 here needs at least 2048 bits")
    }
    return key
  }

  /// A lowercase UUID, as Cognito writes `jti`, `origin_jti` and `event_id`.
  private static func newId() -> String { UUID().uuidString.lowercased() }

  /// 64 random bytes in base64url: opaque, with no dots, so nothing mistakes it for a JWT.
  private static func newRefreshToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return Base64URL.encode((0..<64).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
  }
}
