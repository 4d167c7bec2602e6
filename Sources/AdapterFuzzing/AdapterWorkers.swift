import ClientAdapters
import Conformance
import Fuzzing
import SignInModel

/// The fuzzer's workers on a client behind an adapter (docs/guide/adapters.md): one adapter
/// process per worker (the protocol has one request in flight), all against one `ServedPools`,
/// each with the executor that drives it.
package struct AdapterWorkers: Sendable {
  package let sessions: [AdapterSession]
  package let executors: [CaseExecutor]

  /// What every adapter declared (the first one's `hello`: they run the same command).
  package var profile: ClientProfile { sessions[0].profile }

  /// Starts `count` adapters of `command` for `model`, each given `pools`' endpoint.
  /// - Throws: an adapter could not be started or answered `hello` wrongly (the others are closed).
  package static func start(
    command: String, count: Int, pools: ServedPools, model: SignInModel,
    timeLimit: Double = AdapterProcess.defaultTimeLimit
  ) async throws(ClientFailure) -> AdapterWorkers {
    try await start(
      command: command, count: count, endpoint: pools.endpoint, connection: { pools.connection() }, model: model,
      timeLimit: timeLimit)
  }

  /// Starts `count` adapters of `command` for `model`, each given `endpoint` in `hello` and its
  /// own `connection()` (a `serve` elsewhere: `RemotePools`).
  package static func start(
    command: String, count: Int, endpoint: String, connection: () -> PoolConnection, model: SignInModel,
    timeLimit: Double = AdapterProcess.defaultTimeLimit
  ) async throws(ClientFailure) -> AdapterWorkers {
    var sessions: [AdapterSession] = []
    var executors: [CaseExecutor] = []
    for _ in 0..<max(1, count) {
      let session: AdapterSession
      do {
        session = try await AdapterSession(command: command, endpoint: endpoint, model: model, timeLimit: timeLimit)
      } catch {
        for started in sessions { started.close() }
        throw error
      }
      sessions.append(session)
      executors.append(
        CaseExecutor(
          harness: Harness(
            model: model, connection: connection(), client: session.makeClient, profile: session.profile)))
    }
    return AdapterWorkers(sessions: sessions, executors: executors)
  }

  /// Ends every adapter (see `AdapterProcess.close`).
  package func close() {
    for session in sessions { session.close() }
  }
}
