import ClientBugs
import CognitoServer
import CognitoWire
import Conformance
import Foundation
import Fuzzing
import SignInModel
import SimulatedCognito
import Testing

/// The fuzzer's cases on the 2026 model, run once with the reference client calling the pool in
/// process and once with the same client reaching the same pool through `signin-spec serve`'s
/// HTTP endpoint (Cognito's JSON 1.1 protocol, botocore's request checks, signed tokens, faults
/// as closed connections and 500s): every case must take the same transitions to the same
/// verdicts, so what the in-process fuzzer proves of the client holds on the wire.
@Suite("The reference client over HTTP")
struct ReferenceClientOverHTTPTests {
  static let model = try! ModelLoader.load(file: "models/2026-all-platforms.yaml")
  static let keyPEM = try! String(contentsOfFile: "Tests/Fixtures/signing-key.pem", encoding: .utf8)

  /// Runs `body` with a server in front of a service whose pools the connection makes, one per
  /// case (per-flow users, the pool's fixed codes, tokens signed with the test key; a `timeout`
  /// fault closes the connection at once, so no test waits on a clock).
  func overHTTP(_ body: (PoolConnection) async throws -> Void) async throws {
    let minter = try await JWTMinter(privateKeyPEM: Self.keyPEM, clock: { Date() })
    let service = SimulatedService(seed: 7, codes: .fixed, minter: minter)
    let server = try await CognitoServer.start(backend: service, port: 0, timeoutFaultSeconds: 0)
    await minter.setEndpoint(server.endpoint.absoluteString)
    let backend = HTTPCognitoBackend(endpoint: server.endpoint, timeout: hangGuard)
    let connection = PoolConnection { configuration in
      let ids = await service.createPool(configuration: configuration, lifecycle: .perFlow)
      var pool = await service.nobody(poolId: ids.poolId)
      if configuration["user.exists"] != "false" {
        pool = try? await service.putUser(
          poolId: ids.poolId, user: SimulatedUserPool.User(), configuration: configuration)
      }
      guard let pool else { preconditionFailure("the service has the pool it just made") }
      return PoolConnection.Endpoint(pool: pool, backend: backend, userPoolId: ids.poolId, clientId: ids.clientId)
    }
    do {
      try await body(connection)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  @Test("every case takes the same transitions to the same verdicts as in process, with no disagreement")
  func sameTransitionsAsInProcess() async throws {
    let cases = 0..<3_000
    let local = await Fuzzer(executor: CaseExecutor(model: Self.model)).run(seed: 11, indices: cases, deadline: nil)
    try await overHTTP { connection in
      let served = await Fuzzer(executor: CaseExecutor(model: Self.model, connection: connection)).run(
        seed: 11, indices: cases, deadline: nil)
      #expect(served.findings.isEmpty, "\(served.findings.first?.execution.message ?? "")")
      #expect(served.cases == local.cases)
      #expect(served.calls == local.calls)
      #expect(served.covered == local.covered)
      let missing = Set(local.covered.keys).subtracting(served.covered.keys).sorted()
      #expect(missing.isEmpty, "covered in process only: \(missing.prefix(5))")
    }
    #expect(local.findings.isEmpty)
    #expect(
      local.covered.count >= 80, "the run covers \(local.covered.count) of \(local.allTransitions.count) transitions")
  }

  @Test(
    "SRP cases (USER_SRP_AUTH, CUSTOM_AUTH with SRP_A, PASSWORD_SRP, remembered devices) run over HTTP as in process")
  func srpCasesAsInProcess() async throws {
    let cases = 0..<40
    let local = await Fuzzer(executor: CaseExecutor(model: Self.model), srpShare: 1).run(
      seed: 13, indices: cases, deadline: nil)
    try await overHTTP { connection in
      let served = await Fuzzer(executor: CaseExecutor(model: Self.model, connection: connection), srpShare: 1).run(
        seed: 13, indices: cases, deadline: nil)
      #expect(served.findings.isEmpty, "\(served.findings.first?.execution.message ?? "")")
      #expect(served.srpCases == cases.count)
      #expect(served.calls == local.calls)
      #expect(served.covered == local.covered)
    }
    #expect(local.findings.isEmpty)
    #expect(local.srpCases == cases.count)
  }

  @Test("a deliberately broken client is caught over HTTP as in process, with the same shrunk counterexample")
  func brokenClientCaught() async throws {
    let bug = DeliberateBug.offersUnusableType
    let cases = 0..<300
    let local = await Fuzzer(executor: CaseExecutor(model: Self.model, hooks: bug.hooks)).run(
      seed: 5, indices: cases, deadline: nil, stopAtFirstFailure: true)
    let found = try #require(local.findings.first, "the in-process fuzzer finds \(bug)")
    try await overHTTP { connection in
      let served = await Fuzzer(executor: CaseExecutor(model: Self.model, hooks: bug.hooks, connection: connection))
        .run(seed: 5, indices: cases, deadline: nil, stopAtFirstFailure: true)
      let shown = try #require(served.findings.first, "the fuzzer over HTTP finds \(bug)")
      #expect(shown.rawCause == found.rawCause)
      #expect(shown.fuzzCase == found.fuzzCase)
      #expect(shown.execution.message == found.execution.message)
    }
  }
}
