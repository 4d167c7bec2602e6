import Foundation
import SignInModel
import Testing

/// Response classes that carry errors (`errors:`, format 3): what loads, and each mistake an
/// error at its place.
@Suite("Response classes that carry errors")
struct CarriedErrorsLoadingTests {
  /// The 2023 model with its `setupError` declaration replaced by `declaration` (and its
  /// `format:` line by `format`).
  static func load(_ declaration: String, format: Int = 3) throws -> SignInModel {
    var text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let start = try #require(text.range(of: "\n  setupError:\n"))
    let end = try #require(text.range(of: "\n  unknownChallenge:", range: start.upperBound..<text.endIndex))
    text.replaceSubrange(start.lowerBound..<end.lowerBound, with: "\n" + declaration)
    let formatLine = try #require(text.range(of: "format: 3"))
    text.replaceSubrange(formatLine, with: "format: \(format)")
    return try ModelLoader.load(yaml: text, file: "e.yaml")
  }

  static func errors(_ declaration: String, format: Int = 3) -> String {
    do {
      _ = try load(declaration, format: format)
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test("the shipped setupError carries AssociateSoftwareToken's documented errors with platform names")
  func shipped() throws {
    for file in ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"] {
      let model = try ModelLoader.load(file: file)
      let setupError = try #require(model.responses.first { $0.name == "setupError" })
      #expect(setupError.errors.count == 7)
      let notAuthorized = try #require(setupError.carried("NotAuthorizedException"))
      #expect(notAuthorized.platforms.form(on: "swift") == .error("AuthError.notAuthorized"))
      #expect(notAuthorized.platforms.form(on: "js") == nil, "JS passes Cognito's name through")
      #expect(model.responses.first { $0.name == "unknownChallenge" }?.errors.isEmpty == true)
    }
  }

  @Test("an error with no platform entries loads with its own name everywhere")
  func bareError() throws {
    let model = try Self.load(
      """
        setupError:
          summary: refused
          errors:
            NotAuthorizedException: {}
            ResourceNotFoundException:
      """)
    let errors = try #require(model.responses.first { $0.name == "setupError" }).errors
    #expect(errors.map(\.exception) == ["NotAuthorizedException", "ResourceNotFoundException"])
    #expect(errors.allSatisfy { $0.platforms.isEmpty })
  }

  @Test("a mapping before format 3, an unknown key, a bad name or platform are errors at their line")
  func mistakes() {
    let valid = "  setupError:\n    summary: refused\n    errors:\n      NotAuthorizedException: {}\n"
    #expect(
      Self.errors(valid, format: 2).contains("response 'setupError' as a mapping (summary:, errors:) needs format 3"))
    let unknownKey = Self.errors("  setupError:\n    summary: x\n    error: {}\n")
    #expect(unknownKey.contains("'error'") && unknownKey.contains("response 'setupError'"), "\(unknownKey)")
    #expect(
      Self.errors("  setupError:\n    summary: x\n    errors:\n      not a name: {}\n").contains(
        "not an exception name"))
    let platform = Self.errors("  setupError:\n    summary: x\n    errors:\n      E: {ios: {error: X}}\n")
    #expect(platform.contains("unknown platform 'ios'") && platform.contains("e.yaml:"))
    #expect(Self.errors("  setupError:\n    errors:\n      E: {}\n").contains("needs 'summary:'"))
  }
}
