import CognitoWire
import Foundation

/// `GET /<poolId>/.well-known/jwks.json`: the keys that verify the pool's ID and access tokens,
/// where clients that check tokens (pycognito, aws-jwt-verify) fetch them, as from
/// `https://cognito-idp.<region>.amazonaws.com/<poolId>/.well-known/jwks.json`.
enum KeySetExchange {
  static func answer(uri: String, control: ServerControl?, jwks: @Sendable () async -> String) async
    -> CognitoExchange.Reply
  {
    let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
    let poolId = String(path.dropFirst().dropLast("/.well-known/jwks.json".count))
    guard let control, !poolId.isEmpty, !poolId.contains("/"), await control.service.hasPool(poolId) else {
      return ControlExchange.error(404, "no pool \(poolId): the key set is at /<poolId>/.well-known/jwks.json")
    }
    return .answer(status: 200, headers: [("Content-Type", "application/json")], body: Array(await jwks().utf8))
  }
}
