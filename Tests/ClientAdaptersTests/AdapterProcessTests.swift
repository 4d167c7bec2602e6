import ClientAdapters
import Foundation
import Testing

/// An adapter that misbehaves in any way the protocol can be broken ends the call with an
/// `AdapterError` of its kind, whose text names the adapter's command, what it did and its last
/// message; the adapter is closed and its process is gone. The adapters are scripted in Python.
/// No test depends on timing but the time limit's, whose adapter never answers.
@Suite("A misbehaving adapter")
struct AdapterProcessTests {
  static let endpoint = "http://127.0.0.1:9/"

  /// Starts the scripted adapter `body`, runs `calls` on it and returns the error they end in,
  /// after checking that the adapter's process is gone.
  func failure(
    _ body: String, timeLimit: Double = AdapterProcess.defaultTimeLimit,
    _ calls: (AdapterProcess) async throws(AdapterError) -> Void
  ) async throws -> (error: AdapterError, command: String) {
    let (command, folder) = try scriptedAdapter(body)
    defer { try? FileManager.default.removeItem(at: folder) }
    let adapter = try AdapterProcess(command, timeLimit: timeLimit, gracePeriod: 0.2)
    let pid = adapter.processIdentifier
    var caught: AdapterError?
    do {
      try await calls(adapter)
    } catch {
      caught = error
    }
    let error = try #require(caught, "the adapter's misbehaviour is reported")
    #expect(!adapter.isRunning)
    #expect(isGone(pid), "no process is left behind")
    #expect(error.description.hasPrefix("adapter `\(command)` "))
    return (error, command)
  }

  @Test("an adapter that crashes: exited, with its exit status and the end of its stderr")
  func crashes() async throws {
    let (error, _) = try await failure(
      """
      sys.stderr.write("Traceback: the adapter fell over\\n")
      sys.exit(3)
      """
    ) { adapter async throws(AdapterError) in _ = try await adapter.hello(endpoint: Self.endpoint) }
    #expect(error.kind == .exited(status: 3, signal: nil))
    #expect(error.stderrTail == "Traceback: the adapter fell over")
    #expect(error.summary == "exited with status 3 before answering hello (id 1)")
    #expect(error.description.hasSuffix("; the end of its stderr:\nTraceback: the adapter fell over"))
  }

  @Test("an adapter that exits early, after answering hello: exited, its last message named")
  func exitsEarly() async throws {
    let (error, _) = try await failure(
      """
      for line in sys.stdin:
          request = json.loads(line)
          if request["type"] != "hello":
              sys.stderr.write("no pool for " + request["username"] + "\\n")
              sys.exit(4)
          send(hello(request["id"]))
      """
    ) { adapter async throws(AdapterError) in
      _ = try await adapter.hello(endpoint: Self.endpoint)
      _ = try await adapter.reset(poolId: "p", clientId: "c", username: "user", password: "pw")
    }
    #expect(error.kind == .exited(status: 4, signal: nil))
    #expect(error.request == "reset (id 2)")
    #expect(error.stderrTail == "no pool for user")
    #expect(error.lastMessage?.contains("\"type\": \"hello\"") == true)
  }

  @Test("an adapter killed by a signal: exited, with the signal")
  func killedBySignal() async throws {
    let (error, _) = try await failure("os.kill(os.getpid(), signal.SIGKILL)\n") { adapter async throws(AdapterError) in
      _ = try await adapter.hello(endpoint: Self.endpoint)
    }
    #expect(error.kind == .exited(status: nil, signal: 9))
    #expect(error.summary == "was killed by signal 9 before answering hello (id 1)")
  }

  @Test("an adapter that hangs: timed out after the call's time limit")
  func hangs() async throws {
    let (error, _) = try await failure(
      """
      for line in sys.stdin:
          pass
      """, timeLimit: 0.5
    ) { adapter async throws(AdapterError) in _ = try await adapter.hello(endpoint: Self.endpoint) }
    #expect(error.kind == .timedOut(seconds: 0.5))
    #expect(error.summary == "did not answer hello (id 1) within 0.5 s")
  }

  @Test("an adapter that stops reading its stdin: timed out, the write does not block past the time limit")
  func stopsReading() async throws {
    let (error, _) = try await failure(
      """
      send(hello(1))
      time.sleep(3600)
      """
    ) { adapter async throws(AdapterError) in
      _ = try await adapter.hello(endpoint: Self.endpoint)
      // Larger than a pipe's buffer (64 KiB on Linux): the write waits for room that never comes.
      _ = try await adapter.confirmSignIn(answer: String(repeating: "1", count: 1 << 20), timeLimit: 0.5)
    }
    #expect(error.kind == .timedOut(seconds: 0.5))
    #expect(error.request == "confirmSignIn (id 2)")
  }

  @Test("an adapter that answers a line that is not JSON: not JSON, the line quoted")
  func notJSON() async throws {
    let (error, command) = try await failure(
      """
      for line in sys.stdin:
          send("ready when you are")
      """
    ) { adapter async throws(AdapterError) in _ = try await adapter.hello(endpoint: Self.endpoint) }
    #expect(error.kind == .notJSON)
    #expect(
      error.description
        == "adapter `\(command)` answered hello (id 1) with a line that is not JSON; its last message: ready when you are"
    )
  }

  @Test("an adapter that answers JSON that is not an object")
  func notAnObject() async throws {
    let (error, _) = try await failure(
      """
      for line in sys.stdin:
          send([1, "hello"])
      """
    ) { adapter async throws(AdapterError) in _ = try await adapter.hello(endpoint: Self.endpoint) }
    #expect(error.kind == .notAnObject)
    #expect(error.lastMessage == "[1, \"hello\"]")
  }

  @Test("an adapter whose answer lacks a member, or has the wrong type: wrong shape, the member named")
  func wrongShape() async throws {
    let (missing, _) = try await failure(
      """
      for line in sys.stdin:
          request = json.loads(line)
          answer = hello(request["id"])
          del answer["capabilities"]
          send(answer)
      """
    ) { adapter async throws(AdapterError) in _ = try await adapter.hello(endpoint: Self.endpoint) }
    #expect(missing.kind == .wrongShape("capabilities is missing"))

    let (noStep, _) = try await failure(
      """
      for line in sys.stdin:
          request = json.loads(line)
          if request["type"] == "hello":
              send(hello(request["id"]))
          else:
              send({"id": request["id"], "type": "observation", "isSignedIn": False})
      """
    ) { adapter async throws(AdapterError) in
      _ = try await adapter.hello(endpoint: Self.endpoint)
      _ = try await adapter.signIn(username: "user", password: "pw")
    }
    #expect(noStep.kind == .wrongShape("step is missing"))

    let (wrongType, _) = try await failure(
      """
      for line in sys.stdin:
          request = json.loads(line)
          send(observation(request["id"]))
      """
    ) { adapter async throws(AdapterError) in _ = try await adapter.hello(endpoint: Self.endpoint) }
    #expect(wrongType.kind == .wrongShape("the type is \"observation\", not \"hello\""))

    let (noID, _) = try await failure(
      """
      for line in sys.stdin:
          send({"type": "hello"})
      """
    ) { adapter async throws(AdapterError) in _ = try await adapter.hello(endpoint: Self.endpoint) }
    #expect(noID.kind == .wrongShape("no integer id"))
  }

  @Test("an adapter that speaks another protocol version: wrong protocol")
  func wrongProtocol() async throws {
    let (error, _) = try await failure(
      """
      for line in sys.stdin:
          send(hello(json.loads(line)["id"], version=2))
      """
    ) { adapter async throws(AdapterError) in _ = try await adapter.hello(endpoint: Self.endpoint) }
    #expect(error.kind == .wrongProtocol(2))
    #expect(error.summary == "speaks protocol 2, not 1")
  }

  @Test("an adapter that answers twice: the second answer is reported at the next call")
  func answersTwice() async throws {
    let (error, _) = try await failure(
      """
      for line in sys.stdin:
          request = json.loads(line)
          answer = hello(request["id"]) if request["type"] == "hello" else observation(request["id"])
          send(answer)
          send(answer)
      """
    ) { adapter async throws(AdapterError) in
      _ = try await adapter.hello(endpoint: Self.endpoint)
      _ = try await adapter.signOut()
    }
    #expect(error.kind == .answeredTwice(id: 1))
    #expect(error.summary == "answered request 1 a second time, waiting for the answer to signOut (id 2)")
  }

  @Test("an adapter that answers with an id it was never sent: unexpected id")
  func unexpectedID() async throws {
    let (error, _) = try await failure(
      """
      for line in sys.stdin:
          send(hello(json.loads(line)["id"] + 41))
      """
    ) { adapter async throws(AdapterError) in _ = try await adapter.hello(endpoint: Self.endpoint) }
    #expect(error.kind == .unexpectedID(42))
  }

  @Test("an adapter that ignores reset and stays signed in: reset ignored")
  func ignoresReset() async throws {
    let (error, _) = try await failure(
      """
      for line in sys.stdin:
          request = json.loads(line)
          if request["type"] == "hello":
              send(hello(request["id"]))
          else:
              send(observation(request["id"], step="done", isSignedIn=True))
      """
    ) { adapter async throws(AdapterError) in
      _ = try await adapter.hello(endpoint: Self.endpoint)
      _ = try await adapter.signIn(username: "user", password: "pw")
      _ = try await adapter.reset(poolId: "p", clientId: "c", username: "user", password: "pw")
    }
    #expect(error.kind == .resetIgnored)
    #expect(error.request == "reset (id 3)")
  }

  @Test("a command that names no program cannot be started, and says so")
  func couldNotStart() throws {
    #expect(throws: AdapterError.self) { try AdapterProcess("no-such-adapter-program --flag") }
    do {
      _ = try AdapterProcess("no-such-adapter-program --flag")
    } catch {
      #expect(
        error.description
          == "adapter `no-such-adapter-program --flag` could not be started: no program no-such-adapter-program in PATH"
      )
    }
    do {
      _ = try AdapterProcess("python3 'unterminated")
    } catch {
      #expect(error.kind == .couldNotStart("the adapter command has an unterminated ' quote"))
    }
  }

  @Test("a call after the adapter was closed fails as closed")
  func callAfterClose() async throws {
    let (command, folder) = try scriptedAdapter("for line in sys.stdin:\n    send(hello(json.loads(line)[\"id\"]))\n")
    defer { try? FileManager.default.removeItem(at: folder) }
    let adapter = try AdapterProcess(command)
    adapter.close()
    await #expect(throws: AdapterError.self) { _ = try await adapter.hello(endpoint: Self.endpoint) }
  }
}

/// Closing ends the adapter on every path, and nothing it started outlives it.
@Suite("Closing an adapter")
struct AdapterClosingTests {
  @Test("closing stdin ends a well-behaved adapter, which exits 0")
  func closingStdinEndsIt() async throws {
    let (command, folder) = try scriptedAdapter(
      """
      for line in sys.stdin:
          send(hello(json.loads(line)["id"]))
      sys.exit(0)
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let adapter = try AdapterProcess(command)
    let hello = try await adapter.hello(endpoint: "http://127.0.0.1:9/")
    #expect(hello.client == "scripted 0")
    adapter.close()
    #expect(!adapter.isRunning)
    #expect(isGone(adapter.processIdentifier))
  }

  @Test("an adapter that ignores the end of stdin and SIGTERM is killed")
  func stubbornAdapterIsKilled() async throws {
    let (command, folder) = try scriptedAdapter(
      """
      signal.signal(signal.SIGTERM, signal.SIG_IGN)
      for line in sys.stdin:
          send(hello(json.loads(line)["id"]))
      while True:
          time.sleep(1)
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    let adapter = try AdapterProcess(command, gracePeriod: 0.2)
    _ = try await adapter.hello(endpoint: "http://127.0.0.1:9/")
    adapter.close()
    #expect(isGone(adapter.processIdentifier))
  }

  @Test("what the adapter started goes with it (a shell adapter's background child)")
  func childrenGoToo() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "signin-spec-adapter-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("adapter.sh")
    let pidFile = folder.appendingPathComponent("child.pid")
    try """
    sleep 300 &
    echo $! > '\(pidFile.path)'
    while read -r line; do
      echo '{"id": 1, "type": "hello", "protocol": 1, "client": "sh 0", "steps": {}, "capabilities": {"flows": [], "challenges": []}}'
    done
    """.write(to: script, atomically: true, encoding: .utf8)
    let adapter = try AdapterProcess(command: AdapterCommand(program: "/bin/sh", arguments: [script.path]))
    _ = try await adapter.hello(endpoint: "http://127.0.0.1:9/")
    let child = try #require(
      Int32(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(FileManager.default.fileExists(atPath: "/proc/\(child)"), "the child runs until the adapter is closed")
    adapter.close()
    #expect(isGone(adapter.processIdentifier))
    #expect(isGone(child), "the adapter's background child is killed with it")
  }

  @Test("dropping the last reference closes the adapter")
  func deinitCloses() async throws {
    let (command, folder) = try scriptedAdapter(
      """
      for line in sys.stdin:
          send(hello(json.loads(line)["id"]))
      """)
    defer { try? FileManager.default.removeItem(at: folder) }
    var pid: Int32 = 0
    do {
      let adapter = try AdapterProcess(command)
      pid = adapter.processIdentifier
      _ = try await adapter.hello(endpoint: "http://127.0.0.1:9/")
    }
    #expect(isGone(pid))
  }
}

/// Adapter command lines split as a shell splits a simple command.
@Suite("An adapter command line")
struct AdapterCommandTests {
  @Test("words, single and double quotes, backslashes")
  func splits() throws {
    #expect(try AdapterCommand.split("python3  adapter.py --flag") == ["python3", "adapter.py", "--flag"])
    #expect(
      try AdapterCommand.split("node 'my adapter.js' \"a \\\"b\\\" \\n\"") == ["node", "my adapter.js", "a \"b\" \\n"])
    #expect(try AdapterCommand.split("a\\ b ''") == ["a b", ""])
    #expect(throws: AdapterCommand.SplitError.unterminatedQuote("\"")) { try AdapterCommand.split("a \"b") }
    #expect(throws: AdapterCommand.SplitError.trailingBackslash) { try AdapterCommand.split("a \\") }
    #expect(throws: AdapterCommand.SplitError.empty) { try AdapterCommand(parsing: "  ") }
  }
}
