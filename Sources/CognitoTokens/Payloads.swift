import Foundation
import JWTKit

/// The ID token's claims, named as Cognito names them. Nil optionals are left out of the JSON.
struct IDTokenPayload: JWTPayload {
  var sub: String
  var iss: String
  var aud: String
  var tokenUse = "id"
  var authTime: Int
  var exp: Int
  var iat: Int
  var jti: String
  var username: String
  var email: String?
  var emailVerified: Bool?
  var phoneNumber: String?
  var phoneNumberVerified: Bool?
  var originJti: String
  var eventId: String

  enum CodingKeys: String, CodingKey {
    case sub, iss, aud, exp, iat, jti, email
    case tokenUse = "token_use"
    case authTime = "auth_time"
    case username = "cognito:username"
    case emailVerified = "email_verified"
    case phoneNumber = "phone_number"
    case phoneNumberVerified = "phone_number_verified"
    case originJti = "origin_jti"
    case eventId = "event_id"
  }

  /// Checked by `TokenIssuer`, against its clock, not here.
  func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The access token's claims, named as Cognito names them.
struct AccessTokenPayload: JWTPayload {
  var sub: String
  var iss: String
  var clientId: String
  var tokenUse = "access"
  var scope = TokenIssuer.signInScope
  var authTime: Int
  var exp: Int
  var iat: Int
  var jti: String
  var username: String
  var originJti: String
  var eventId: String
  var deviceKey: String?

  enum CodingKeys: String, CodingKey {
    case sub, iss, scope, exp, iat, jti, username
    case clientId = "client_id"
    case tokenUse = "token_use"
    case authTime = "auth_time"
    case originJti = "origin_jti"
    case eventId = "event_id"
    case deviceKey = "device_key"
  }

  func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Any token's claims, each optional: what a signature-checked token says, before
/// `verifyAccessToken` decides whether it is a valid access token.
struct ReceivedClaims: JWTPayload {
  var sub: String?
  var iss: String?
  var clientId: String?
  var tokenUse: String?
  var scope: String?
  var authTime: Int?
  var exp: Int?
  var iat: Int?
  var jti: String?
  var username: String?
  var originJti: String?
  var eventId: String?
  var deviceKey: String?

  /// The access token's claim names (the same fields, each optional).
  typealias CodingKeys = AccessTokenPayload.CodingKeys

  func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The JWT header fields `verifyAccessToken` checks before the signature.
struct ReceivedHeader: Decodable {
  var alg: String?
  var kid: String?
}
