import Foundation

extension SafeFile {
  /// Deletes `path` only when it is a regular file (not a symbolic link, folder, FIFO or device)
  /// that lies directly in `folder` once both are resolved; anything else is refused, untouched.
  public static func remove(_ path: String, inFolder folder: String) throws(Problem) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      throw Problem(path: path, reason: String(cString: strerror(errno)), verb: "delete")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw Problem(path: path, reason: "it is not a regular file; only a regular file is deleted", verb: "delete")
    }
    let parent = (path as NSString).deletingLastPathComponent
    guard let resolvedParent = resolved(parent.isEmpty ? "." : parent), let resolvedFolder = resolved(folder),
      resolvedParent == resolvedFolder
    else {
      throw Problem(path: path, reason: "it is not directly in the folder \(folder)", verb: "delete")
    }
    guard unlink(path) == 0 else {
      throw Problem(path: path, reason: String(cString: strerror(errno)), verb: "delete")
    }
  }

  /// The canonical absolute path (links resolved), nil when it does not exist.
  static func resolved(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }
}
