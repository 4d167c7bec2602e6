import AdapterFuzzing
import ClientAdapters
import ClientBugs
import Conformance
import Foundation
import Fuzzing
import SignInModel
import Testing

/// The fuzzer on a client behind an adapter: pools served over HTTP in this process, the
/// reference client as `signin-spec-adapter`. The protocol loses nothing (the same cases take the
/// same transitions as in process), deliberately broken clients are caught through it, a client
/// that lacks a challenge has those cases counted as unsupported, and an adapter that breaks the
/// protocol stops the run with an error naming it and leaves no process behind.
@Suite("The fuzzer through an adapter")
struct AdapterFuzzTests {
  static let model = try! ModelLoader.load(file: "models/2026-all-platforms.yaml")
  /// A guard against a hang, not a timing condition (see `ReferenceAdapterTests.hangGuard`).
  static let hangGuard = ReferenceAdapterTests.hangGuard

  /// The reference adapter's command line, with `arguments`.
  static func reference(_ arguments: [String] = []) -> String {
    AdapterCommand(
      program: referenceAdapterBinary.path, arguments: ["--request-timeout", String(Int(hangGuard))] + arguments
    ).text
  }

  /// Runs `body` with one adapter of `command` started for `model` against served pools.
  static func withAdapter(
    _ command: String, model: SignInModel = Self.model,
    _ body: (AdapterWorkers) async throws -> Void
  ) async throws {
    let pools = try await ServedPools.start()
    let workers: AdapterWorkers
    do {
      workers = try await AdapterWorkers.start(
        command: command, count: 1, pools: pools, model: model, timeLimit: hangGuard)
    } catch {
      await pools.stop()
      throw error
    }
    do { try await body(workers) } catch {
      workers.close()
      await pools.stop()
      throw error
    }
    workers.close()
    await pools.stop()
  }

  @Test("the reference client through its adapter takes the same transitions as in process, with no disagreement")
  func sameAsInProcess() async throws {
    let cases = 0..<1_500
    try await Self.withAdapter(Self.reference()) { workers in
      let served = await Fuzzer(executor: workers.executors[0]).run(seed: 5, indices: cases, deadline: nil)
      // In process, with what the adapter declared (no remembered device: protocol v1 cannot give one).
      let local = await Fuzzer(executor: CaseExecutor(harness: Harness(model: Self.model, profile: workers.profile)))
        .run(seed: 5, indices: cases, deadline: nil)
      #expect(served.clientFailure == nil, "\(served.clientFailure?.description ?? "")")
      #expect(served.findings.isEmpty, "\(served.findings.first?.execution.message ?? "")")
      #expect(served.unsupported.isEmpty)
      #expect(served.cases == local.cases && served.calls == local.calls)
      #expect(served.covered == local.covered)
      #expect(local.findings.isEmpty)
      #expect(served.covered.count >= 80, "covered \(served.covered.count) transitions")
    }
  }

  /// Deliberate bugs the fast tier checks through the adapter (the long tier checks them all).
  static let smokeBugs: [DeliberateBug] = [.resultSignedInOnChallenge, .userKeptAfterSignOut, .wrongDeliveryMedium]

  @Test("a deliberately broken client is caught through the adapter, shrunk to a replayable case", arguments: smokeBugs)
  func brokenClientCaught(_ bug: DeliberateBug) async throws {
    try await Self.assertCaught(bug, cases: 3_000)
  }

  /// Runs `cases` cases on the adapter with `bug` and in process; both must find it at the same
  /// case, and the shrunk case found through the adapter fails again through it.
  static func assertCaught(_ bug: DeliberateBug, cases: Int) async throws {
    try await withAdapter(reference(["--client", bug.rawValue])) { workers in
      let fuzzer = Fuzzer(executor: workers.executors[0])
      let served = await fuzzer.run(seed: 3, indices: 0..<cases, deadline: nil, stopAtFirstFailure: true)
      let local = await Fuzzer(
        executor: CaseExecutor(
          harness: Harness(model: model, hooks: bug.hooks, profile: workers.profile))
      ).run(seed: 3, indices: 0..<cases, deadline: nil, stopAtFirstFailure: true)
      #expect(!local.findings.isEmpty, "\(bug) is found in process")
      let finding = try #require(served.findings.first, "\(bug) is found through the adapter")
      // The same cases run either way: the adapter fails first on the same one, except for a
      // bug only the client's own isSignedIn shows: the protocol reports a returned result's
      // isSignedIn, so the adapter shows it at the next isSignedIn query, in the same or a later case.
      if bug == .signedInOnChallenge {
        #expect(finding.index >= (local.findings.first?.index ?? .max))
      } else {
        #expect(finding.index == local.findings.first?.index)
      }
      #expect(served.clientFailure == nil)
      let again = await workers.executors[0].execute(finding.fuzzCase)
      #expect(again.failed, "the shrunk case fails again through the adapter")
      #expect(workers.profile.name.contains(bug.rawValue))
    }
  }

  @Test("a client that lacks a flow is never given it; one that lacks a challenge has those cases counted, not failed")
  func unsupportedCounted() async throws {
    // The reference adapter behind a proxy that declares USER_PASSWORD_AUTH alone and no SMS_MFA.
    let (command, folder) = try scriptedAdapter(
      """
      import subprocess
      child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
      for line in sys.stdin:
          child.stdin.write(line)
          child.stdin.flush()
          answer = json.loads(child.stdout.readline())
          if answer.get("type") == "hello":
              answer["capabilities"]["flows"] = ["userPassword"]
              answer["capabilities"]["challenges"].remove("SMS_MFA")
          send(answer)
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.withAdapter(command + " " + Self.reference()) { workers in
      #expect(workers.profile.flows == ["userPassword"])
      let summary = await Fuzzer(executor: workers.executors[0]).run(seed: 9, indices: 0..<600, deadline: nil)
      #expect(summary.clientFailure == nil, "\(summary.clientFailure?.description ?? "")")
      #expect(summary.findings.isEmpty, "\(summary.findings.first?.execution.message ?? "")")
      #expect((summary.unsupported["the challenge SMS_MFA"] ?? 0) > 0, "\(summary.unsupported)")
      #expect(summary.unsupported.keys.allSatisfy { $0 == "the challenge SMS_MFA" })
      // Only USER_PASSWORD_AUTH was drawn: no step of another flow's start was ever reached.
      #expect(!summary.covered.keys.contains { $0.hasPrefix("confirmSignInWithCustomChallenge") })
      #expect(!summary.covered.keys.contains { $0.hasPrefix("continueSignInWithFirstFactorSelection") })
    }
  }

  @Test("an adapter that exits mid-run stops the fuzzer with an error naming it and its last message, no process left")
  func crashStopsTheRun() async throws {
    let (command, folder) = try scriptedAdapter(
      """
      count = 0
      for line in sys.stdin:
          request = json.loads(line)
          count += 1
          if request["type"] == "hello":
              send(hello(request["id"]))
          elif count > 6:
              sys.stderr.write("adapter gave up\\n")
              sys.exit(3)
          elif request["type"] == "signIn":
              send(observation(request["id"], step="done", isSignedIn=True))
          else:
              send(observation(request["id"]))
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pools = try await ServedPools.start()
    let workers = try await AdapterWorkers.start(
      command: command, count: 1, pools: pools, model: Self.model, timeLimit: Self.hangGuard)
    let pid = workers.sessions[0].process.processIdentifier
    let summary = await Fuzzer(executor: workers.executors[0]).run(seed: 1, indices: 0..<100, deadline: nil)
    workers.close()
    await pools.stop()
    let failure = try #require(summary.clientFailure)
    #expect(failure.description.contains("adapter `\(command)` exited with status 3 before answering"))
    #expect(failure.description.contains("adapter gave up"))
    #expect(summary.cases < 100)
    #expect(isGone(pid))
  }

  @Test("a hello whose step table names no step of the model or of Amplify Swift is refused, naming the entry")
  func badStepTable() async throws {
    let (command, folder) = try scriptedAdapter(
      """
      for line in sys.stdin:
          request = json.loads(line)
          message = hello(request["id"])
          message["steps"] = {"SMS_MFA": "confirmSignInWithSMSMFACode", "MAGIC": "enterTheMagicWord"}
          send(message)
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pools = try await ServedPools.start()
    do {
      _ = try await AdapterWorkers.start(command: command, count: 1, pools: pools, model: Self.model)
      Issue.record("the step table was accepted")
    } catch {
      #expect(error.description.contains("the step \"MAGIC\" mapped to \"enterTheMagicWord\", which is neither"))
    }
    await pools.stop()
  }

  @Test("an observation naming a step the adapter's table does not map is the adapter's failure, not a verdict")
  func undeclaredStep() async throws {
    let (command, folder) = try scriptedAdapter(
      """
      for line in sys.stdin:
          request = json.loads(line)
          if request["type"] == "hello":
              send(hello(request["id"]))
          elif request["type"] == "signIn":
              send(observation(request["id"], step="SOMETHING_NEW"))
          else:
              send(observation(request["id"]))
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.withAdapter(command) { workers in
      let summary = await Fuzzer(executor: workers.executors[0]).run(seed: 1, indices: 0..<20, deadline: nil)
      let failure = try #require(summary.clientFailure)
      #expect(
        failure.description.contains("with the step \"SOMETHING_NEW\", which its hello's steps table does not map"))
      #expect(summary.findings.isEmpty)
    }
  }
}

/// The whole catalogue of deliberately broken clients through the reference adapter (the fast
/// tier checks three): the protocol loses nothing a bug shows.
@Suite("The deliberate-bug catalogue through the adapter")
struct AdapterCatalogueLongTests {
  @Test(
    "every deliberately broken client is caught through the adapter, as in process", arguments: DeliberateBug.allCases)
  func caught(_ bug: DeliberateBug) async throws {
    try await AdapterFuzzTests.assertCaught(bug, cases: 20_000)
  }
}
