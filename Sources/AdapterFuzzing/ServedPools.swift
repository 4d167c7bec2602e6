import CognitoServer
import CognitoWire
import Conformance
import Foundation
import SimulatedCognito

/// `signin-spec serve` in process for a client under test: a `SimulatedService` behind a
/// `CognitoServer` on 127.0.0.1 (a free port), tokens signed with a key made at start. Each
/// connection makes a pool per case (per-flow users, the pool's fixed codes), the one pool
/// the fuzzer uses (the harness keeps its actor to inject faults and read what it sent).
package final class ServedPools: Sendable {
  package let service: SimulatedService
  package let server: CognitoServer

  /// The endpoint clients are given (`http://127.0.0.1:PORT`, no trailing slash).
  package var endpoint: String { String(server.endpoint.absoluteString.dropLast()) }

  private init(service: SimulatedService, server: CognitoServer) {
    self.service = service
    self.server = server
  }

  /// Starts the server. A timeout fault closes the connection at once, so no run waits on a
  /// clock (a client sees a connection that ended without an answer, as after a timeout).
  package static func start(seed: UInt64 = 7) async throws -> ServedPools {
    let minter = try await JWTMinter(privateKeyPEM: nil, clock: { Date() })
    let service = SimulatedService(seed: seed, codes: .fixed, minter: minter)
    // The control endpoints too: the key set a client verifies its tokens with (pycognito
    // fetches `<endpoint>/<poolId>/.well-known/jwks.json`), the outbox, the harness's endpoints.
    // Settings pass through: the fuzzer's configurations were checked against its model.
    let control = ServerControl(
      service: service,
      resolve: { pairs, pool in
        var configuration = pool ?? [:]
        for (name, value) in pairs { configuration[name] = value }
        return configuration
      }, jwks: { minter.jwks() })
    let server = try await CognitoServer.start(
      backend: service, control: control, host: "127.0.0.1", port: 0, timeoutFaultSeconds: 0)
    await minter.setEndpoint(String(server.endpoint.absoluteString.dropLast()))
    return ServedPools(service: service, server: server)
  }

  /// A connection for one worker: each `connect` makes a new pool with the case's configuration
  /// and its user (or none, for `user.exists: false`), and removes the pool of the worker's
  /// previous case.
  package func connection(requestTimeout: TimeInterval = 20) -> PoolConnection {
    let service = self.service
    let backend = HTTPCognitoBackend(endpoint: server.endpoint, timeout: requestTimeout)
    let previous = LastPool()
    return PoolConnection { configuration in
      if let old = previous.take() { await service.removePool(old) }
      let ids = await service.createPool(configuration: configuration, lifecycle: .perFlow)
      previous.set(ids.poolId)
      var pool = await service.nobody(poolId: ids.poolId)
      if configuration["user.exists"] != "false" {
        pool = try? await service.putUser(
          poolId: ids.poolId, user: SimulatedUserPool.User(), configuration: configuration)
      }
      guard let pool else { preconditionFailure("the service has the pool it just made") }
      return PoolConnection.Endpoint(pool: pool, backend: backend, userPoolId: ids.poolId, clientId: ids.clientId)
    }
  }

  package func stop() async { await server.stop() }
}
