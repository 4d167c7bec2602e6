import ClientBugs
import Foundation
import ModelChecking
import SignInClient
import SignInModel
import Testing

@testable import Fuzzing

@Suite("The fuzzer")
struct FuzzerTests {
  static let model = try! ModelLoader.load(file: "models/2026-all-platforms.yaml")

  @Test("the reference client passes a seeded run, and the run covers most transitions")
  func referencePasses() async {
    let fuzzer = Fuzzer(executor: CaseExecutor(model: Self.model))
    let summary = await fuzzer.run(seed: 42, indices: Array(0..<3_000), deadline: nil)
    #expect(summary.findings.isEmpty, "\(summary.findings.first?.execution.message ?? "")")
    #expect(summary.cases == 3_000)
    #expect(summary.covered.count >= 80, "covered \(summary.covered.count) of \(summary.allTransitions.count)")
  }

  @Test(
    "every broken client of the catalogue is found, shrunk, and its case replays", arguments: DeliberateBug.allCases)
  func catalogue(bug: DeliberateBug) async throws {
    let broken = CaseExecutor(model: Self.model, hooks: bug.hooks)
    let summary = await Fuzzer(executor: broken).run(
      seed: 3, indices: Array(0..<20_000), deadline: nil, stopAtFirstFailure: true)
    let finding = try #require(summary.findings.first, "\(bug) was not found in 20,000 cases")
    #expect(finding.fuzzCase.calls.count <= finding.originalLength)
    #expect(
      finding.fuzzCase.calls.count <= bug.shortest + 1,
      "\(bug): shrunk to \(finding.fuzzCase.calls.count) calls, the shortest is \(bug.shortest)")
    // The shrunk case reproduces on the broken client, and passes on the reference client.
    #expect(await broken.execute(finding.fuzzCase).failed)
    #expect(await !CaseExecutor(model: Self.model).execute(finding.fuzzCase).failed)
  }

  @Test("the same seed gives the same cases")
  func deterministic() async {
    let fuzzer = Fuzzer(executor: CaseExecutor(model: Self.model, hooks: DeliberateBug.offersUnusableType.hooks))
    let a = await fuzzer.run(seed: 9, indices: Array(0..<500), deadline: nil)
    let b = await fuzzer.run(seed: 9, indices: Array(0..<500), deadline: nil)
    #expect(a.covered == b.covered)
    #expect(a.findings.map(\.fuzzCase) == b.findings.map(\.fuzzCase))
  }

  /// Runs `compare` on the first 300 cases of `seed`, drawn with their values, on a client that
  /// reports a wrong delivery medium; expects some of them to fail on `compare`'s executions.
  func onGeneratedCases(
    seed: UInt64, _ compare: (CaseExecutor, FuzzCase, [Int], ModelSimulator?) async -> Execution
  ) async throws {
    let executor = CaseExecutor(model: Self.model, hooks: DeliberateBug.wrongDeliveryMedium.hooks)
    let fuzzer = Fuzzer(executor: executor)
    var failed = 0
    for index in 0..<300 {
      var rng = SplitMix64(seed: Fuzzer.caseSeed(seed, index))
      let (fuzzCase, values, started) = try fuzzer.generateWithValues(&rng)
      if await compare(executor, fuzzCase, values, started).failed { failed += 1 }
    }
    #expect(failed > 0, "the broken client fails some of the cases")
  }

  @Test("a case run without its states gives the same calls, transitions and verdict as with them")
  func withoutStates() async throws {
    try await onGeneratedCases(seed: 6) { executor, fuzzCase, values, _ in
      let without = await executor.execute(fuzzCase, values: values, recordsStates: false)
      let with = await executor.execute(fuzzCase, values: values)
      #expect(without.states.isEmpty)
      #expect(with.states.count == with.calls.count + 1 || !with.valid)
      #expect(without.calls == with.calls)
      #expect(without.transitions == with.transitions && without.branches == with.branches)
      #expect(without.rootCause == with.rootCause && without.valid == with.valid)
      return with
    }
  }

  @Test("a case started from its drawn values runs as the same case read by names does")
  func fromValues() async throws {
    try await onGeneratedCases(seed: 4) { executor, fuzzCase, values, _ in
      let byValues = await executor.execute(fuzzCase, values: values)
      let byNames = await executor.execute(fuzzCase)
      #expect(byValues.calls == byNames.calls)
      #expect(byValues.transitions == byNames.transitions)
      #expect(byValues.states.map(\.valuation) == byNames.states.map(\.valuation))
      #expect(byValues.rootCause == byNames.rootCause && byValues.valid == byNames.valid)
      return byValues
    }
  }

  @Test("a case run from the model's state the generator started runs as one started anew does")
  func fromStartedState() async throws {
    try await onGeneratedCases(seed: 6) { executor, fuzzCase, values, started in
      #expect(started != nil, "every drawn configuration starts the model")
      let fromStarted = await executor.execute(fuzzCase, values: values, started: started)
      let anew = await executor.execute(fuzzCase, values: values)
      #expect(fromStarted.calls == anew.calls)
      #expect(fromStarted.transitions == anew.transitions && fromStarted.branches == anew.branches)
      #expect(fromStarted.states.map(\.valuation) == anew.states.map(\.valuation))
      #expect(fromStarted.rootCause == anew.rootCause && fromStarted.valid == anew.valid)
      return fromStarted
    }
  }

  @Test("a counterexample file round-trips, is named by its content, and carries an ITF trace")
  func file() async throws {
    let broken = CaseExecutor(model: Self.model, hooks: DeliberateBug.retryRefusedAfterWrongCode.hooks)
    let summary = await Fuzzer(executor: broken).run(
      seed: 3, indices: Array(0..<20_000), deadline: nil, stopAtFirstFailure: true)
    let finding = try #require(summary.findings.first)
    let file = CounterexampleFile(
      finding: finding, model: Self.model, client: "retryRefusedAfterWrongCode", tool: "test")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cx-\(UUID().uuidString)").path
    let path = try file.write(to: folder)
    let again = try file.write(to: folder)
    #expect(path == again, "the same case is the same file")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 1)
    let read = try CounterexampleFile.read(path)
    #expect(read == file)
    #expect(read.version == 4 && read.model.contentHash == Self.model.contentHash)
    // The wrong code's call names the exception the model expects and the error the client showed.
    #expect(read.calls.contains { $0.exception != nil && $0.error != nil })
    #expect(read.itf.meta["format"] == .string("ITF"))
    #expect(read.itf.states.count == read.calls.count + 1)
    // Every state gives every listed variable a value of its domain's kind.
    for state in read.itf.states {
      #expect(Set(read.itf.vars).isSubset(of: Set(state.values.keys)))
      #expect(state.values["mbt::actionTaken"] != nil)
    }
    let retries = try #require(read.itf.states.last?.values["flow.retries"])
    #expect(retries.intValue != nil, "integers are #bigint values")
    #expect(read.itf.states.first?.values["pool.sms"].map { if case .bool = $0 { true } else { false } } == true)
    #expect(read.itf.states.first?.values["pool.mfa"].map { if case .string = $0 { true } else { false } } == true)
    #expect(read.explain().contains("<-- differs"))
  }

  @Test("every saved case in counterexamples/ passes on the reference client")
  func corpusPasses() async throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: "counterexamples").filter { $0.hasSuffix(".json") }
    #expect(!files.isEmpty)
    var models: [String: SignInModel] = [:]
    for name in files {
      let file = try CounterexampleFile.read("counterexamples/\(name)")
      let model = try models[file.model.file] ?? ModelLoader.load(file: file.model.file)
      models[file.model.file] = model
      #expect(file.model.name == model.name)
      let reference = await CaseExecutor(model: model).execute(file.fuzzCase)
      #expect(reference.valid && !reference.failed, "\(name)")
      if let bug = DeliberateBug(rawValue: file.client) {
        #expect(
          await CaseExecutor(model: model, hooks: bug.hooks).execute(file.fuzzCase).failed,
          "\(name) no longer catches \(bug)")
      }
    }
  }
}
