import DocsConformance
import Foundation
import SignInModel
import Testing

/// Code samples read for how they behave, each on a small page of our own checked against the
/// shipped 2026 model: a finding where the sample disagrees, silence where it agrees.
@Suite("docs: code samples")
struct SampleFindingTests {
  static let model = try! ModelLoader.load(file: "models/2026-all-platforms.yaml")

  /// The findings read from code samples (name and prose findings of the same page left out).
  func sampleFindings(_ text: String, _ name: String = "page.txt") -> [Finding] {
    let page = PageReader.parse(text: text, path: name)
    return DocsChecker(models: [Self.model]).check(pages: [page]).findings.filter {
      $0.kind.rawValue.hasPrefix("sample-")
    }
  }

  static func swiftSetup(answer: String, expects: String, section: String = "MFA Setup Selection") -> String {
    let step =
      section == "MFA Setup Selection" ? "continueSignInWithMFASetupSelection" : "continueSignInWithMFASelection"
    return """
      <!-- Platform: swift -->
      ## Continue sign-in with \(section)

      If the next step is `\(step)`, the user picks a method.

      ```swift
      func continueSignIn() async {
          do {
              let signInResult = try await Amplify.Auth.confirmSignIn(
                  challengeResponse: MFAType.\(answer).challengeResponse)

              if case .\(expects) = signInResult.nextStep {
                  print("Received next step")
              }
          } catch {
              print("Confirm sign in failed \\(error)")
          }
      }
      ```
      <!-- /Platform -->
      """
  }

  // MARK: - The step a sample expects after an answer

  @Test("answering EMAIL at MFA setup selection and testing for the TOTP code step is sample-unexpected-next-step")
  func unexpectedNextStepSwift() throws {
    let f = try #require(sampleFindings(Self.swiftSetup(answer: "email", expects: "confirmSignInWithTOTPCode")).first)
    #expect(f.kind == .sampleUnexpectedNextStep)
    #expect(f.line == 12)
    #expect(f.message.contains("continueSignInWithEmailMFASetup"))
  }

  @Test("the same sample with the step the model goes to is silent (setup: EMAIL → email setup, TOTP → TOTP setup)")
  func expectedNextStepSwift() {
    #expect(sampleFindings(Self.swiftSetup(answer: "email", expects: "continueSignInWithEmailMFASetup")).isEmpty)
    #expect(sampleFindings(Self.swiftSetup(answer: "totp", expects: "continueSignInWithTOTPSetup")).isEmpty)
  }

  @Test("MFA selection answered with TOTP, then the TOTP code step, is silent (000:2326, 002:188, 004:241)")
  func mfaSelectionTotpIsSilent() {
    let page = Self.swiftSetup(answer: "totp", expects: "confirmSignInWithTOTPCode", section: "MFA Selection")
    #expect(sampleFindings(page).isEmpty)
  }

  @Test("a scraped page: the answer continues on the next line, the section step comes from 次のステップが X の場合")
  func unexpectedNextStepScraped() {
    let page = """
      Page updated Mar 26, 2026

      MFA セットアップ選択でサインインを続行する

      次のステップが continueSignInWithMFASetupSelection の場合、ユーザーは MFA メソッドを選択する必要があります。

      func continueSignInWithEmailMFASetupSelection() async {
      do {
      let signInResult = try await Amplify.Auth.confirmSignIn(
      challengeResponse: MFAType.email.challengeResponse)
      if case .confirmSignInWithTOTPCode = signInResult.nextStep {
      print("Received next step as confirm sign in with TOTP")
      }
      } catch {
      print("Confirm sign in failed \\(error)")
      }
      }
      """
    #expect(sampleFindings(page).map { "\($0.kind.rawValue):\($0.line)" } == ["sample-unexpected-next-step:11"])
  }

  @Test("a scraped sample's run-together copy is skipped and its numbered copy read without the numbers")
  func numberedCopy() {
    let page = """
      Page updated Nov 14, 2023

      Continue sign-in with MFA Setup Selection

      If the next step is continueSignInWithMFASetupSelection, pick one.

      func f() async { do { let r = try await Amplify.Auth.confirmSignIn(challengeResponse: MFAType.email.challengeResponse) if case .confirmSignInWithTOTPCode = r.nextStep { print("x") } } catch { print("e") } }
      1func f() async {
      2 do {
      3 let r = try await Amplify.Auth.confirmSignIn(challengeResponse: MFAType.email.challengeResponse)
      4 if case .confirmSignInWithTOTPCode = r.nextStep {
      5 print("x")
      6 }
      7 } catch { print("e") }
      8}
      """
    #expect(sampleFindings(page).map { "\($0.kind.rawValue):\($0.line)" } == ["sample-unexpected-next-step:11"])
  }

  @Test("Kotlin: testing signIn's result after answering confirmSignIn is sample-stale-result (001:1962-1967)")
  func staleResultKotlin() throws {
    let page = """
      <!-- Platform: android -->
      ## First Factor Selection

      ```kotlin
      val result = Amplify.Auth.signIn(username = "hello@example.com", password = null, options = options)

      val selectFactorResult = Amplify.Auth.confirmSignIn(challengeResponse = AuthFactorType.SMS_OTP.challengeResponse)

      if (result.nextStep.signInStep == AuthSignInStep.CONFIRM_SIGN_IN_WITH_OTP) {
          Log.i("AuthQuickStart", "OTP code sent to ${result.nextStep.codeDeliveryDetails}")
      }
      ```
      <!-- /Platform -->
      """
    let f = try #require(sampleFindings(page).first)
    #expect(f.kind == .sampleStaleResult)
    #expect(f.line == 9)
    #expect(f.modelLine == 5)
  }

  @Test("Java: the callback's own result after the answer is silent (001:2005-2008)")
  func freshResultJava() {
    let page = """
      <!-- Platform: android -->
      ## First Factor Selection

      If the next step is `CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION`, pick one.

      ```java
      RxAmplify.Auth.signIn(username, null, options).subscribe(
          result -> {
              Log.i("AuthQuickstart", "signed in " + result);
          },
          error -> Log.e("AuthQuickstart", error.toString())
      );
      RxAmplify.Auth.confirmSignIn(AuthFactorType.SMS_OTP.getChallengeResponse())
          .subscribe(
              result -> {
                  if (result.getNextStep().getSignInStep() == AuthSignInStep.CONFIRM_SIGN_IN_WITH_OTP) {
                      Log.i("AuthQuickStart", "OTP code sent");
                  }
              },
              error -> Log.e("AuthQuickstart", error.toString())
          );
      ```
      <!-- /Platform -->
      """
    #expect(sampleFindings(page).isEmpty)
  }

  // MARK: - Caught exceptions

  static let androidTable = """
    <!-- Platform: android -->
    | Next Step | Description |
    | --- | --- |
    | `CONFIRM_SIGN_UP` | The user must confirm their sign up. |
    <!-- /Platform -->

    """

  @Test(
    "Java: catching an exception the platform's table lists as a step is sample-catches-step; the model sides with the sample"
  )
  func catchesStepJava() throws {
    let page =
      Self.androidTable + """
        <!-- Platform: android -->
        ```java
        Amplify.Auth.signIn("u", "p", result -> {}, error -> {
            if (error instanceof UserNotConfirmedException) {
                Log.i("AuthQuickstart", "Signup confirmation required" + error);
            }
        });
        ```
        <!-- /Platform -->
        """
    let f = try #require(sampleFindings(page).first)
    #expect(f.kind == .sampleCatchesStep)
    #expect(f.line == 9)
    #expect(f.message.contains("the model agrees with the sample: android throws UserNotConfirmedException"))
    #expect(f.message.contains("lists CONFIRM_SIGN_UP"))
  }

  @Test("Kotlin: `is X ->` in a when over the error is read too")
  func catchesStepKotlin() {
    let page =
      Self.androidTable + """
        <!-- Platform: android -->
        ```kotlin
        try {
            val result = Amplify.Auth.signIn("u", "p")
        } catch (error: Exception) {
            when (error) {
                is UserNotConfirmedException -> Log.e("AuthQuickstart", "Signup confirmation required", error)
                else -> Log.e("AuthQuickstart", "Unexpected error occurred: $error")
            }
        }
        ```
        <!-- /Platform -->
        """
    #expect(sampleFindings(page).map(\.kind) == [.sampleCatchesStep])
  }

  @Test("a caught exception no table or prose lists as a step is silent")
  func catchWithoutListingIsSilent() {
    let page =
      "<!-- Platform: android -->\n```java\nif (error instanceof UserNotConfirmedException) { Log.i(\"A\", \"x\"); }\n```\n"
    #expect(sampleFindings(page).isEmpty)
  }

  // MARK: - Set literals

  static func tsSet(_ section: String, _ step: String) -> String {
    """
    <!-- Platform: javascript -->
    ## \(section)

    If the next step is `\(step)`, pick one.

    ```ts
    import { confirmSignIn } from 'aws-amplify/auth';
    type MfaType = 'SMS' | 'TOTP' | 'EMAIL';

    async function handleMfaSelection(mfaType: MfaType) {
    \tconst result = await confirmSignIn({ challengeResponse: mfaType });
    \treturn result;
    }
    ```
    <!-- /Platform -->
    """
  }

  @Test("a TS union of MFA types with SMS at setup selection is sample-set-differs (000:352)")
  func setLiteralTs() throws {
    let page = Self.tsSet("Continue sign-in with MFA Setup Selection", "CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION")
    let f = try #require(sampleFindings(page).first)
    #expect(f.kind == .sampleSetDiffers)
    #expect(f.line == 8)
    #expect(f.message.contains("adds SMS"))
  }

  @Test("the same union at MFA selection is what the model offers: silent (000:257)")
  func setLiteralAgrees() {
    let page = Self.tsSet("Continue sign-in with MFA Selection", "CONTINUE_SIGN_IN_WITH_MFA_SELECTION")
    #expect(sampleFindings(page).isEmpty)
  }

  @Test("a Dart set literal of MfaType values is read too")
  func setLiteralDart() {
    let page = """
      <!-- Platform: flutter -->
      ## Continue sign-in with MFA Setup Selection

      If the next step is `continueSignInWithMfaSetupSelection`, pick one.

      ```dart
      const setupTypes = {MfaType.sms, MfaType.totp, MfaType.email};
      ```
      <!-- /Platform -->
      """
    #expect(sampleFindings(page).map(\.kind) == [.sampleSetDiffers])
  }

  // MARK: - Names read but never defined

  @Test(
    "TS: a function that reads a name it never gets is sample-undefined-name; another function's parameter does not count (000:571 vs 581)"
  )
  func undefinedNameTs() {
    let page = """
      ```ts
      import { resendSignUpCode, confirmSignUp } from '@aws-amplify/auth';

      async function handleSignInResult(result: SignInOutput) {
      \tswitch (result.nextStep.signInStep) {
      \t\tcase 'CONFIRM_SIGN_UP': {
      \t\t\tconst { destination } = await resendSignUpCode({
      \t\t\t\tusername,
      \t\t\t});
      \t\t\tconsole.log(`sent to ${destination}`);
      \t\t\tbreak;
      \t\t}
      \t}
      }

      async function handleConfirmSignUp(username: string, confirmationCode: string) {
      \tawait confirmSignUp({ username, confirmationCode });
      }
      ```
      """
    #expect(sampleFindings(page).map { "\($0.kind.rawValue):\($0.line)" } == ["sample-undefined-name:8"])
  }

  @Test("Dart: `username: username` in a handler, and a call of a function no sample of the page defines (001:74, 76)")
  func undefinedNameDart() {
    let page = """
      ```dart
      Future<void> _handleSignInResult(SignInResult result) async {
        switch (result.nextStep.signInStep) {
          case AuthSignInStep.resetPassword:
            final resetResult = await Amplify.Auth.resetPassword(
              username: username,
            );
            await _handleResetPasswordResult(resetResult);
            break;
          case AuthSignInStep.done:
            safePrint('Sign in is complete');
            break;
        }
      }
      ```
      """
    let found = sampleFindings(page)
    #expect(found.map { "\($0.kind.rawValue):\($0.line)" } == ["sample-undefined-name:6", "sample-undefined-name:8"])
    #expect(found.last?.message.contains("calls _handleResetPasswordResult") == true)
  }

  @Test("Swift: `return sink` where no sink is bound (001:502)")
  func undefinedNameSwift() {
    let page = """
      ```swift
      func signUp(username: String, password: String) -> AnyCancellable {
          Amplify.Publisher.create {
              try await Amplify.Auth.signUp(username: username, password: password)
          }.sink { print($0) }
          receiveValue: { signUpResult in print(signUpResult) }
          return sink
      }
      ```
      """
    #expect(sampleFindings(page).map { "\($0.kind.rawValue):\($0.line)" } == ["sample-undefined-name:7"])
  }

  @Test(
    "a top-level fragment's placeholders (`username,`) are silent; a top-level result read but never obtained is not (001:1666)"
  )
  func topLevelFragments() {
    let fragment = """
      ```kotlin
      val result = Amplify.Auth.signIn(
          username,
          password,
          options
      )
      ```
      """
    #expect(sampleFindings(fragment).isEmpty)
    let stale = """
      ```ts
      const { nextStep: signInNextStep } = await signIn({ username: 'hello@example.com', password: 'p' });

      if (confirmSignInNextStep.signInStep === 'DONE') {
      \tconsole.log('Sign in successful!');
      }
      ```
      """
    #expect(sampleFindings(stale).map { "\($0.kind.rawValue):\($0.line)" } == ["sample-undefined-name:4"])
  }

  // MARK: - Dart fall-through

  @Test("Dart: arms with only a comment fall into the next arm's body: sample-arm-falls-through at the first of them")
  func armFallsThrough() throws {
    let page = """
      ```dart
      Future<void> _handleSignInResult(SignInResult result) async {
        switch (result.nextStep.signInStep) {
          case AuthSignInStep.continueSignInWithMfaSelection:
            // Handle select from MFA methods case
          case AuthSignInStep.confirmSignInWithSmsMfaCode:
            // Handle SMS MFA case
          case AuthSignInStep.done:
            safePrint('Sign in is complete');
        }
      }
      ```
      """
    let f = try #require(sampleFindings(page).first)
    #expect(f.kind == .sampleArmFallsThrough)
    #expect(f.line == 4)
    #expect(f.modelLine == 8)
    #expect(f.message.contains("the body of done"))
  }

  @Test("Dart arms with statements (and Swift arms, which never fall through) are silent")
  func armsWithBodiesAreSilent() {
    let page = """
      ```dart
      Future<void> _handleSignInResult(SignInResult result) async {
        switch (result.nextStep.signInStep) {
          case AuthSignInStep.confirmSignInWithSmsMfaCode:
            safePrint('enter the code');
            break;
          case AuthSignInStep.done:
            safePrint('Sign in is complete');
        }
      }
      ```
      """
    #expect(sampleFindings(page).isEmpty)
  }

  // MARK: - Bad input

  @Test("unbalanced braces, a huge line and binary junk give a result, not a crash")
  func badInput() {
    let unbalanced = "```swift\nfunc f() {\n  if case .done = r.nextStep {{{{\n```\nprose after\n}}}}}\n"
    let huge = "```ts\nconst x = '" + String(repeating: "{(a", count: 200_000) + "';\n```\n"
    let junk = String(decoding: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }, as: UTF8.self)
    let scrapedUnbalanced = "Page updated Jan 1, 2026\n\nfunc f() {\n" + String(repeating: "text line {\n", count: 500)
    for text in [unbalanced, huge, junk, scrapedUnbalanced, "", "\n\n\n"] {
      let page = PageReader.parse(text: text, path: "bad.txt")
      let result = DocsChecker(models: [Self.model]).check(pages: [page])
      #expect(result.pages.count == 1)
    }
  }
}

/// The seed pages' code samples: the disagreements found, where, and the samples that agree.
@Suite("docs: the seeds' code samples")
struct SeedSampleTests {
  static let result: DocsChecker.Result? = {
    let pages = SeedRecallTests.seeds.compactMap { try? PageReader.read(path: $0) }
    return pages.isEmpty ? nil : DocsChecker(models: SeedRecallTests.models).check(pages: pages)
  }()

  @Test("every sample finding on the seeds, by kind, page and line")
  func sampleFindings() throws {
    let result = try #require(Self.result, "no seed pages in ../shared/seeds")
    let found = result.findings.filter { $0.kind.rawValue.hasPrefix("sample-") || $0.kind == .setDiffers }
      .map { "\($0.kind.rawValue) \($0.page.prefix(3)):\($0.line)" }
    #expect(
      found == [
        "sample-set-differs 000:352",
        "sample-undefined-name 000:516",
        "sample-undefined-name 000:572",
        "sample-arm-falls-through 000:649",
        "set-differs 000:891",
        "sample-undefined-name 000:1005",
        "sample-undefined-name 000:1050",
        "sample-catches-step 000:1202",
        "sample-catches-step 000:1210",
        "sample-catches-step 000:1305",
        "sample-catches-step 000:1314",
        "sample-catches-step 000:1408",
        "sample-catches-step 000:1417",
        "sample-catches-step 000:1518",
        "sample-catches-step 000:1526",
        "set-differs 000:1677",
        "sample-unexpected-next-step 000:2447",
        "sample-unexpected-next-step 000:2470",
        "sample-undefined-name 001:74",
        "sample-undefined-name 001:76",
        "sample-undefined-name 001:81",
        "sample-undefined-name 001:502",
        "sample-undefined-name 001:1666",
        "sample-stale-result 001:1964",
        "sample-arm-falls-through 003:39",
        "set-differs 003:243",
        "sample-undefined-name 003:342",
        "sample-undefined-name 003:378",
        "sample-unexpected-next-step 004:333",
        "sample-unexpected-next-step 004:350",
      ])
  }

  @Test(
    "samples that agree are read and stay silent: MFA selection TOTP → TOTP code, Android OTP → CONFIRM_SIGN_IN_WITH_OTP"
  )
  func negativeControls() throws {
    try #require(!SeedRecallTests.seeds.isEmpty, "no seed pages in ../shared/seeds")
    func sampleFlows(_ prefix: String) throws -> [Int: String] {
      let path = try #require(SeedRecallTests.seeds.first { $0.contains("/\(prefix)_") })
      var flows: [Int: String] = [:]
      for fact in FactExtractor.facts(of: try PageReader.read(path: path)) where fact.sample {
        if case .flow(let from, let answer, let expected) = fact.content {
          flows[fact.line] = "\(from) \(answer) \(expected)"
        }
      }
      return flows
    }
    let page000 = try sampleFlows("000")
    #expect(page000[2328] == "continueSignInWithMFASelection TOTP confirmSignInWithTOTPCode")
    #expect(page000[2351] == "continueSignInWithMFASelection TOTP confirmSignInWithTOTPCode")
    let page001 = try sampleFlows("001")
    #expect(page001[1867]?.hasSuffix("SMS_OTP CONFIRM_SIGN_IN_WITH_OTP") == true)
    #expect(page001[2008]?.hasSuffix("SMS_OTP CONFIRM_SIGN_IN_WITH_OTP") == true)
    let result = try #require(Self.result)
    let lines = Set(result.findings.map { "\($0.page.prefix(3)):\($0.line)" })
    for control in ["000:2328", "000:2351", "001:1867", "001:1917", "001:2008", "002:190", "004:242"] {
      #expect(!lines.contains(control), "\(control) agrees with the model")
    }
  }
}
