import Conformance
import Scenarios
import SignInClient
import SignInModel
import SimulatedCognito
import Testing

/// The models' classes for answers no client can go on from (`unknownChallenge`,
/// `unexpectedDeviceChallenge`) and for AssociateSoftwareToken refused with a named error
/// (`setupError`), as the harness gives them to the reference client on the simulated pool.
@Suite("Unknown and unasked challenges, AssociateSoftwareToken errors: model, pool and client agree")
struct ServerAnswerTests {
  static let model = Result { try ModelLoader.load(file: "models/2026-all-platforms.yaml") }

  static func configuration(_ overrides: [String: String]) throws -> [String: String] {
    try ConfigurationResolver(model: try Self.model.get()).resolve(overrides.map { (name: $0.key, value: $0.value) })
  }

  static let totpSetup = ["pool.authFlow": "userPassword", "pool.mfa": "required", "pool.totp": "true"]
  static let sms = [
    "pool.authFlow": "userSRP", "pool.mfa": "required", "pool.sms": "true", "user.phone": "true",
    "user.smsEnabled": "true",
  ]

  @Test(
    "a challenge the client cannot know, at signIn or at a challenge, ends the flow; a new signIn works",
    arguments: [0, 1])
  func unknownChallenge(at call: Int) async throws {
    let harness = Harness(model: try Self.model.get())
    var run = try #require(harness.start(try Self.configuration(Self.sms)))
    if call == 1 { _ = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run) }
    let record = try await harness.perform(Harness.Call(response: "unknownChallenge"), on: &run)
    guard case .restart = record.expected else {
      Issue.record("the model expects \(record.expected)")
      return
    }
    #expect(record.expectedException == "UnknownChallengeError")
    #expect(record.observation.errorName == "UnknownChallengeError")
    #expect(record.disagreement == nil, "\(record.disagreement?.description ?? "")")
    #expect(run.flowEnded)
    let again = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run)
    #expect(again.disagreement == nil, "\(again.disagreement?.description ?? "")")
  }

  @Test("DEVICE_SRP_AUTH with no device remembered ends the flow as an answer the client cannot use")
  func unexpectedDeviceChallenge() async throws {
    let harness = Harness(model: try Self.model.get())
    var run = try #require(harness.start(try Self.configuration(Self.sms)))
    _ = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run)
    let record = try await harness.perform(Harness.Call(response: "unexpectedDeviceChallenge"), on: &run)
    #expect(record.expectedException == "SignInError.invalidServiceResponse")
    #expect(record.disagreement == nil, "\(record.disagreement?.description ?? "")")
    let again = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run)
    #expect(again.disagreement == nil, "\(again.disagreement?.description ?? "")")
  }

  @Test("the harness gives no unasked device challenge where a device is remembered (the client answers it)")
  func rememberedDeviceIsNotUnexpected() throws {
    let harness = Harness(model: try Self.model.get())
    let remembered = try Self.configuration([
      "pool.authFlow": "userSRP", "pool.deviceTracking": "always", "user.deviceRemembered": "true",
    ])
    let run = try #require(harness.start(remembered))
    #expect(!harness.supports("unexpectedDeviceChallenge", in: run.oracle))
    let plain = try #require(harness.start(try Self.configuration(["pool.authFlow": "userSRP"])))
    #expect(harness.supports("unexpectedDeviceChallenge", in: plain.oracle))
  }

  /// AssociateSoftwareToken's documented errors (API reference), which the model's setupError carries.
  static let setupErrors = [
    "NotAuthorizedException", "InvalidParameterException", "ResourceNotFoundException",
    "ConcurrentModificationException", "SoftwareTokenMFANotFoundException", "InternalErrorException",
    "ForbiddenException",
  ]

  @Test("the model's setupError carries every documented AssociateSoftwareToken error")
  func setupErrorsCarried() throws {
    let carried = try #require(try Self.model.get().responses.first { $0.name == "setupError" }).errors
    #expect(carried.map(\.exception) == Self.setupErrors)
  }

  @Test("AssociateSoftwareToken refused with a named error ends the flow with that error", arguments: setupErrors)
  func setupError(exception: String) async throws {
    let harness = Harness(model: try Self.model.get())
    var run = try #require(harness.start(try Self.configuration(Self.totpSetup)))
    let record = try await harness.perform(Harness.Call(response: "setupError", error: exception), on: &run)
    guard case .restart = record.expected else {
      Issue.record("the model expects \(record.expected)")
      return
    }
    #expect(record.expectedException == exception)
    #expect(record.observation.errorName == exception)
    #expect(record.disagreement == nil, "\(record.disagreement?.description ?? "")")
    let again = try await harness.perform(Harness.Call(response: "correctPassword"), on: &run)
    #expect(again.expected == .step("continueSignInWithTOTPSetup"))
    #expect(again.disagreement == nil, "\(again.disagreement?.description ?? "")")
  }

  @Test("setupError where no TOTP setup follows the answer is not given (no AssociateSoftwareToken to refuse)")
  func setupErrorOnlyBeforeSetup() throws {
    let harness = Harness(model: try Self.model.get())
    let run = try #require(harness.start(try Self.configuration(["pool.authFlow": "userPassword"])))
    #expect(!harness.supports("setupError", in: run.oracle))
    let setup = try #require(harness.start(try Self.configuration(Self.totpSetup)))
    #expect(harness.supports("setupError", in: setup.oracle))
  }
}
