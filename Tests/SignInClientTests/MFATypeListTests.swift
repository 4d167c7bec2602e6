import Foundation
import Testing

@testable import SignInClient

/// MFAS_CAN_CHOOSE and MFAS_CAN_SETUP are JSON lists in a string. The client reads the plain
/// form Cognito writes without a JSON decoder (`plainNameList`), and every other text with one:
/// either way the same types.
@Suite struct MFATypeListTests {
  static func decoded(_ text: String) -> Set<MFAType> {
    guard let names = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return [] }
    return Set(names.compactMap { MFAType(rawValue: $0) })
  }

  @Test(arguments: [
    #"["SMS_MFA","SOFTWARE_TOKEN_MFA","EMAIL_OTP"]"#, #"["SMS_MFA"]"#, "[]", #"["PUSH_MFA","EMAIL_OTP"]"#, #"[""]"#,
    #"["sms_mfa"]"#,
  ])
  func plainListsAreReadWithoutADecoder(text: String) {
    #expect(SignInClient.plainNameList(text) != nil)
    #expect(SignInClient.mfaTypes(text) == Self.decoded(text))
  }

  @Test(arguments: [
    #"[ "SMS_MFA", "EMAIL_OTP" ]"#, #"["SMS\u005fMFA"]"#, #"["SMS_MFA",]"#, #"[SMS_MFA]"#, #"["SMS_MFA""#, "",
    #"["SMS_MFA"],["EMAIL_OTP"]"#, #"["SMS_MFA", 3]"#, "[\"SMS_MFA\",\n\"EMAIL_OTP\"]", #"["É"]"#, "not json",
  ])
  func otherTextsGoToTheDecoderWithTheSameResult(text: String) {
    #expect(SignInClient.plainNameList(text) == nil)
    #expect(SignInClient.mfaTypes(text) == Self.decoded(text))
  }

  @Test func noTextIsNoType() {
    #expect(SignInClient.mfaTypes(nil).isEmpty)
  }
}
