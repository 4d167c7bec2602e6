import CognitoServer
import CognitoWire
import NIOCore
import NIOPosix
import SignInClient
import SimulatedCognito
import Testing

/// A client that goes away while its request is being answered: the answer, written later to
/// a closed connection, is dropped, and the server goes on serving.
@Suite("A client that goes away mid-request")
struct ClientGoneTests {
  /// The pool, except that a request with `"Hold": true` waits for `release` before its answer.
  struct Gate: CognitoBackend {
    let pool: SimulatedUserPool
    let arrived: AsyncStream<Void>.Continuation
    let releases: AsyncStream<Void>

    func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject {
      guard request["Hold"] == .bool(true) else { return try await pool.send(operation, request) }
      arrived.yield()
      for await _ in releases { break }
      return ["Held": .bool(true)]
    }
  }

  @Test("the answer to a closed connection is dropped, and the next sign-in succeeds")
  func clientGone() async throws {
    let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
    let (releases, release) = AsyncStream.makeStream(of: Void.self)
    let gate = Gate(pool: SimulatedUserPool(configuration: [:]), arrived: arrived, releases: releases)
    let server = try await CognitoServer.start(backend: gate, host: "127.0.0.1", port: 0)

    let connection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connect(host: "127.0.0.1", port: server.port).get()
    let request =
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Target: AWSCognitoIdentityProviderService.InitiateAuth\r\n"
      + "Content-Type: application/x-amz-json-1.1\r\nContent-Length: 13\r\n\r\n{\"Hold\":true}"
    try await connection.writeAndFlush(connection.allocator.buffer(string: request)).get()
    for await _ in arrivals { break }
    try await connection.close().get()
    await server.connectionsClosed()
    release.yield()

    let client = SignInClient(
      backend: HTTPCognitoBackend(endpoint: server.endpoint, timeout: hangGuard), clientId: "c",
      userPoolId: SimulatedUserPool.poolId)
    let result = try await client.signIn(
      username: SimulatedUserPool.username, password: SimulatedUserPool.password,
      options: SignInOptions(authFlow: .userPassword))
    #expect(result.isSignedIn)
    await server.stop()
  }
}
