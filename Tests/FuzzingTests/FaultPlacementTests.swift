import Fuzzing
import SignInModel
import Testing

/// Where a case may put a fault on the second backend request of a call: only where the answer
/// takes two requests before Cognito takes it (the TOTP setup step); after a taken answer the
/// second request's fault is `setupFault`. The shrinker and replay judge cases by this, so a
/// shrunk case never turns into one the reference client cannot replay.
@Suite("Faults on the second request of a call")
struct FaultPlacementTests {
  static let model = Result { try ModelLoader.load(file: "models/2023-swift.yaml") }

  /// A user who must set a new password, in a pool that requires TOTP (not yet registered).
  static func configuration(status: String) throws -> [String: String] {
    let model = try Self.model.get()
    var configuration: [String: String] = [:]
    for i in model.configurationIndices {
      let v = model.variables[i]
      configuration[v.name] = v.domain.render(v.defaultValue ?? v.domain.values[0])
    }
    let overrides = [
      "pool.authFlow": "userPassword", "pool.mfa": "required", "pool.totp": "true", "pool.sms": "false",
      "user.status": status, "user.totpRegistered": "false", "user.phone": "false",
    ]
    return configuration.merging(overrides) { $1 }
  }

  @Test("a network fault on the second request at the new-password step is not a valid case")
  func afterTakenAnswer() async throws {
    let executor = CaseExecutor(model: try Self.model.get())
    let calls = [
      FuzzCall(response: "correctPassword"), FuzzCall(response: "networkFault", faultRequest: 1),
    ]
    let execution = await executor.execute(
      FuzzCase(configuration: try Self.configuration(status: "forceChangePassword"), calls: calls))
    #expect(!execution.valid)
    let setupFault = [FuzzCall(response: "correctPassword"), FuzzCall(response: "setupFault", faultRequest: 1)]
    let asSetupFault = await executor.execute(
      FuzzCase(configuration: try Self.configuration(status: "forceChangePassword"), calls: setupFault))
    #expect(asSetupFault.valid && !asSetupFault.failed, "\(asSetupFault.message ?? "")")
  }

  @Test("a network fault on the second request at the TOTP setup step is a valid case the reference client passes")
  func atTOTPSetup() async throws {
    let executor = CaseExecutor(model: try Self.model.get())
    let calls = [
      FuzzCall(response: "correctPassword"), FuzzCall(response: "networkFault", faultRequest: 1),
      FuzzCall(response: "wrongCode"), FuzzCall(response: "correctCode"),
    ]
    let execution = await executor.execute(
      FuzzCase(configuration: try Self.configuration(status: "confirmed"), calls: calls))
    #expect(execution.valid && !execution.failed, "\(execution.message ?? "")")
    #expect(execution.calls.count == 4)
  }
}
