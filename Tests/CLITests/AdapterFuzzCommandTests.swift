import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `signin-spec fuzz --adapter` and `replay --adapter` as a user runs them: exit 5 when the
/// client under test misbehaves, usage errors for options that exclude each other, and no
/// adapter process left behind when the fuzzer is interrupted.
@Suite("signin-spec fuzz --adapter: exit codes and no orphans")
struct AdapterFuzzCommandTests {
  /// A Python adapter in a fresh folder; returns its command line and the folder.
  static func adapter(_ body: String) throws -> (command: String, folder: URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("adapter-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let script = folder.appendingPathComponent("adapter.py")
    let prelude = """
      import json, os, signal, subprocess, sys, time
      def send(message):
          sys.stdout.write(json.dumps(message) + "\\n")
          sys.stdout.flush()
      def hello(id):
          return {"id": id, "type": "hello", "protocol": 1, "client": "scripted 0", "steps": {"done": "done"},
                  "capabilities": {"flows": ["userPassword"], "challenges": []}}
      def observation(id, **values):
          message = {"id": id, "type": "observation", "step": None, "error": None, "isSignedIn": False}
          message.update(values)
          return message

      """
    try (prelude + body).write(to: script, atomically: true, encoding: .utf8)
    return ("python3 -u '\(script.path)'", folder)
  }

  @Test("an adapter that crashes ends the run with exit 5 and an error naming the adapter")
  func crashIsExitFive() throws {
    let (command, folder) = try Self.adapter(
      """
      for line in sys.stdin:
          request = json.loads(line)
          if request["type"] == "hello":
              send(hello(request["id"]))
          else:
              sys.stderr.write("segfault in the client under test\\n")
              sys.exit(3)
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try CommandLineTests.run(["fuzz", "--adapter", command, "--runs", "50", "--seed", "1", "--no-save"])
    #expect(run.status == 5, "\(run.stderr)")
    #expect(run.stderr.contains("error: the client under test misbehaved: adapter `\(command)` exited with status 3"))
    #expect(run.stderr.contains("segfault in the client under test"))
  }

  @Test("an adapter that cannot be started is exit 5 naming the program; --client with --adapter is a usage error")
  func startAndUsage() throws {
    let missing = try CommandLineTests.run(["fuzz", "--adapter", "no-such-adapter-program", "--runs", "5", "--no-save"])
    #expect(missing.status == 5)
    #expect(missing.stderr.contains("no program no-such-adapter-program in PATH"))
    let both = try CommandLineTests.run([
      "fuzz", "--adapter", "x", "--client", "userKeptAfterSignOut", "--runs", "5", "--no-save",
    ])
    #expect(both.status == 64)
    #expect(both.stderr.contains("--client and --adapter exclude each other"))
    let quote = try CommandLineTests.run(["fuzz", "--adapter", "python3 'unterminated", "--runs", "5", "--no-save"])
    #expect(quote.status == 64)
    #expect(quote.stderr.contains("unterminated ' quote"))
  }

  @Test("a case found through an adapter is not replayed without one: listed as needing it, neither passed nor failed")
  func replayNeedsAdapter() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("needs-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try ReplayCommandTests.add(to: folder, "case.json") {
      $0["version"] = 3
      $0["adapter"] = ["command": "python3 adapters/boto3/adapter.py", "client": "boto3 1.0"]
    }
    let run = try CommandLineTests.run(["replay", folder])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(
      run.stdout.contains("NEEDS   \(folder)/case.json: found through adapter `python3 adapters/boto3/adapter.py`"))
    #expect(run.stdout.contains("0 passed, 0 failed, 0 stale, 1 need an adapter (not replayed)"))
  }

  @Test("interrupting the fuzzer leaves no adapter process, even one that ignores its stdin closing and SIGTERM")
  func interruptLeavesNoProcess() throws {
    let (command, folder) = try Self.adapter(
      """
      signal.signal(signal.SIGTERM, signal.SIG_IGN)
      child = subprocess.Popen(["sleep", "1000"])
      answered = 0
      for line in sys.stdin:
          request = json.loads(line)
          if request["type"] == "hello":
              send(hello(request["id"]))
          elif request["type"] == "signIn":
              send(observation(request["id"], step="done", isSignedIn=True))
          else:
              send(observation(request["id"]))
          answered += 1
          if answered == 50:
              with open(os.path.join(os.path.dirname(__file__), "pids.tmp"), "w") as f:
                  f.write("%d %d" % (os.getpid(), child.pid))
              os.rename(os.path.join(os.path.dirname(__file__), "pids.tmp"),
                        os.path.join(os.path.dirname(__file__), "pids"))
      while True:
          time.sleep(1)
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let process = Process()
    process.executableURL = CommandLineTests.binary
    process.arguments = ["fuzz", "--adapter", command, "--runs", "100000000", "--jobs", "1", "--no-save"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let pidsFile = folder.appendingPathComponent("pids").path
    // Until the adapter has answered 50 requests (a bound against a hang, not a timing condition).
    let deadline = Date().addingTimeInterval(300)
    while !FileManager.default.fileExists(atPath: pidsFile) && Date() < deadline && process.isRunning {
      usleep(20_000)
    }
    let pids = try String(contentsOfFile: pidsFile, encoding: .utf8).split(separator: " ").compactMap { Int32($0) }
    #expect(pids.count == 2)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
    for pid in pids { #expect(Self.isGone(pid), "process \(pid) is left") }
  }

  /// Whether `pid` is gone (no such process, or a zombie), waiting at most 10 s.
  static func isGone(_ pid: Int32) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    repeat {
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
      if let close = stat.lastIndex(of: ")") {
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).prefix(1)
        if state == "Z" || state == "X" { return true }
      }
      usleep(10_000)
    } while Date() < deadline
    return false
  }
}

/// `fuzz --adapter … --endpoint URL`: the same run on a `serve` started elsewhere.
@Suite("signin-spec fuzz --adapter --endpoint: a serve elsewhere")
struct AdapterEndpointCommandTests {
  @Test("the reference adapter against a running serve takes the same cases, calls and transitions as in process")
  func sameAsServedInProcess() throws {
    let serve = Process()
    serve.executableURL = CommandLineTests.binary
    serve.arguments = ["serve", "--port", "0"]
    let out = Pipe()
    serve.standardOutput = out
    serve.standardError = FileHandle.nullDevice
    try serve.run()
    defer {
      serve.terminate()
      serve.waitUntilExit()
    }
    // The first line names the endpoint: "listening on http://127.0.0.1:PORT".
    var line = Data()
    while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
      line.append(byte)
    }
    let url = try #require(String(decoding: line, as: UTF8.self).components(separatedBy: " ").last)
    #expect(url.hasPrefix("http://127.0.0.1:"))
    let adapter = CommandLineTests.binary.deletingLastPathComponent().appendingPathComponent("signin-spec-adapter").path
    let common = [
      "fuzz", "--adapter", adapter, "--runs", "400", "--seed", "5", "--jobs", "1", "--no-save", "--format", "json",
    ]
    let remote = try CommandLineTests.run(common + ["--endpoint", url])
    let local = try CommandLineTests.run(common)
    #expect(remote.status == 0, "\(remote.stderr)")
    func figures(_ text: String) throws -> [String] {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      return ["cases", "calls", "covered", "failures"].map { "\($0)=\(object[$0] ?? "none")" }
    }
    #expect(try figures(remote.stdout) == figures(local.stdout))
    let broken = try CommandLineTests.run([
      "fuzz", "--adapter", "\(adapter) --client userKeptAfterSignOut", "--runs", "400", "--seed", "5", "--jobs", "1",
      "--no-save", "--endpoint", url,
    ])
    #expect(broken.status == 1, "\(broken.stderr)")
    #expect(broken.stdout.contains("isSignedIn is true; the model's step says false"))
    let wrong = try CommandLineTests.run(["fuzz", "--runs", "5", "--no-save", "--endpoint", url])
    #expect(wrong.status == 64 && wrong.stderr.contains("--endpoint goes with --adapter"))
  }
}
