import AdapterFuzzing
import ArgumentParser
import ClientAdapters
import ClientBugs
import Conformance
import Foundation
import Fuzzing
import SafeFiles
import SignInClient
import SignInModel

/// Re-runs saved fuzz failures; a case passes when the client now does what the model says.
struct Replay: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Re-run saved counterexamples; each passes when the property now holds (the bug is fixed).",
    discussion: """
      Examples:
        signin-spec replay
        signin-spec replay counterexamples/02e057b77dcb7491.json --explain
        signin-spec replay counterexamples --client stuckOnUnknownChallenge
        signin-spec replay corpus --allow-empty
        signin-spec replay counterexamples/adapters/boto3 --adapter "python3 adapters/boto3/adapter.py"

      A case found through an adapter (its file names one) replays only with --adapter; without it the
      case is listed as needing one and neither passes nor fails. With --adapter every case runs on the
      client behind it; a case whose flow or challenges that client does not support is UNSUPPORTED.
      Exit 5 when the adapter misbehaves.
      """)

  @Argument(help: "Counterexample files or folders (default: counterexamples/).")
  var paths: [String] = []

  @Option(help: "reference (default), or a deliberate bug, to check a case still catches it.")
  var client = "reference"

  @Option(
    help: ArgumentHelp(
      "Replay on the client behind this adapter command (docs/guide/adapters.md).", valueName: "command"))
  var adapter: String?

  @Option(help: "With --adapter: seconds each adapter call may take before the adapter counts as hung.")
  var adapterTimeLimit: Double = AdapterProcess.defaultTimeLimit

  @Flag(help: "Print each case: configuration, calls, what the model expects and what the client did.")
  var explain = false

  /// "a FIFO (named pipe)", "a directory", … for anything but a regular file (links followed);
  /// reading a FIFO or a device would block or never end.
  static func nonRegularKind(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return "unreadable (\(String(cString: strerror(errno))))" }
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      return info.st_size > 64 * 1024 * 1024 ? "larger than 64 MiB" : nil
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFCHR, S_IFBLK: return "a device"
    case S_IFSOCK: return "a socket"
    default: return "not a regular file"
    }
  }

  @Flag(help: "Accept a folder with no counterexample files (otherwise exit 64: a wrong path must not pass).")
  var allowEmpty = false

  @Flag(help: "Delete the STALE cases (their calls no longer fit the model): the way out after a model change.")
  var pruneStale = false

  /// A case to replay and the corpus folder it belongs to (its own folder for a file argument).
  struct CasePath {
    let path: String
    let folder: String
  }

  func casePaths() throws -> [CasePath] {
    var files: [CasePath] = []
    for path in paths.isEmpty ? ["counterexamples"] : paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ValidationError("no such file or folder: \(path)")
      }
      if !isDirectory.boolValue, let kind = Self.nonRegularKind(path) {
        throw ValidationError("\(path) is \(kind); give a counterexample file (.json) or a folder of them")
      }
      if isDirectory.boolValue {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
          throw ValidationError("cannot list the folder \(path): \(error.localizedDescription)")
        }
        let cases = names.filter { $0.hasSuffix(".json") }.sorted()
        if cases.isEmpty && !allowEmpty {
          throw ValidationError(
            "the folder \(path) has no counterexample files (*.json); check the path, or give --allow-empty "
              + "when an empty corpus is expected")
        }
        files += cases.map { CasePath(path: (path as NSString).appendingPathComponent($0), folder: path) }
      } else {
        let folder = (path as NSString).deletingLastPathComponent
        files.append(CasePath(path: path, folder: folder.isEmpty ? "." : folder))
      }
    }
    return files
  }

  func validate() throws {
    try OptionChecks.adapter(adapter, client: client, timeLimit: adapterTimeLimit)
  }

  /// The adapters of the run by model content hash, each started for the first case of its
  /// model (hello's step table is checked against the model).
  final class AdapterRuns {
    var runs: [String: ClientUnderTestRun] = [:]
  }

  func run() async throws {
    let files = try casePaths()
    guard let bugs: Set<DeliberateBug> = client == "reference" ? [] : DeliberateBug(rawValue: client).map({ [$0] })
    else {
      throw ValidationError("unknown client '\(client)'")
    }
    var failed = 0
    var stale: [String] = []
    var pruned = 0
    var needsAdapter: [String] = []
    var unsupported = 0
    let adapters = AdapterRuns()
    defer { for run in adapters.runs.values { run.stop() } }
    var clientName = client
    for casePath in files {
      let path = casePath.path
      let file: CounterexampleFile
      if let kind = Self.nonRegularKind(path) {
        printError("\(path): error: \(kind), not a counterexample file")
        throw ExitStatus.badModel
      }
      do { file = try CounterexampleFile.read(path) } catch {
        printError(error.description)
        throw ExitStatus.badModel
      }
      let modelPath =
        FileManager.default.fileExists(atPath: file.model.file)
        ? file.model.file
        : (try? FileManager.default.contentsOfDirectory(atPath: "models"))?.map { "models/" + $0 }
          .first { (try? ModelLoader.load(file: $0))?.name == file.model.name } ?? file.model.file
      let model: SignInModel
      do { model = try ModelLoader.load(file: modelPath) } catch {
        printError(
          "\(path): error: field 'model.file': the case's model \(modelPath.prefix(200)) cannot be loaded")
        printError(error.description)
        throw ExitStatus.badModel
      }
      let note =
        model.contentHash == file.model.contentHash
        ? "" : " (the model changed since this case was saved; replayed on the current one)"
      if file.invariant != nil {
        // A model-check finding (`verify --save`): re-checked on the model, whatever --client says.
        let replayed: CounterexampleFile.ModelReplay
        do { replayed = try file.replayModelFinding(on: model, path: path) } catch {
          printError(error.description)
          throw ExitStatus.badModel
        }
        switch replayed {
        case .reproduced(let message):
          failed += 1
          print("FAILS   \(path): \(file.invariant!) is still violated: \(message)\(note)")
        case .stale(let why):
          stale.append(path)
          print("STALE   \(path): the calls no longer fit \(modelPath): \(why)\(note)")
        case .holds:
          print("passes  \(path) (\(file.invariant!) now holds; found by verify: \(file.message))\(note)")
        }
        if explain { print(file.explain().split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")) }
        continue
      }
      let executor: CaseExecutor
      if let adapter {
        if adapters.runs[model.contentHash] == nil {
          do {
            adapters.runs[model.contentHash] = try await ClientUnderTestRun.start(
              adapter, jobs: 1, model: model, timeLimit: adapterTimeLimit)
          } catch {
            printError("error: the client under test misbehaved: \(error)")
            throw ExitStatus.clientMisbehaved
          }
        }
        guard let workers = adapters.runs[model.contentHash]?.workers else { preconditionFailure("started above") }
        executor = workers.executors[0]
        clientName = workers.profile.name
      } else if let needed = file.adapter {
        needsAdapter.append(path)
        print("NEEDS   \(path): found through adapter `\(needed.command)` (\(needed.client)); replay with --adapter")
        continue
      } else {
        executor = CaseExecutor(model: model, hooks: DeliberateBug.hooks(for: bugs))
      }
      let execution = await executor.execute(file.fuzzCase)
      if let failure = execution.clientFailure {
        ClientUnderTestRun.waitIfInterrupted()
        printError("error: \(path): the client under test misbehaved: \(failure)")
        throw ExitStatus.clientMisbehaved
      }
      if let reason = execution.unsupported {
        unsupported += 1
        print("UNSUPPORTED \(path): \(clientName) does not support \(reason)")
      } else if adapter != nil, !executor.harness.covers(file.fuzzCase.configuration) {
        unsupported += 1
        print(
          "UNSUPPORTED \(path): \(clientName) cannot run its configuration (a flow its hello does not list, or a remembered device)"
        )
      } else if execution.failed {
        failed += 1
        print("FAILS   \(path): \(execution.message ?? "")\(note)")
      } else if !execution.valid {
        if pruneStale {
          do { try SafeFile.remove(path, inFolder: casePath.folder) } catch {
            printError("error: --prune-stale: \(error.description)")
            stale.append(path)
            continue
          }
          pruned += 1
          print("PRUNED  \(path): STALE, the calls no longer fit \(modelPath); deleted")
        } else {
          stale.append(path)
          print("STALE   \(path): the calls no longer fit \(modelPath)\(note)")
        }
      } else {
        print("passes  \(path) (found on client \(file.client): \(file.message))\(note)")
      }
      if explain { print(file.explain().split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")) }
    }
    let passed = files.count - failed - stale.count - pruned - needsAdapter.count - unsupported
    print(
      "\(files.count) case\(files.count == 1 ? "" : "s") replayed on the \(clientName) client: \(passed) passed, "
        + "\(failed) failed, \(stale.count) stale" + (pruneStale ? ", \(pruned) pruned" : "")
        + (needsAdapter.isEmpty ? "" : ", \(needsAdapter.count) need an adapter (not replayed)")
        + (adapter == nil ? "" : ", \(unsupported) unsupported by this client"))
    if !stale.isEmpty {
      printError(
        "error: \(stale.count) STALE case\(stale.count == 1 ? "" : "s") (the calls no longer fit the model): "
          + stale.joined(separator: ", ") + "; regenerate them with `signin-spec fuzz` or delete them with "
          + "`signin-spec replay --prune-stale`")
    }
    if failed > 0 || !stale.isEmpty { throw ExitStatus.violation }
  }
}
