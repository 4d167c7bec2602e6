import Foundation
import SignInModel
import Testing

/// The `properties:` section: what loads, and every mistake an error at its file:line:column.
@Suite("Model properties in the model format")
struct ModelPropertyLoadingTests {
  static func load(_ properties: String) throws -> SignInModel {
    let text = try String(contentsOfFile: "models/2023-swift.yaml", encoding: .utf8)
    let start = try #require(text.range(of: "\nproperties:\n"))
    let replaced = text.replacingCharacters(in: start.lowerBound..<text.endIndex, with: "\nproperties:\n" + properties)
    return try ModelLoader.load(yaml: replaced, file: "p.yaml")
  }

  static func errors(_ properties: String) -> [String] {
    do {
      _ = try load(properties)
      return []
    } catch let error as ModelLoadError {
      return error.description.split(separator: "\n").map(String.init)
    } catch {
      return ["\(error)"]
    }
  }

  @Test("the five kinds load with their description and line, reading step, last.* and verified.*")
  func kindsLoad() throws {
    let model = try Self.load(
      """
        a: {always: "flow.retries < 5", description: bounded}
        b: {never: "last.response == wrongCode && step == done"}
        c: {reachable: "verified.mfa && last.outcome == done"}
        d: {eventually: "last.outcome in [done, restart] || step in [resetPassword, confirmSignUp]"}
        e:
          leadsTo: {from: "step == confirmSignInWithTOTPCode", to: "step == done || last.outcome == restart"}
      """)
    #expect(model.properties.map(\.kind) == [.always, .never, .reachable, .eventually, .leadsTo])
    #expect(model.properties[0].description == "bounded")
    #expect(model.properties[4].targetText == "step == done || last.outcome == restart")
    #expect(model.properties.allSatisfy { $0.line > 0 })
  }

  @Test("an unknown step, a type error, a missing kind and a built-in's name are errors at their place")
  func errorsAtTheirPlace() {
    let unknownStep = Self.errors("  a: {never: \"step == smsCode\"}\n")
    #expect(unknownStep.count == 1 && unknownStep[0].contains("p.yaml:") && unknownStep[0].contains("'smsCode'"))
    let typeError = Self.errors("  a: {always: \"flow.retries + 1\"}\n")
    #expect(typeError.count == 1 && typeError[0].contains("expected a bool expression"))
    let noKind = Self.errors("  a: {description: nothing}\n")
    #expect(noKind.count == 1 && noKind[0].contains("needs exactly one of always, never, reachable"))
    let builtin = Self.errors("  terminates: {always: \"true\"}\n")
    #expect(builtin.count == 1 && builtin[0].contains("name of a built-in invariant"))
    let noTo = Self.errors("  a: {leadsTo: {from: \"true\"}}\n")
    #expect(noTo.count == 1 && noTo[0].contains("leadsTo needs from: and to:"))
  }
}
