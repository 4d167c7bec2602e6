import SignInModel
import Testing

/// `platforms:` on rules and the top-level `clientCalls:`.
@Suite("Per-platform rule outcomes and client calls in the model file")
struct PlatformOutcomeLoaderTests {
  static func withPlatforms(_ entry: String) -> String {
    TinyModel.replacing(
      "          error: CodeMismatchException\n",
      with: "          error: CodeMismatchException\n          platforms: \(entry)\n")
  }

  static let clientCalls = """

    clientCalls:
      signOut:
        inFlow:
          effect: keep
          result: signedOut
          platforms: {swift: {error: AuthError.invalidState}}
        signedIn: {effect: end, result: signedOut}
    """

  @Test("a rule's platforms: entry is loaded per platform")
  func loadsRulePlatforms() throws {
    let model = try ModelLoader.load(
      yaml: Self.withPlatforms("{android: {error: CodeMismatchAndroid}}"), file: "tiny.yaml")
    let rule = try #require(
      model.steps[1].responses.flatMap(\.rules).first { $0.outcome == .error("CodeMismatchException") })
    #expect(rule.platformOutcomes == [PlatformOutcome(platform: "android", form: .error("CodeMismatchAndroid"))])
    #expect(rule.platformOutcomes.form(on: "swift") == nil)
  }

  @Test("an unknown platform or a malformed entry is an error at its line")
  func badRulePlatforms() {
    let unknown = TinyModel.diagnostics(Self.withPlatforms("{andriod: {error: X}}"))
    #expect(
      unknown.map(\.message) == [
        "unknown platform 'andriod'; did you mean 'android'?; the model's platforms: swift, android"
      ])
    #expect(unknown.first?.line == 38)
    let malformed = TinyModel.diagnostics(Self.withPlatforms("{android: {step: X}}"))
    #expect(malformed.map(\.message) == ["the entry of 'android' is {error: NAME} or {result: signedOut}"])
  }

  @Test("clientCalls: loads each situation with its effect and per-platform reports")
  func loadsClientCalls() throws {
    let model = try ModelLoader.load(yaml: TinyModel.yaml + Self.clientCalls, file: "tiny.yaml")
    let signOut = try #require(model.clientCall(named: "signOut"))
    #expect(signOut.inFlow?.effect == .keep)
    #expect(signOut.inFlow?.report(on: "swift") == .error("AuthError.invalidState"))
    #expect(signOut.inFlow?.report(on: "android") == .signedOut)
    #expect(signOut.signedIn?.effect == .end)
    #expect(model.clientCall(named: "signIn") == nil)
  }

  @Test("clientCalls: an unknown call, effect or result is an error with the closest name")
  func badClientCalls() {
    let call = TinyModel.diagnostics(
      TinyModel.yaml + Self.clientCalls.replacingOccurrences(of: "signOut:", with: "signOff:"))
    #expect(call.map(\.message) == ["clientCalls describes signIn or signOut, not 'signOff'; did you mean 'signOut'?"])
    let effect = TinyModel.diagnostics(TinyModel.yaml + Self.clientCalls.replacingOccurrences(of: "keep", with: "kept"))
    #expect(effect.map(\.message) == ["effect is cancel, keep or end, not 'kept'; did you mean 'keep'?"])
    let result = TinyModel.diagnostics(
      TinyModel.yaml + Self.clientCalls.replacingOccurrences(of: "result: signedOut\n", with: "result: done\n"))
    #expect(result.map(\.message) == ["the only result is signedOut, not 'done'"])
  }
}
