import ClientAdapters
import Foundation

/// The built `signin-spec-adapter`: in the products folder the test bundle sits in.
let referenceAdapterBinary: URL = {
  var candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
  candidates.append(
    URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/release"))
  for folder in candidates {
    let url = folder.appendingPathComponent("signin-spec-adapter")
    if FileManager.default.isExecutableFile(atPath: url.path) { return url }
  }
  return candidates.last!.appendingPathComponent("signin-spec-adapter")
}()

/// Whether process `pid` is gone: no such process, or a zombie (killed, waiting for its parent
/// to reap it). Waits at most 10 s for that (a SIGKILL is delivered at once; the bound guards
/// against a hang, it is no timing condition).
func isGone(_ pid: Int32) -> Bool {
  let deadline = Date().addingTimeInterval(10)
  repeat {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
    // The state follows the command name in parentheses: "123 (sleep) S …".
    if let close = stat.lastIndex(of: ")") {
      let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).prefix(1)
      if state == "Z" || state == "X" { return true }
    }
    usleep(10_000)
  } while Date() < deadline
  return false
}

/// A scripted adapter: a Python program made of `prelude` and `body`, written to a fresh
/// temporary folder; returns the command line that runs it.
func scriptedAdapter(_ body: String, name: String = "adapter.py") throws -> (command: String, folder: URL) {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signin-spec-adapter-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let script = folder.appendingPathComponent(name)
  try (pythonPrelude + body).write(to: script, atomically: true, encoding: .utf8)
  return ("python3 -u '\(script.path)'", folder)
}

/// What every scripted adapter starts with: `send` writes one message, `hello(id)` and
/// `observation(id, …)` are well-formed answers.
let pythonPrelude = """
  import json, os, signal, sys, time
  def send(message):
      sys.stdout.write((message if isinstance(message, str) else json.dumps(message)) + "\\n")
      sys.stdout.flush()
  def hello(id, version=1):
      return {"id": id, "type": "hello", "protocol": version, "client": "scripted 0",
              "steps": {"done": "done"}, "capabilities": {"flows": ["userPassword"], "challenges": []}}
  def observation(id, **values):
      message = {"id": id, "type": "observation", "step": None, "error": None, "delivery": None,
                 "isSignedIn": False}
      message.update(values)
      return message

  """
