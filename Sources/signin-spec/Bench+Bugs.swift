import ClientBugs
import Dispatch
import Foundation
import Fuzzing
import SignInModel

extension Bench {
  /// The deliberate-bug table: for each bug of the catalogue, how many cases and seconds
  /// `fuzz --seed S --jobs 1` needs to find it, the shrink time, and the shrunk length beside
  /// the shortest possible. Returns false when a bug was not found (the command exits 1).
  static func bugTable(model: SignInModel, seed: UInt64, runs: Int) async -> Bool {
    print("deliberate bugs on \(model.name): fuzz --seed \(seed) --jobs 1, first failure, up to \(runs) cases")
    print()
    print("| bug | cases to find | seconds to find | seconds to shrink | shrunk (calls) | shortest |")
    print("|---|---|---|---|---|---|")
    var allFound = true
    var worst = 0.0
    for bug in DeliberateBug.allCases {
      let fuzzer = Fuzzer(executor: CaseExecutor(model: model, hooks: bug.hooks))
      let started = DispatchTime.now()
      let summary = await fuzzer.run(
        seed: seed, indices: Array(0..<runs), deadline: nil, stopAtFirstFailure: true)
      let total = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
      guard let finding = summary.findings.first else {
        allFound = false
        print("| \(bug.rawValue) | not found in \(runs) | \(String(format: "%.3f", total)) | | | \(bug.shortest) |")
        continue
      }
      worst = max(worst, finding.secondsToFind)
      let shrink = total - finding.secondsToFind
      let within = finding.fuzzCase.calls.count <= bug.shortest + 1 ? "" : " (more than shortest + 1)"
      print(
        "| \(bug.rawValue) | \(finding.index + 1) | \(String(format: "%.3f", finding.secondsToFind)) | "
          + "\(String(format: "%.3f", shrink)) | \(finding.originalLength) → \(finding.fuzzCase.calls.count)\(within) | "
          + "\(bug.shortest) |")
    }
    print()
    print(String(format: "slowest to find: %.3f s (goal: under 5 s)", worst))
    return allFound
  }
}
