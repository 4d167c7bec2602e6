import CognitoServer
import CognitoWire
import Conformance
import Foundation
import SimulatedCognito

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `signin-spec serve` elsewhere (`fuzz --endpoint URL`): each case's pool and user are made
/// through its control endpoints (`POST /_signin-spec/pools` with the per-flow lifecycle and
/// fixed codes, `PUT …/users/user`), its faults injected and its state read through
/// `…/users/user/inject` and `…/state`, and the case's pool deleted once the next one is made.
/// The server must serve the fuzzer's model (its variables are checked there).
package struct RemotePools: Sendable {
  let control: ControlClient

  /// `endpoint`: the server's URL (`http://127.0.0.1:9229`); `requestTimeout`: how long one
  /// control request may take.
  package init(endpoint: URL, requestTimeout: TimeInterval = 30) {
    control = ControlClient(endpoint: endpoint, timeout: requestTimeout)
  }

  package var endpoint: String { control.endpoint.absoluteString }

  /// A connection for one worker, as `ServedPools.connection` makes in process.
  package func connection(requestTimeout: TimeInterval = 20) -> PoolConnection {
    let control = self.control
    let backend = HTTPCognitoBackend(endpoint: control.endpoint, timeout: requestTimeout)
    let previous = LastPool()
    return PoolConnection { configuration throws(ClientFailure) in
      if let old = previous.take() { _ = try await control.send("DELETE", "pools/\(old)", nil) }
      let implemented = configuration.filter { SimulatedUserPool.implementedVariables.contains($0.key) }
      let pool = try await control.send(
        "POST", "pools",
        [
          "set": .object(implemented.filter { $0.key.hasPrefix("pool.") }.mapValues { .string($0) }),
          "lifecycle": .string("perFlow"), "codes": .string("fixed"),
        ])
      guard let poolId = pool.object?["poolId"]?.string, let clientId = pool.object?["clientId"]?.string else {
        throw control.failure("POST pools", "answered without poolId and clientId")
      }
      previous.set(poolId)
      let username = SimulatedUserPool.username
      if configuration["user.exists"] != "false" {
        let user = implemented.filter { $0.key.hasPrefix("user.") && $0.key != "user.exists" }
        _ = try await control.send(
          "PUT", "pools/\(poolId)/users/\(username)",
          ["password": .string(SimulatedUserPool.password), "set": .object(user.mapValues { .string($0) })])
      }
      return PoolConnection.Endpoint(
        pool: RemotePool(control: control, poolId: poolId, username: username), backend: backend,
        userPoolId: poolId, clientId: clientId)
    }
  }
}

/// A user of a pool of a `serve` elsewhere, as the harness controls it.
final class RemotePool: PoolControl {
  let control: ControlClient
  let poolId: String
  let username: String
  /// Remote pools start without a remembered device (the fuzzer draws none for an adapter).
  var configuredDevice: RememberedDeviceSecret? { nil }

  init(control: ControlClient, poolId: String, username: String) {
    self.control = control
    self.poolId = poolId
    self.username = username
  }

  private func inject(_ action: HarnessControl.Action) async throws(ClientFailure) {
    _ = try await control.send("POST", "pools/\(poolId)/users/\(username)/inject", HarnessControl.encode(action))
  }

  func injectUnknownChallenge() async throws(ClientFailure) { try await inject(.unknownChallenge) }
  func injectDeviceChallenge() async throws(ClientFailure) { try await inject(.deviceChallenge) }
  /// A timeout is injected as a connection closed without an answer, as `ServedPools` serves it
  /// in process: a `serve` started without `--timeout-fault-seconds 0` would otherwise hold the
  /// connection for its 30 s.
  func injectFault(_ kind: SimulatedFault, onRequest request: Int) async throws(ClientFailure) {
    try await inject(.fault(kind == .timeout ? .transport : kind, onRequest: request))
  }
  func injectFault(operation: String, _ fault: SimulatedUserPool.OperationFault, count: Int)
    async throws(ClientFailure)
  {
    try await inject(.operationFault(operation, fault == .fault(.timeout) ? .fault(.transport) : fault, count: count))
  }
  func injectError(_ type: String, onRequest request: Int) async throws(ClientFailure) {
    try await inject(.error(type, onRequest: request))
  }
  func expireSessions() async throws(ClientFailure) { try await inject(.expireSessions) }
  func changeStatus(to status: String) async throws(ClientFailure) { try await inject(.changeStatus(status)) }

  func state() async throws(ClientFailure) -> SimulatedUserPool.State {
    let path = "pools/\(poolId)/users/\(username)/state"
    guard let state = HarnessControl.state(try await control.send("GET", path, nil)) else {
      throw control.failure("GET \(path)", "answered a state without faultFired, lastChallengeParameters, …")
    }
    return state
  }
}

/// JSON requests to a server's control endpoints (`/_signin-spec/…`), one connection each.
struct ControlClient: Sendable {
  let endpoint: URL
  let timeout: TimeInterval

  func failure(_ request: String, _ what: String) -> ClientFailure {
    ClientFailure(
      "the endpoint \(endpoint.absoluteString) \(what) (\(request)); is it `signin-spec serve` for this model?")
  }

  /// Sends `body` to `/_signin-spec/<path>`; answers the JSON of a 200.
  func send(_ method: String, _ path: String, _ body: JSONObject?) async throws(ClientFailure) -> JSONValue {
    let url = endpoint.appendingPathComponent("_signin-spec").appendingPathComponent(path)
    var request = URLRequest(url: url, timeoutInterval: timeout)
    request.httpMethod = method
    request.setValue("close", forHTTPHeaderField: "Connection")
    if let body {
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.httpBody = Data(CognitoExchange.encode(.object(body)))
    }
    let name = "\(method) /_signin-spec/\(path)"
    let answer: (Data, Int)
    do {
      answer = try await withCheckedThrowingContinuation { continuation in
        URLSession.shared.dataTask(with: request) { data, response, error in
          if let error {
            continuation.resume(throwing: error)
          } else {
            continuation.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
          }
        }.resume()
      }
    } catch {
      throw failure(name, "did not answer: \(error.localizedDescription)")
    }
    let value = try? JSONDecoder().decode(JSONValue.self, from: answer.0)
    guard answer.1 == 200, let value else {
      let said = value?.object?["error"]?.string ?? String(decoding: answer.0.prefix(200), as: UTF8.self)
      throw failure(name, "answered HTTP \(answer.1): \(said)")
    }
    return value
  }
}
