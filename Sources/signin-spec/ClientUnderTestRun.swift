import AdapterFuzzing
import Conformance
import Dispatch
import Foundation
import SignInModel

#if canImport(Glibc)
  import Glibc
#endif

/// The client `fuzz` and `replay` check: the reference client in process (no adapter), or the
/// client behind `--adapter`, one adapter per job against pools served in this process. While
/// adapters run, SIGINT, SIGTERM and SIGHUP end them before this process exits (no orphans).
struct ClientUnderTestRun {
  /// The served pools and adapters (nil: the reference client in process).
  let pools: ServedPools?
  let workers: AdapterWorkers?
  private let signals: [DispatchSourceSignal]

  /// Starts `jobs` adapters of `adapter` (nil: none, the reference client in process) against
  /// pools served in this process, or against the `serve` at `endpoint`.
  static func start(
    _ adapter: String?, endpoint: URL? = nil, jobs: Int, model: SignInModel, timeLimit: Double
  ) async throws(ClientFailure) -> ClientUnderTestRun {
    guard let adapter else { return ClientUnderTestRun(pools: nil, workers: nil, signals: []) }
    var pools: ServedPools? = nil
    let workers: AdapterWorkers
    if let endpoint {
      let remote = RemotePools(endpoint: endpoint)
      workers = try await AdapterWorkers.start(
        command: adapter, count: jobs, endpoint: remote.endpoint, connection: { remote.connection() }, model: model,
        timeLimit: timeLimit)
    } else {
      let served: ServedPools
      do { served = try await ServedPools.start() } catch {
        throw ClientFailure("the pools for the adapter could not be served on 127.0.0.1: \(error)")
      }
      do {
        workers = try await AdapterWorkers.start(
          command: adapter, count: jobs, pools: served, model: model, timeLimit: timeLimit)
      } catch {
        await served.stop()
        throw error
      }
      pools = served
    }
    let signals = [SIGINT, SIGTERM, SIGHUP].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        interruption.begin()
        workers.close()
        signal(number, SIG_DFL)
        kill(getpid(), number)
      }
      source.resume()
      return source
    }
    return ClientUnderTestRun(pools: pools, workers: workers, signals: signals)
  }

  /// Ends the adapters (closing their stdin, then signals; see `AdapterProcess.close`) and
  /// stops answering signals for them. After a signal it never returns: the handler is ending
  /// the adapters and then this process, by the same signal (an exit now would leave them).
  func stop() {
    Self.waitIfInterrupted()
    for source in signals { source.cancel() }
    workers?.close()
  }
}

extension ClientUnderTestRun {
  /// Never returns once a signal is ending the run (so an adapter closed by the handler is not
  /// reported as misbehaving); returns at once otherwise.
  static func waitIfInterrupted() { interruption.waitIfBegun() }
}

/// Whether a signal is ending the run. `@unchecked Sendable` is safe: `begun` is read and
/// written only under `lock`.
private final class Interruption: @unchecked Sendable {
  private let lock = NSLock()
  private var begun = false

  func begin() { lock.withLock { begun = true } }

  /// Blocks forever once a signal handler has begun (it ends the process).
  func waitIfBegun() {
    guard lock.withLock({ begun }) else { return }
    while true { pause() }
  }
}

private let interruption = Interruption()
