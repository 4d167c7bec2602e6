import CognitoTokens
import Foundation
import SimulatedCognito

/// `signin-spec serve`'s token signer: `TokenIssuer` (RS256 JWTs) for the service's sign-ins. The
/// issuer of a pool's tokens is the server's URL followed by `/<poolId>`, known once it listens.
package actor JWTMinter: TokenMinting {
  private let issuer: TokenIssuer
  private var endpoint = "http://127.0.0.1"
  private let clock: @Sendable () -> Date

  package init(privateKeyPEM: String?, clock: @escaping @Sendable () -> Date) async throws {
    issuer = try await TokenIssuer(privateKeyPEM: privateKeyPEM, clock: clock)
    self.clock = clock
  }

  package func setEndpoint(_ url: String) { endpoint = url }

  package nonisolated func jwks() -> String { issuer.jwks() }

  package func mint(
    poolId: String, clientId: String, username: String, sub: String, deviceKey: String?, attributes: [String: String]
  ) async throws -> MintedTokens {
    let tokens = try await issuer.issue(
      TokenSubject(
        issuer: "\(endpoint)/\(poolId)", clientId: clientId, username: username, sub: sub, deviceKey: deviceKey,
        email: attributes["email"], phoneNumber: attributes["phone_number"], issuedAt: clock()))
    return MintedTokens(
      idToken: tokens.idToken, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
      expiresIn: tokens.expiresIn)
  }

  package func check(accessToken: String) async -> (poolId: String, username: String)? {
    // The pool is named by the token's issuer; the signature, issuer and expiry are checked.
    guard let iss = Self.unverifiedIssuer(accessToken), iss.hasPrefix(endpoint + "/") else { return nil }
    let poolId = String(iss.dropFirst(endpoint.count + 1))
    guard !poolId.isEmpty, !poolId.contains("/"),
      let claims = try? await issuer.verifyAccessToken(accessToken, issuer: iss, clientId: nil)
    else { return nil }
    return (poolId, claims.username)
  }

  /// The `iss` claim of a JWT, read without checking it (to know which issuer to check it for).
  static func unverifiedIssuer(_ token: String) -> String? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[1].count < 16_384 else { return nil }
    var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    text += String(repeating: "=", count: (4 - text.count % 4) % 4)
    guard let data = Data(base64Encoded: text),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return nil }
    return object["iss"] as? String
  }
}
