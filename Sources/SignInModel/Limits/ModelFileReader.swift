import Foundation

/// Reads a model file without blocking or reading without end: only a regular file (a symbolic
/// link is followed to one) of at most `ModelLimits.maxFileBytes` is read; a directory, FIFO,
/// socket or device is refused with a message that says what it is.
enum ModelFileReader {
  struct Problem: Error {
    let message: String
  }

  /// `what` names the kind of file in messages ("a model", "a scenario file").
  static func read(_ path: String, what: String = "a model") -> Result<[UInt8], Problem> {
    var info = stat()
    guard stat(path, &info) == 0 else {
      return .failure(Problem(message: "cannot read the file: \(String(cString: strerror(errno)))"))
    }
    if let kind = nonRegularKind(info.st_mode) {
      return .failure(Problem(message: "cannot read \(what) from \(kind); give a regular file"))
    }
    if Int(info.st_size) > ModelLimits.maxFileBytes {
      return .failure(
        Problem(
          message: "the file has \(info.st_size) bytes; \(what) may have at most \(ModelLimits.maxFileBytes)"))
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      return .failure(Problem(message: "cannot read the file: permission denied or it vanished"))
    }
    defer { try? handle.close() }
    do {
      let data = try handle.read(upToCount: ModelLimits.maxFileBytes + 1) ?? Data()
      if data.count > ModelLimits.maxFileBytes {
        return .failure(Problem(message: "the file grew past \(ModelLimits.maxFileBytes) bytes while being read"))
      }
      return .success([UInt8](data))
    } catch {
      return .failure(Problem(message: "cannot read the file: \(error.localizedDescription)"))
    }
  }

  /// "a directory", "a FIFO (named pipe)", … for anything that is not a regular file.
  static func nonRegularKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFSOCK: return "a socket"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    default: return "something that is not a regular file"
    }
  }
}
