import AdapterFuzzing
import ClientAdapters
import ClientBugs
import Conformance
import Dispatch
import Foundation
import Fuzzing
import SignInClient
import SignInModel

extension Bench {
  /// `signin-spec-adapter`, next to this executable.
  static var referenceAdapter: String {
    let folder = Bundle.main.executableURL?.deletingLastPathComponent() ?? URL(fileURLWithPath: ".build/release")
    return folder.appendingPathComponent("signin-spec-adapter").path
  }

  /// The table adapter (`scripts/table-adapter.py`): the protocol alone, no client behind it.
  static let tableAdapter = "python3 scripts/table-adapter.py"

  static func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }

  /// Calls per second through adapters on USER_PASSWORD_AUTH without MFA, one adapter at a time
  /// against pools served in this process (a new pool per sign-in, as the fuzzer makes them):
  /// first the reference client in process calling `serve` over HTTP (a call through serve, the
  /// yardstick), then each adapter with `reset`, `signIn`, `signOut` per sign-in. The table
  /// adapter's time per call is what the protocol adds to a call through serve (goal: at most
  /// 20 %); a real client's calls/s is its own speed behind the protocol (goal for boto3: 500).
  /// Returns false when an adapter misbehaved.
  static func adapterTable(adapters: [String], signIns: Int) async throws -> Bool {
    let pools = try await ServedPools.start()
    defer { Task { await pools.stop() } }
    let connection = pools.connection()
    let configuration = ["pool.authFlow": "userPassword"]
    print(
      "adapters on USER_PASSWORD_AUTH without MFA, \(signIns) sign-ins each, one at a time, pools served in process")
    print()
    print("| client | calls/s | ms per call | ms per signIn | signIn / a call through serve |")
    print("|---|---|---|---|---|")
    var serveCall = 0.0
    for _ in 0..<signIns {
      let endpoint = try await connection.connect(configuration)
      let client = SignInClient(backend: endpoint.backend, clientId: endpoint.clientId, userPoolId: endpoint.userPoolId)
      let start = DispatchTime.now()
      _ = try? await client.signIn(
        username: "user", password: "Passw0rd!", options: SignInOptions(authFlow: .userPassword))
      serveCall += seconds(since: start)
    }
    serveCall /= Double(signIns)
    print(
      String(
        format: "| reference client in process, over HTTP (a call through serve) | %.0f | %.3f | %.3f | 1.00 |",
        1 / serveCall, serveCall * 1000, serveCall * 1000))
    var allAnswered = true
    for command in adapters {
      let process: AdapterProcess
      do {
        process = try AdapterProcess(command)
        _ = try await process.hello(endpoint: pools.endpoint)
      } catch {
        print("| `\(command)` | misbehaved: \(error.summary) | | | |")
        allAnswered = false
        continue
      }
      var calls = 0
      var callSeconds = 0.0
      var signInSeconds = 0.0
      do {
        for _ in 0..<signIns {
          let endpoint = try await connection.connect(configuration)
          let start = DispatchTime.now()
          _ = try await process.reset(
            poolId: endpoint.userPoolId, clientId: endpoint.clientId, username: "user", password: "Passw0rd!")
          let signingIn = DispatchTime.now()
          let observed = try await process.signIn(
            username: "user", password: "Passw0rd!", options: SignInRequestOptions(authFlow: .userPassword))
          signInSeconds += seconds(since: signingIn)
          _ = try await process.signOut()
          callSeconds += seconds(since: start)
          calls += 3
          if observed.step == nil || observed.error != nil {
            print("| `\(command)` | its signIn did not sign in: \(observed.error?.type ?? "no step") | | | |")
            allAnswered = false
            break
          }
        }
      } catch {
        print("| `\(command)` | misbehaved: \(error) | | | |")
        allAnswered = false
      }
      process.close()
      guard calls > 0 else { continue }
      let perCall = callSeconds / Double(calls)
      print(
        String(
          format: "| `%@` | %.0f | %.3f | %.3f | %.2f |", command, 1 / perCall, perCall * 1000,
          signInSeconds / Double(calls / 3) * 1000, signInSeconds / Double(calls / 3) / serveCall))
    }
    print()
    print(
      "the table adapter answers without calling anything: its signIn is what the protocol adds to a call through "
        + "serve (goal: at most 0.20); goal for boto3: 500 calls/s")
    return allAnswered
  }

  /// The deliberate-bug table through the reference adapter beside in process: for each bug, the
  /// cases and seconds `fuzz --seed S --jobs 1` needs to find it either way. In process the
  /// harness draws what the adapter can run (no remembered device), so both run the same cases.
  /// Returns false when a bug was not found through the adapter.
  static func adapterBugTable(model: SignInModel, seed: UInt64, runs: Int) async throws -> Bool {
    print(
      "deliberate bugs on \(model.name) through `signin-spec-adapter --client BUG` and in process: fuzz --seed \(seed) "
        + "--jobs 1, first failure, up to \(runs) cases")
    print()
    print("| bug | cases (in process) | s (in process) | cases (adapter) | s (adapter) | adapter / in process |")
    print("|---|---|---|---|---|---|")
    let pools = try await ServedPools.start()
    defer { Task { await pools.stop() } }
    var allFound = true
    for bug in DeliberateBug.allCases {
      let workers: AdapterWorkers
      do {
        workers = try await AdapterWorkers.start(
          command: AdapterCommand(program: referenceAdapter, arguments: ["--client", bug.rawValue]).text, count: 1,
          pools: pools, model: model)
      } catch {
        print("| \(bug.rawValue) | | | adapter misbehaved: \(error) | | |")
        allFound = false
        continue
      }
      let local = await Fuzzer(
        executor: CaseExecutor(harness: Harness(model: model, hooks: bug.hooks, profile: workers.profile))
      ).run(seed: seed, indices: 0..<runs, deadline: nil, stopAtFirstFailure: true)
      let served = await Fuzzer(executor: workers.executors[0]).run(
        seed: seed, indices: 0..<runs, deadline: nil, stopAtFirstFailure: true)
      workers.close()
      func cell(_ summary: FuzzSummary) -> (String, String, Double?) {
        guard let finding = summary.findings.first else { return ("not found", "", nil) }
        return ("\(finding.index + 1)", String(format: "%.3f", finding.secondsToFind), finding.secondsToFind)
      }
      let (inCases, inSeconds, a) = cell(local)
      let (adCases, adSeconds, b) = cell(served)
      if served.findings.isEmpty { allFound = false }
      let ratio = a.flatMap { a in b.map { String(format: "%.0f×", $0 / max(a, 1e-6)) } } ?? ""
      print("| \(bug.rawValue) | \(inCases) | \(inSeconds) | \(adCases) | \(adSeconds) | \(ratio) |")
    }
    return allFound
  }
}
