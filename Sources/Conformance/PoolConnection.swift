import CognitoWire
import SimulatedCognito

/// Where a run's client reaches its pool. By default the client calls the pool's actor in
/// process; a connection can instead put the pool behind something that serves it (for example
/// `signin-spec serve`'s HTTP endpoint), so the same cases check the client over the wire. The
/// harness keeps the pool's actor either way, to inject faults and read what the pool sent.
package struct PoolConnection: Sendable {
  /// What a run talks to: the pool's actor, the backend the client sends to, and the ids the
  /// client is configured with.
  package struct Endpoint: Sendable {
    package let pool: SimulatedUserPool
    package let backend: any CognitoBackend
    package let userPoolId: String
    package let clientId: String

    package init(pool: SimulatedUserPool, backend: any CognitoBackend, userPoolId: String, clientId: String) {
      self.pool = pool
      self.backend = backend
      self.userPoolId = userPoolId
      self.clientId = clientId
    }
  }

  /// Makes a pool (per-flow lifecycle, the pool's fixed codes) whose one user has the
  /// configuration, and says how the client reaches it.
  package let connect: @Sendable (_ configuration: [String: String]) async -> Endpoint

  package init(connect: @escaping @Sendable (_ configuration: [String: String]) async -> Endpoint) {
    self.connect = connect
  }
}
