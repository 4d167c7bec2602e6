import Foundation

/// gzip bodies of HAR entries, decompressed by the system's `gzip -dc` (a browser's HAR may keep
/// a response compressed, base64-encoded); at most `maxBytes` of output.
enum Gunzip {
  static let maxBytes = 64 << 20

  static func decompress(_ data: Data) -> Data? {
    guard let gzip = ["/bin/gzip", "/usr/bin/gzip"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
      return nil
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gzip)
    process.arguments = ["-dc"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    // Write from another thread, so a large output cannot block the write.
    let writer = Thread {
      try? input.fileHandleForWriting.write(contentsOf: data)
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    var result = Data()
    while let chunk = try? output.fileHandleForReading.read(upToCount: 65_536), !chunk.isEmpty {
      result.append(chunk)
      if result.count > maxBytes {
        process.terminate()
        break
      }
    }
    process.waitUntilExit()
    return process.terminationStatus == 0 && result.count <= maxBytes ? result : nil
  }
}
