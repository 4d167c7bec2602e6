import Foundation
import SignInModel

/// Evolution pairs made by text edits of the shipped models, so they stay in sync with them.
enum EvolutionPairs {
  static let root: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return url
  }()

  static func text(_ name: String) -> String {
    (try? String(contentsOf: root.appendingPathComponent("models/\(name).yaml"), encoding: .utf8)) ?? ""
  }

  static func model(_ name: String) throws -> SignInModel {
    try ModelLoader.load(file: root.appendingPathComponent("models/\(name).yaml").path)
  }

  /// Loads `text` after each (old, new) replacement; every `old` must occur.
  static func edited(_ name: String, _ edits: [(String, String)]) throws -> SignInModel {
    var text = text(name)
    for (from, to) in edits {
      guard text.contains(from) else { throw EditError(missing: from) }
      text = text.replacingOccurrences(of: from, with: to)
    }
    return try ModelLoader.load(yaml: text, file: "edited-\(name).yaml")
  }

  struct EditError: Error { let missing: String }
}
