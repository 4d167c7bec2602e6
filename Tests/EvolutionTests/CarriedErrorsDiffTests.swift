import Evolution
import Foundation
import SignInModel
import Testing

/// A change to the errors a response class carries, or to what a platform reports for one, is
/// a structural change `diff` names.
@Suite("diff: the errors a response class carries")
struct CarriedErrorsDiffTests {
  @Test("a platform's name for a carried error changed, and an error dropped, are one responseErrors change")
  func changedMapping() throws {
    let file = "models/2023-swift.yaml"
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let edited = text.replacingOccurrences(
      of: "        swift: {error: AuthError.notAuthorized}\n", with: "        swift: {error: AuthError.service}\n"
    )
    .replacingOccurrences(
      of:
        "      ForbiddenException:\n        swift: {error: AuthError.service}\n        android: {error: UnknownException}\n",
      with: "")
    #expect(edited != text)
    let old = try ModelLoader.load(file: file)
    let new = try ModelLoader.load(yaml: edited, file: "edited.yaml")
    let changes = StructuralDiff.compare(old, new).changes.filter { $0.category == "responseErrors" }
    #expect(changes.count == 1)
    #expect(changes.first?.name == "setupError")
    #expect(changes.first?.detail.contains("NotAuthorizedException {swift: AuthError.service") == true)
    #expect(changes.first?.detail.contains("ForbiddenException") == true, "the old list names the dropped error")
    #expect(StructuralDiff.compare(old, old).changes.isEmpty)
  }
}
