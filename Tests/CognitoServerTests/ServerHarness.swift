import CognitoServer
import CognitoWire
import Foundation
import SimulatedCognito

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How long a test's HTTP request may wait for an answer before it fails: a guard against a
/// hang, not a timing condition. The tests share two cores and Swift's cooperative threads with
/// Z3 and the explicit search in the same process, so an answer can wait minutes for a thread.
let hangGuard: TimeInterval = 600

/// Runs `body` with a server on 127.0.0.1 and a free port in front of `pool` (its control
/// endpoints too, when `control` is set), and stops the server after it, thrown or not.
func serving(
  _ pool: SimulatedUserPool, maxBodyBytes: Int = CognitoServer.defaultMaxBodyBytes,
  _ body: (CognitoServer, SimulatedUserPool) async throws -> Void
) async throws {
  let server = try await CognitoServer.start(backend: pool, port: 0, maxBodyBytes: maxBodyBytes)
  do {
    try await body(server, pool)
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
}

/// An HTTP answer as the test sees it: the status, the headers (names in lower case) and the
/// body read as a JSON object (nil when it is not one).
struct HTTPAnswer {
  let status: Int
  let headers: [String: String]
  let json: JSONObject?
}

/// Sends `request` with URLSession and waits for the whole answer.
func send(_ request: URLRequest) async throws -> HTTPAnswer {
  let (data, response): (Data, HTTPURLResponse) = try await withCheckedThrowingContinuation { continuation in
    URLSession.shared.dataTask(with: request) { data, response, error in
      if let error {
        continuation.resume(throwing: error)
      } else if let response = response as? HTTPURLResponse {
        continuation.resume(returning: (data ?? Data(), response))
      } else {
        continuation.resume(throwing: URLError(.badServerResponse))
      }
    }.resume()
  }
  var headers: [String: String] = [:]
  for (k, v) in response.allHeaderFields {
    if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
  }
  return HTTPAnswer(
    status: response.statusCode, headers: headers,
    json: (try? JSONDecoder().decode(JSONValue.self, from: data))?.object)
}

/// Serves a `SimulatedService` with control endpoints: one pool configured `settings` and its
/// user "user"; `body` gets the server, the service and the user. Configurations are not checked
/// against a model here: `resolve` passes the pool's and the user's settings through.
func servingService(
  _ settings: [String: String], seed: UInt64 = 0, time: Date = Date(timeIntervalSince1970: 1_767_225_600),
  minter: (any TokenMinting)? = nil, log: RequestLog? = nil,
  _ body: (CognitoServer, SimulatedService, SimulatedUserPool) async throws -> Void
) async throws {
  let service = SimulatedService(seed: seed, codes: .generated(clock: { time }), minter: minter)
  let ids = await service.createPool(configuration: settings)
  let user = try await service.putUser(poolId: ids.poolId, user: .init(), configuration: settings)
  let control = ServerControl(
    service: service,
    resolve: { pairs, pool in
      var configuration = pool ?? [:]
      for (name, value) in pairs { configuration[name] = value }
      return configuration
    }, log: log)
  let server = try await CognitoServer.start(backend: service, control: control, port: 0)
  do {
    try await body(server, service, user)
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
}
