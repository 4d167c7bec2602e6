import DocsConformance
import SignInModel
import Testing

/// Small pages of our own, checked against the shipped 2026 model: each finding kind, and a page that agrees.
@Suite("docs: each finding kind on a small page")
struct FindingKindTests {
  static let model = try! ModelLoader.load(file: "models/2026-all-platforms.yaml")

  func findings(_ text: String, _ name: String = "page.txt") -> [Finding] {
    let page = PageReader.parse(text: text, path: name)
    return DocsChecker(models: [Self.model]).check(pages: [page]).findings
  }

  @Test("a page that agrees with the model gives nothing")
  func agreeingPage() {
    let page = """
      <!-- Platform: swift -->
      ## Confirm sign-in with SMS MFA

      If the next step is `confirmSignInWithSMSMFACode`, enter the code.

      ```swift
      switch signInResult.nextStep {
      case .confirmSignInWithSMSMFACode: break
      case .done: break
      }
      ```
      <!-- /Platform -->
      <!-- Platform: javascript -->
      ## Continue sign-in with MFA Setup Selection

      If the next step is `CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION`, pick one.

      The MFA types which are currently supported by Amplify Auth for setup are:

      - `TOTP`
      - `EMAIL`

      - If `TOTP` is selected, `CONTINUE_SIGN_IN_WITH_TOTP_SETUP` will be the next step.
      <!-- /Platform -->
      """
    #expect(findings(page).isEmpty)
  }

  @Test("a name that is another platform's is reported with this platform's name suggested")
  func unknownName() throws {
    let page =
      "<!-- Platform: flutter -->\n## Confirm sign-in with TOTP MFA\n\nIf the next step is `confirmSignInWithTOTPCode`, type it.\n"
    let f = try #require(findings(page).first)
    #expect(f.kind == .unknownName)
    #expect(f.line == 4)
    #expect(f.message.contains("confirmSignInWithTotpMfaCode"))
  }

  @Test("a step name on a platform that throws an exception for it is step-or-exception")
  func stepOrExceptionByName() {
    let page =
      "<!-- Platform: android -->\n| Next Step | Description |\n| --- | --- |\n| `CONFIRM_SIGN_UP` | confirm the user |\n"
    #expect(findings(page).map(\.kind) == [.stepOrException])
  }

  @Test("an exception tied to the wrong step's section is step-or-exception")
  func stepOrExceptionBySection() {
    let page =
      "<!-- Platform: android -->\n## Confirm sign-in with new password\nIf you receive a `UserNotConfirmedException`, set a new password.\n"
    let result = findings(page)
    #expect(result.map(\.kind) == [.stepOrException])
    #expect(result.first?.line == 3)
  }

  @Test("an expected next step the model never produces from that step with that answer")
  func unexpectedNextStep() {
    let page = """
      <!-- Platform: javascript -->
      ## Continue sign-in with MFA Selection
      If the next step is `CONTINUE_SIGN_IN_WITH_MFA_SELECTION`, pick one.
      - If `TOTP` is selected, `CONFIRM_SIGN_IN_WITH_SMS_CODE` will be the next step.
      """
    #expect(findings(page).map(\.kind) == [.unexpectedNextStep])
  }

  @Test("an expected next step whose name first means a different step is ambiguous-name")
  func ambiguousName() {
    let page = """
      <!-- Platform: javascript -->
      ## Continue sign-in with First Factor Selection
      If the next step is `CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION`, pick one.
      - If `SMS_OTP` is selected, `CONFIRM_SIGN_IN_WITH_SMS_CODE` will be the next step.
      """
    #expect(findings(page).map(\.kind) == [.ambiguousName])
  }

  @Test("a listed set with a type the model never offers there is set-differs")
  func setDiffers() throws {
    let page =
      "<!-- Platform: android -->\n## Continue sign-in with MFA Setup Selection\n\n"
      + "If the next step is `CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION`, pick. Amplify Auth currently supports "
      + "SMS, TOTP, and email as MFA methods.\n"
    let f = try #require(findings(page).first)
    #expect(f.kind == .setDiffers)
    #expect(f.message.contains("adds SMS"))
  }

  @Test("a table description with a wording the step contradicts")
  func descriptionContradicts() {
    let page =
      "<!-- Platform: swift -->\n| Next Step | Description |\n| --- | --- |\n"
      + "| `confirmSignInWithPassword` | The user must set a new password. |\n"
    #expect(findings(page).map(\.kind) == [.descriptionContradicts])
  }

  @Test("a complete next-step table that leaves out a step")
  func stepNotListed() {
    let page =
      "<!-- Platform: swift -->\n| Next Step | Description |\n| --- | --- |\n"
      + "| `confirmSignInWithSMSMFACode` | The sign-in must be confirmed with a SMS code. |\n"
      + "| `confirmSignInWithTOTPCode` | The sign-in must be confirmed with a TOTP code. |\n"
      + "| `done` | The sign in process has been completed. |\n"
    let result = findings(page)
    #expect(!result.isEmpty)
    #expect(result.allSatisfy { $0.kind == .stepNotListed })
    #expect(result.contains { $0.message.hasSuffix("confirmSignInWithPassword") })
  }

  @Test("a section whose text names another step than its heading")
  func headingMismatch() {
    let page = "<!-- Platform: flutter -->\n## Confirm Signup\nIf the next step is `resetPassword`, confirm the user.\n"
    #expect(findings(page).map(\.kind) == [.headingMismatch])
  }

  @Test("the same API spelt differently on two pages of one platform; scraped pages read as code")
  func apiNameDiffers() {
    let english = "Page updated Nov 14, 2023\n\nfunc s() { let u = try setUpDetails.getSetupURI(appName: \"App\") }\n"
    let second = "Page updated Nov 15, 2023\n\nfunc a() { let x = try details.getSetupURI(appName: \"A\") }\n"
    let translated =
      "Page updated Mar 26, 2026\n\nfunc s() { let u = try setUpDetails.getSetupUri(appName: \"App\") }\n"
    let pages = [("a.txt", english), ("b.txt", second), ("c.txt", translated)].map {
      PageReader.parse(text: $0.1, path: $0.0)
    }
    let result = DocsChecker(models: [Self.model]).check(pages: pages).findings
    #expect(result.map(\.kind) == [.apiNameDiffers])
    #expect(result.first?.page == "c.txt")
  }
}
