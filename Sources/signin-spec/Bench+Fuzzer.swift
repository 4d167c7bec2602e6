import Dispatch
import Foundation
import Fuzzing
import ModelChecking
import SignInModel

extension Bench {
  /// The figures before the fuzzer's speed work, all on this 2-core AMD EPYC under
  /// other engineers' load: `bench --fuzzer` at a8565ae (CPU seconds; the oracle started from
  /// names and given responses by name, as that fuzzer drove it), `bench` at 9ce3b31
  /// (wall-clock seconds, README of that commit), `fuzz --seed 1 --runs 20000 --jobs 1` at
  /// 47cb7ad (CPU seconds, 2026 model only).
  static let previous: [String: String] = [
    "amplify-signin-2023": "a8565ae: 481466 transitions/s, 9558 sessions/s (CPU); 9ce3b31: 2976 sessions/s (wall)",
    "amplify-signin-2024": "a8565ae: 406910 transitions/s, 9374 sessions/s (CPU); 9ce3b31: 3340 sessions/s (wall)",
    "amplify-signin-2026": "a8565ae: 359519 transitions/s, 8655 sessions/s (CPU); 47cb7ad: 328 sessions/s (CPU)",
  ]

  /// SRP cases `fuzzerTable` times per model (about 15 ms each).
  static let srpCases = 40

  /// CPU seconds this process has used (all threads).
  static func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The fuzzer, one worker: model transitions per CPU second (the oracle alone: a
  /// `ModelSimulator` per drawn configuration on one shared context, started from the drawn
  /// values and given responses in turn by index, as the fuzzer's generator and harness call
  /// it) and client sessions per CPU second (`Fuzzer.run` over 20,000 cases without SRP,
  /// `--srp-share 0`: generation, the client on the simulated pool, the full comparison),
  /// beside the previous figures; then SRP
  /// cases per CPU second (`srpCases` cases at `--srp-share 1`: SRP flows and device tracking,
  /// each sign-in a 3072-bit SRP exchange on both sides). CPU time, so other load on the
  /// machine changes the figures less than wall-clock time would.
  static func fuzzerTable(_ models: [SignInModel]) async {
    print("fuzzer, 1 worker, per CPU second (goals: 1,000,000 transitions/s, 50,000 sessions/s)")
    print(
      "model                        transitions/s  sessions/s  calls/s    wall s  SRP sessions/s (\(srpCases))  before")
    for model in models {
      var rng = SplitMix64(seed: 1)
      let valued: [[Int]]
      do { valued = try Fuzzer.sampleConfigurationValues(model, count: 200, rng: &rng) } catch {
        print("\(model.name): \(error)")
        continue
      }
      let system = TransitionSystem(model: model)
      // The oracle as the fuzzer's generator and harness drive it: one shared context, responses
      // by index.
      let context = ModelSimulator.Context(system)
      let responses = model.steps.map { $0.responses.map(\.response) }
      let terminal = context.terminal
      let oracleStart = cpuSeconds()
      var transitions = 0
      for round in 0..<50 {
        for values in valued {
          guard var oracle = try? ModelSimulator(context: context, configurationValues: values, recordsTrace: false)
          else { continue }
          for _ in 0..<10 {
            guard let s = oracle.step, !terminal[s] else { break }
            let r = responses[s][(round + transitions) % responses[s].count]
            guard (try? oracle.respond(responseIndex: r)) != nil else { break }
            transitions += 1
          }
        }
      }
      let oracleSeconds = cpuSeconds() - oracleStart
      let started = DispatchTime.now()
      let sessionStart = cpuSeconds()
      let summary = await Fuzzer(executor: CaseExecutor(model: model), srpShare: 0).run(
        seed: 1, indices: Array(0..<20_000), deadline: nil)
      let sessionSeconds = cpuSeconds() - sessionStart
      let wall = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
      let srpStart = cpuSeconds()
      let srp = await Fuzzer(executor: CaseExecutor(model: model), srpShare: 1).run(
        seed: 1, indices: Array(0..<srpCases), deadline: nil)
      let srpSeconds = cpuSeconds() - srpStart
      print(
        model.name.padding(toLength: 29, withPad: " ", startingAt: 0)
          + String(
            format: "%-14.0f %-11.0f %-10.0f %-7.1f %-20.1f ", Double(transitions) / max(oracleSeconds, 1e-9),
            Double(summary.cases) / max(sessionSeconds, 1e-9), Double(summary.calls) / max(sessionSeconds, 1e-9), wall,
            Double(srp.srpCases) / max(srpSeconds, 1e-9))
          + (previous[model.name] ?? "not measured"))
    }
  }
}
