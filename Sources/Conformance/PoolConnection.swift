import CognitoWire
import SimulatedCognito

/// Where a run's client reaches its pool. By default the client calls the pool's actor in
/// process; a connection can instead put the pool behind something that serves it (for example
/// `signin-spec serve`'s HTTP endpoint), so the same cases check the client over the wire. The
/// harness controls the pool either way (`PoolControl`), to inject faults and read what it sent.
package struct PoolConnection: Sendable {
  /// What a run talks to: the pool's actor, the backend the client sends to, and the ids the
  /// client is configured with.
  package struct Endpoint: Sendable {
    package let pool: any PoolControl
    package let backend: any CognitoBackend
    package let userPoolId: String
    package let clientId: String

    package init(pool: any PoolControl, backend: any CognitoBackend, userPoolId: String, clientId: String) {
      self.pool = pool
      self.backend = backend
      self.userPoolId = userPoolId
      self.clientId = clientId
    }
  }

  /// Makes a pool (per-flow lifecycle, the pool's fixed codes) whose one user has the
  /// configuration, and says how the client reaches it.
  /// - Throws: the pool could not be made (a `serve` elsewhere refused or did not answer).
  package let connect: @Sendable (_ configuration: [String: String]) async throws(ClientFailure) -> Endpoint

  package init(
    connect: @escaping @Sendable (_ configuration: [String: String]) async throws(ClientFailure) -> Endpoint
  ) {
    self.connect = connect
  }
}
