import CognitoWire
import Foundation
import SimulatedCognito

/// What `signin-spec serve` gives the server besides Cognito's protocol: the pools and users
/// behind it, the check of a configuration (the model's variables), the JWKS and the request log.
package struct ServerControl: Sendable {
  /// Checks the `set` of a new pool (`pool` nil) or of a user of the pool configured `pool`:
  /// answers the whole configuration, or throws a `ConfigurationProblem` naming the variable.
  package typealias Resolve =
    @Sendable (_ settings: [(name: String, value: String)], _ pool: [String: String]?)
    throws -> [String: String]

  package let service: SimulatedService
  package let resolve: Resolve
  /// The JSON Web Key Set of the token signer (nil: tokens are not signed).
  package let jwks: (@Sendable () async -> String)?
  /// Where each Cognito request is logged (nil: not logged).
  package let log: RequestLog?

  package init(
    service: SimulatedService, resolve: @escaping Resolve, jwks: (@Sendable () async -> String)? = nil,
    log: RequestLog? = nil
  ) {
    self.service = service
    self.resolve = resolve
    self.jwks = jwks
    self.log = log
  }
}

/// A message naming what is wrong with a configuration (`ServerControl.Resolve`).
package struct ConfigurationProblem: Error, Sendable {
  package let message: String
  package init(_ message: String) { self.message = message }
}
