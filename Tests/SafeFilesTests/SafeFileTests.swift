import Foundation
import SafeFiles
import Testing

@Suite("Writing files: atomic, and only over a regular file")
struct SafeFileTests {
  static func folder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("safefile-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test("a new path and a regular file are written")
  func regular() throws {
    let dir = try Self.folder()
    let path = dir + "/out.xml"
    try SafeFile.write(Data("one".utf8), to: path)
    try SafeFile.write(Data("two".utf8), to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.xml"])
  }

  @Test("a device, FIFO, directory, symlink or missing folder is refused and left alone")
  func refused() throws {
    let dir = try Self.folder()
    #expect(mkfifo(dir + "/fifo", 0o600) == 0)
    try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: false)
    try Data("target".utf8).write(to: URL(fileURLWithPath: dir + "/target"))
    try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/target")
    for path in ["/dev/null", dir + "/fifo", dir + "/sub", dir + "/link", dir + "/missing/out.xml"] {
      #expect(throws: SafeFile.Problem.self) { try SafeFile.write(Data("x".utf8), to: path) }
    }
    var info = stat()
    #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    #expect(lstat(dir + "/link", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    #expect(try String(contentsOfFile: dir + "/target", encoding: .utf8) == "target")
  }
}
