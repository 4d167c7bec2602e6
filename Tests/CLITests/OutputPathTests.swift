import Foundation
import Testing

/// `verify --sarif/--junit PATH` never replaces anything but a regular file: a symbolic link,
/// a FIFO, a device or a missing folder is a usage error (64) naming the option, untouched.
@Suite("Report files: only a regular file or a new path is written")
struct OutputPathTests {
  @Test(
    "--sarif and --junit refuse a symlink, a FIFO, /dev/null and a missing folder", arguments: ["--sarif", "--junit"])
  func refused(option: String) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outputs-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/target"))
    try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/target")
    #expect(mkfifo(folder + "/fifo", 0o600) == 0)
    for path in [folder + "/link", folder + "/fifo", "/dev/null", folder + "/missing/out"] {
      let run = try CommandLineTests.run(["verify", "models/2023-swift.yaml", "--engines", "explicit", option, path])
      #expect(run.status == 64, "\(option) \(path): \(run.stderr)")
      #expect(run.stderr.contains(option), "\(run.stderr)")
    }
    var info = stat()
    #expect(lstat(folder + "/link", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    #expect(lstat(folder + "/fifo", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    #expect(try String(contentsOfFile: folder + "/target", encoding: .utf8) == "keep")
  }

  @Test("--sarif replaces a regular file atomically, keeping no temporary file")
  func regular() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outputs-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/log.sarif"))
    let run = try CommandLineTests.run(
      ["verify", "models/2023-swift.yaml", "--engines", "explicit", "--sarif", folder + "/log.sarif"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try String(contentsOfFile: folder + "/log.sarif", encoding: .utf8).contains("\"2.1.0\""))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["log.sarif"])
  }
}
