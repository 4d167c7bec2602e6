import Diagnosis
import Foundation
import Recordings
import SignInModel
import Testing

/// Diagnosing recordings against the 2026 model: which configurations explain a recording, and
/// the first request none explains.
@Suite("Diagnose: configurations that explain a recording, or where it departs")
struct DiagnoserTests {
  static let model = try! ModelLoader.load(file: "models/2026-all-platforms.yaml")
  static let diagnoser = Diagnoser(model: model)

  static func line(_ operation: String, _ request: String, _ response: String?, status: Int = 200) -> String {
    "{\"operation\":\"\(operation)\",\"request\":\(request),\"response\":\(response ?? "null"),\"status\":\(status)}"
  }

  static let signIn = line(
    "InitiateAuth", #"{"AuthFlow":"USER_PASSWORD_AUTH","AuthParameters":{"USERNAME":"user","PASSWORD":"Passw0rd!"}}"#,
    #"{"ChallengeName":"SMS_MFA","Session":"s1","ChallengeParameters":{"CODE_DELIVERY_DELIVERY_MEDIUM":"SMS","CODE_DELIVERY_DESTINATION":"+1***0100"}}"#
  )
  static let wrongCode = line(
    "RespondToAuthChallenge",
    #"{"ChallengeName":"SMS_MFA","Session":"s1","ChallengeResponses":{"USERNAME":"user","SMS_MFA_CODE":"000000"}}"#,
    #"{"__type":"CodeMismatchException","message":"Invalid code"}"#, status: 400)
  static let rightCode = line(
    "RespondToAuthChallenge",
    #"{"ChallengeName":"SMS_MFA","Session":"s1","ChallengeResponses":{"USERNAME":"user","SMS_MFA_CODE":"482913"}}"#,
    #"{"AuthenticationResult":{"AccessToken":"a.b.c","IdToken":"i.d.t","RefreshToken":"r","ExpiresIn":3600}}"#)

  static func diagnose(_ lines: [String]) throws -> RecordingDiagnosis {
    let recording = try RecordingReader.read(try RecordingReaderTests.file(lines.joined(separator: "\n")))
    return RecordingDiagnosis(recording, diagnoser: diagnoser)
  }

  @Test("SMS MFA, a wrong code then the right one: consistent, with the configurations that send SMS codes")
  func smsConsistent() throws {
    let diagnosis = try Self.diagnose([Self.signIn, Self.wrongCode, Self.rightCode])
    let verdict = try #require(diagnosis.flows.first).verdict
    #expect(verdict.kind == .consistent)
    #expect(verdict.count > 0)
    #expect(verdict.values["pool.sms"] == ["true"] && verdict.values["user.phone"] == ["true"])
    #expect(verdict.values["pool.authFlow"] == ["userPassword"], "the InitiateAuth's AuthFlow")
    #expect(verdict.values["pool.mfa"]?.contains("off") == false)
    #expect(diagnosis.redacted.contains("PASSWORD") && diagnosis.redacted.contains("SMS_MFA_CODE"))
    let text = DiagnosisReport(model: Self.model, diagnoses: [diagnosis]).text()
    for secret in ["Passw0rd!", "000000", "482913", "a.b.c", "s1\""] { #expect(!text.contains(secret)) }
  }

  @Test("an answer to a challenge the client was not shown is inconsistent at that request, with what the model allows")
  func wrongChallenge() throws {
    let totp = Self.signIn.replacingOccurrences(
      of: #""ChallengeName":"SMS_MFA""#, with: #""ChallengeName":"SOFTWARE_TOKEN_MFA""#)
    let verdict = try #require(try Self.diagnose([totp, Self.wrongCode, Self.rightCode]).flows.first).verdict
    #expect(verdict.kind == .inconsistent)
    #expect(verdict.failingRequest?.request == 2)
    #expect(verdict.allowed == ["an answer to confirmSignInWithTOTPCode, not to another step"])
  }

  @Test("signed in without MFA: consistent only with configurations that ask none; a later MFA answer is inconsistent")
  func skippedMFA() throws {
    let tokens = Self.signIn.replacingOccurrences(
      of:
        #"{"ChallengeName":"SMS_MFA","Session":"s1","ChallengeParameters":{"CODE_DELIVERY_DELIVERY_MEDIUM":"SMS","CODE_DELIVERY_DESTINATION":"+1***0100"}}"#,
      with: #"{"AuthenticationResult":{"AccessToken":"a","IdToken":"b","RefreshToken":"c","ExpiresIn":3600}}"#)
    let alone = try #require(try Self.diagnose([tokens]).flows.first).verdict
    #expect(alone.kind == .consistent)
    #expect(alone.values["pool.mfa"] != ["required"], "\(alone.values)")
    let then = try #require(try Self.diagnose([tokens, Self.rightCode]).flows.first).verdict
    #expect(then.kind == .inconsistent && then.failingRequest?.request == 2)
  }

  @Test(
    "two users are split and checked apart; a user's recording that starts mid-flow is checked from the step it answers"
  )
  func splitAndMidFlow() throws {
    let bob = Self.signIn.replacingOccurrences(of: #""USERNAME":"user""#, with: #""USERNAME":"bob""#)
    let diagnosis = try Self.diagnose([Self.wrongCode, Self.signIn, bob, Self.rightCode])
    // user: the answer before any sign-in (a flow of its own, mid-flow), then a sign-in and its code.
    #expect(diagnosis.flows.map(\.username) == ["user", "user", "bob"])
    #expect(diagnosis.flows.map(\.requests) == [[1], [2, 4], [3]])
    #expect(diagnosis.flows[0].verdict.midFlow == ["confirmSignInWithSMSMFACode"])
    #expect(diagnosis.flows[1].verdict.midFlow.isEmpty && diagnosis.flows[1].flow == 2)
    #expect(diagnosis.flows.map(\.verdict.kind) == [.consistent, .consistent, .consistent])
    let bobOnly = try #require(try Self.diagnose([bob, Self.rightCode]).flows.first)
    #expect(bobOnly.verdict.kind == .consistent, "the code answer carries user, not bob: a flow of its own")
  }

  @Test("no answer at the code is a network fault the model keeps the step for; the retry signs in")
  func networkFault() throws {
    let lost = Self.line(
      "RespondToAuthChallenge",
      #"{"ChallengeName":"SMS_MFA","Session":"s1","ChallengeResponses":{"USERNAME":"user","SMS_MFA_CODE":"482913"}}"#,
      nil)
    let verdict = try #require(try Self.diagnose([Self.signIn, lost, Self.rightCode]).flows.first).verdict
    #expect(verdict.kind == .consistent)
  }
}
