import Foundation

/// Who the tokens are for, and the app client and pool that issue them: what `TokenIssuer.issue`
/// writes into the ID and access tokens.
package struct TokenSubject: Sendable, Equatable {
  /// The pool's issuer URL, `iss` (for `serve`, e.g. `http://127.0.0.1:9229/us-east-1_sim`).
  package var issuer: String
  /// The app client id: the ID token's `aud`, the access token's `client_id`.
  package var clientId: String
  /// The user name: the ID token's `cognito:username`, the access token's `username`.
  package var username: String
  /// The user's `sub` (a UUID string).
  package var sub: String
  /// The remembered device's key: the access token's `device_key`; none when nil.
  package var deviceKey: String?
  /// The ID token's `email` and `email_verified`, each left out when nil.
  package var email: String?
  package var emailVerified: Bool?
  /// The ID token's `phone_number` and `phone_number_verified`, each left out when nil.
  package var phoneNumber: String?
  package var phoneNumberVerified: Bool?
  /// When the user authenticated (`auth_time`); nil: the issue time.
  package var authTime: Date?
  /// When the tokens are issued (`iat`); nil: the issuer's clock.
  package var issuedAt: Date?
  /// Seconds from `iat` to `exp` for both tokens (Cognito's default is one hour).
  package var lifetime: Int
  /// The `origin_jti` of the sign-in these tokens continue (a refresh keeps it); nil: a new one.
  package var originJti: String?
  /// The `event_id` of the sign-in; nil: a new one.
  package var eventId: String?

  package init(
    issuer: String, clientId: String, username: String, sub: String, deviceKey: String? = nil,
    email: String? = nil, emailVerified: Bool? = nil, phoneNumber: String? = nil, phoneNumberVerified: Bool? = nil,
    authTime: Date? = nil, issuedAt: Date? = nil, lifetime: Int = 3600, originJti: String? = nil,
    eventId: String? = nil
  ) {
    self.issuer = issuer
    self.clientId = clientId
    self.username = username
    self.sub = sub
    self.deviceKey = deviceKey
    self.email = email
    self.emailVerified = emailVerified
    self.phoneNumber = phoneNumber
    self.phoneNumberVerified = phoneNumberVerified
    self.authTime = authTime
    self.issuedAt = issuedAt
    self.lifetime = lifetime
    self.originJti = originJti
    self.eventId = eventId
  }
}

/// What a sign-in returns in `AuthenticationResult`: two signed JWTs and an opaque refresh token.
package struct IssuedTokens: Sendable, Equatable {
  /// The RS256 ID token (`token_use: "id"`).
  package var idToken: String
  /// The RS256 access token (`token_use: "access"`).
  package var accessToken: String
  /// Random and opaque, not a JWT: Cognito's refresh tokens are encrypted and only Cognito
  /// reads them, so a client must not parse one.
  package var refreshToken: String
  /// Seconds until both JWTs expire (`ExpiresIn`).
  package var expiresIn: Int
  /// Always `"Bearer"` (`TokenType`).
  package var tokenType: String
}

/// The claims of an access token that `TokenIssuer.verifyAccessToken` accepted.
package struct AccessTokenClaims: Sendable, Equatable {
  package var sub: String
  package var username: String
  package var clientId: String
  package var deviceKey: String?
  package var issuer: String
  package var scope: String
  package var authTime: Date
  package var issuedAt: Date
  package var expiresAt: Date
  package var jti: String
  package var originJti: String?
  package var eventId: String?
}

/// Why a key could not be loaded, a subject could not be issued tokens, or a token was rejected.
package enum TokenError: Error, Equatable, CustomStringConvertible {
  /// The PEM given to `TokenIssuer.init` is not a usable RSA private key; the text says why.
  case invalidPrivateKey(String)
  /// The subject cannot be issued tokens (a lifetime that is not positive).
  case invalidSubject(String)
  /// Not three base64url parts with a JSON header and payload, or a claim of the wrong type.
  case malformedToken(String)
  /// The header names another algorithm than RS256.
  case unsupportedAlgorithm(String?)
  /// The header's `kid` is not this issuer's key.
  case unknownKey(String?)
  /// The signature does not match the header and payload under this issuer's key.
  case invalidSignature
  /// `token_use` is not `access` (an ID token passed as an access token, say).
  case notAnAccessToken(tokenUse: String?)
  case wrongIssuer(expected: String, found: String?)
  case wrongClient(expected: String, found: String?)
  /// `exp` is at or before the clock's time.
  case expired(expiredAt: Date, now: Date)
  case missingClaim(String)

  package var description: String {
    switch self {
    case .invalidPrivateKey(let why): return "invalid signing key: \(why)"
    case .invalidSubject(let why): return "cannot issue tokens: \(why)"
    case .malformedToken(let why): return "malformed token: \(why)"
    case .unsupportedAlgorithm(let alg): return "token algorithm is \(alg.map { "'\($0)'" } ?? "missing"), not RS256"
    case .unknownKey(let kid): return "token kid \(kid.map { "'\($0)'" } ?? "missing") is not this pool's signing key"
    case .invalidSignature: return "token signature does not verify"
    case .notAnAccessToken(let use): return "token_use is \(use.map { "'\($0)'" } ?? "missing"), not 'access'"
    case .wrongIssuer(let expected, let found):
      return "token iss is \(found.map { "'\($0)'" } ?? "missing"), expected '\(expected)'"
    case .wrongClient(let expected, let found):
      return "token client_id is \(found.map { "'\($0)'" } ?? "missing"), expected '\(expected)'"
    case .expired(let expiredAt, let now):
      return "token expired at \(Self.iso(expiredAt)) (now \(Self.iso(now)))"
    case .missingClaim(let claim): return "token has no '\(claim)' claim"
    }
  }

  /// The message Cognito puts in a NotAuthorizedException for this access token.
  package var cognitoMessage: String {
    if case .expired = self { return "Access Token has expired" }
    return "Invalid Access Token"
  }

  private static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
