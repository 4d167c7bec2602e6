import Foundation

/// The one way signin-spec writes a file (JUnit reports, saved counterexamples, any report
/// written to a path): atomically (a new temporary file in the same folder, then a rename), and
/// only over a regular file or onto a new path. A symbolic link, directory, FIFO, socket or
/// device at the path is refused, never replaced; so is a folder that does not exist.
public enum SafeFile {
  /// Why a path cannot be written.
  public struct Problem: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String
    /// "write" or "delete".
    public let verb: String
    public var description: String { "cannot \(verb) \(path): \(reason)" }

    public init(path: String, reason: String, verb: String = "write") {
      self.path = path
      self.reason = reason
      self.verb = verb
    }
  }

  /// Nil when `path` can be written: its folder exists, and it is absent or a regular file.
  public static func problem(writing path: String) -> Problem? {
    if path.isEmpty { return Problem(path: path, reason: "the path is empty") }
    let folder = (path as NSString).deletingLastPathComponent
    var info = stat()
    if stat(folder.isEmpty ? "." : folder, &info) != 0 {
      return Problem(path: path, reason: "the folder \(folder) does not exist")
    }
    if info.st_mode & S_IFMT != S_IFDIR {
      return Problem(path: path, reason: "\(folder) is not a folder")
    }
    if lstat(path, &info) != 0 {
      return errno == ENOENT ? nil : Problem(path: path, reason: String(cString: strerror(errno)))
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFLNK: return Problem(path: path, reason: "it is a symbolic link; give the file it points to")
    case S_IFDIR: return Problem(path: path, reason: "it is a directory")
    case S_IFIFO: return Problem(path: path, reason: "it is a FIFO (named pipe); only a regular file is replaced")
    case S_IFCHR, S_IFBLK: return Problem(path: path, reason: "it is a device; only a regular file is replaced")
    case S_IFSOCK: return Problem(path: path, reason: "it is a socket; only a regular file is replaced")
    default: return Problem(path: path, reason: "it is not a regular file")
    }
  }

  /// Writes `data` to `path` atomically; the path is checked again just before the rename.
  public static func write(_ data: Data, to path: String) throws(Problem) {
    if let problem = problem(writing: path) { throw problem }
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let temporary = ((folder.isEmpty ? "." : folder) as NSString)
      .appendingPathComponent(".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    var existing = stat()
    let mode: mode_t = lstat(path, &existing) == 0 ? existing.st_mode & 0o777 : 0o644
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard fd >= 0 else { throw Problem(path: path, reason: String(cString: strerror(errno))) }
    var failure: String?
    data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = Foundation.write(fd, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = String(cString: strerror(errno))
          return
        }
        offset += written
      }
    }
    if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
    close(fd)
    if failure == nil, let problem = problem(writing: path) { failure = problem.reason }
    if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
    if let failure {
      unlink(temporary)
      throw Problem(path: path, reason: failure)
    }
  }
}
