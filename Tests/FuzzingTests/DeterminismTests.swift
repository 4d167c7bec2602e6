import ClientBugs
import Foundation
import Fuzzing
import SignInModel
import Testing

@Suite("Fuzz runs are the same for any split of the cases")
struct DeterminismTests {
  static let model = try! ModelLoader.load(file: "models/2026-all-platforms.yaml")
  static let bugs: Set<DeliberateBug> = [.wrongDeliveryMedium, .droppedChallengeParameters, .wrongErrorType]

  /// What a run found, as the files it would save: root cause, case and raw count.
  static func found(_ findings: [FuzzFinding]) -> [String] {
    findings.map { "\($0.rootCause) | \($0.index) | \($0.rawFailures) | \($0.fuzzCase.calls.map(\.label))" }.sorted()
  }

  static func split(_ runs: Int, parts: Int, offset: (Int) -> Int) async -> [FuzzFinding] {
    let fuzzer = Fuzzer(executor: CaseExecutor(model: model, hooks: DeliberateBug.hooks(for: bugs)))
    var all: [FuzzFinding] = []
    for part in 0..<parts {
      let indices = stride(from: offset(part), to: runs, by: parts)
      all += await fuzzer.run(seed: 5, indices: indices, deadline: nil).findings
    }
    return FuzzFinding.merged(all)
  }

  @Test("--jobs 1 and --jobs 3 give the same findings, counts and shrunk cases")
  func jobs() async {
    let one = await Self.split(600, parts: 1) { $0 }
    let three = await Self.split(600, parts: 3) { $0 }
    #expect(!one.isEmpty)
    #expect(Self.found(one) == Self.found(three))
  }

  @Test("the union of --shard 1/2 and 2/2 is the unsharded run")
  func shards() async {
    let whole = await Self.split(600, parts: 1) { $0 }
    let fuzzer = Fuzzer(executor: CaseExecutor(model: Self.model, hooks: DeliberateBug.hooks(for: Self.bugs)))
    let first = await fuzzer.run(seed: 5, indices: stride(from: 0, to: 600, by: 2), deadline: nil)
    let second = await fuzzer.run(seed: 5, indices: stride(from: 1, to: 600, by: 2), deadline: nil)
    let union = FuzzFinding.merged(first.findings + second.findings)
    #expect(Self.found(union) == Self.found(whole))
    let saved = union.map { CounterexampleFile(finding: $0, model: Self.model, client: "x", tool: "t").fileName }
      .sorted()
    let unsharded = whole.map { CounterexampleFile(finding: $0, model: Self.model, client: "x", tool: "t").fileName }
      .sorted()
    #expect(saved == unsharded)
  }
}
