import Foundation
import Testing

/// Second sweep: hostile files given to the commands that landed after the first sweep
/// (`scenarios`, `graph --trace`, `docs`) are refused at once with the file named, never read
/// forever or hung on: a FIFO, a directory, a device, an alias bomb.
@Suite("Hostile files for scenarios, graph --trace and docs")
struct HostileInputSweepTests {
  static func folder() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Ten levels of ten aliases each: 10^10 nodes once expanded, used as a mapping key.
  static let aliasBomb =
    "x0: &x0 [a, a, a, a, a, a, a, a, a, a]\n"
    + (1...9).map { i in "x\(i): &x\(i) [" + Array(repeating: "*x\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
    .joined() + "? *x9\n: 1\n"

  @Test(
    "a scenario file that is an alias bomb, not UTF-8, holds a NUL byte or is empty gets exit 2 at file:line",
    arguments: [
      ("bomb.yaml", Array(aliasBomb.utf8), "YAML nodes"),
      ("latin1.yaml", Array("model: models/2023-swift.yaml\n# caf".utf8) + [0xE9, 0x0A], "not UTF-8"),
      ("nul.yaml", Array("model: models/2023-swift.yaml\nplat\u{0}form: js\n".utf8), "U+0000"),
      ("empty.yaml", [], "empty"),
    ])
  func scenarioFiles(name: String, bytes: [UInt8], message: String) throws {
    let path = try Self.folder() + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let run = try CommandLineTests.run(["scenarios", path])
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains(path + ":"), "\(run.stderr)")
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(run.stderr.range(of: #"\.yaml:[1-9][0-9]*"#, options: .regularExpression) != nil, "\(run.stderr)")
  }

  @Test("scenarios refuses a FIFO without opening it (reading would wait for a writer forever)")
  func scenarioFIFO() throws {
    let path = try Self.folder() + "/pipe.yaml"
    #expect(mkfifo(path, 0o600) == 0)
    let run = try CommandLineTests.run(["scenarios", path])
    #expect(run.status == 2)
    #expect(run.stderr.contains("cannot read a scenario file from a FIFO"), "\(run.stderr)")
    #expect(!run.stderr.contains("a model"), "\(run.stderr)")
  }

  @Test("graph --trace names the option and what the path is: a FIFO, a directory or a device")
  func traceNotARegularFile() throws {
    let folder = try Self.folder()
    #expect(mkfifo(folder + "/fifo", 0o600) == 0)
    for (path, kind) in [(folder + "/fifo", "a FIFO"), (folder, "a directory"), ("/dev/null", "a device")] {
      let run = try CommandLineTests.run(["graph", "models/2023-swift.yaml", "--trace", path])
      #expect(run.status == 64, "\(path): \(run.stderr)")
      #expect(run.stderr.contains("--trace: \(path) is \(kind)"), "\(run.stderr)")
    }
  }

  @Test("docs refuses a page that is a FIFO, a directory or a device, naming the path and what it is")
  func docsPageNotARegularFile() throws {
    let folder = try Self.folder()
    #expect(mkfifo(folder + "/fifo.txt", 0o600) == 0)
    for (path, kind) in [(folder + "/fifo.txt", "a FIFO"), (folder, "a directory"), ("/dev/null", "a device")] {
      let run = try CommandLineTests.run(["docs", path])
      #expect(run.status == 2, "\(path): \(run.stderr)")
      #expect(run.stderr.contains("\(path): is \(kind)"), "\(run.stderr)")
    }
  }

  @Test("simulate with more than 1,000 calls is bad usage naming the limit (20,000 calls ran past 20 s)")
  func simulateTooManyCalls() throws {
    let run = try CommandLineTests.run(
      ["simulate", "models/2023-swift.yaml"] + Array(repeating: "correctPassword", count: 1_001))
    #expect(run.status == 64, "\(run.stderr)")
    #expect(run.stderr.contains("at most 1000 calls per run (CALL arguments), not 1001"), "\(run.stderr)")
  }

  @Test("a variable given twice to --set is bad usage for graph and simulate (which value would win?)")
  func settingTwice() throws {
    for command in ["graph", "simulate"] {
      let run = try CommandLineTests.run(
        [command, "models/2023-swift.yaml", "--set", "pool.mfa=off", "--set", "pool.mfa=required"])
      #expect(run.status == 64, "\(command): \(run.stderr)")
      #expect(run.stderr.contains("--set gives 'pool.mfa' twice"), "\(command): \(run.stderr)")
    }
  }
}
