import CognitoWire
import Foundation
import ModelChecking
import SignInClient
import SignInModel
import Testing

/// The sign-in fixtures of amplify-android (../shared/external), run against this client
/// with their scripted Cognito responses. Step names are mapped through the 2026 model's
/// `android:` and `swift:` names.
@Suite("amplify-android feature-test fixtures")
struct AndroidFixtureTests {
  static let root = "../shared/external/amplify-android-feature-tests"

  static var files: [String] {
    ["signIn", "confirmSignIn"].flatMap { folder in
      ((try? FileManager.default.contentsOfDirectory(atPath: "\(root)/testsuites/\(folder)")) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
    }
  }

  /// Fixtures where Android differs from this (Swift-like) client, with the reason and the
  /// calls this client needs first to reach the fixture's expected result (docs/guide/fuzzing.md,
  /// "The amplify-android fixtures"). The expected result is still checked after them.
  static let documentedDifferences: [String: (reason: String, prelude: [String])] = {
    let reason =
      "Android's harness answers SELECT_CHALLENGE with the password directly (the chosen factor lives in "
      + "state the fixture does not record); Swift and this client first take the factor, then ask for the password"
    return [
      "confirmSignIn/Test_that_selecting_the_PASSWORD_SRP_challenge_with_the_correct_password_succeeds.json": (
        reason, ["PASSWORD_SRP"]
      ),
      "confirmSignIn/Test_that_selecting_the_PASSWORD_SRP_challenge_with_the_incorrect_password_fails.json": (
        reason, ["PASSWORD_SRP"]
      ),
      "confirmSignIn/Test_that_selecting_the_PASSWORD_challenge_with_the_correct_password_succeeds.json": (
        reason, ["PASSWORD"]
      ),
      "confirmSignIn/Test_that_selecting_the_PASSWORD_challenge_with_the_incorrect_password_fails.json": (
        reason, ["PASSWORD"]
      ),
    ]
  }()

  /// Android step name -> Swift step name, from the 2026 model.
  static let androidToSwift: [String: String] = {
    guard let model = try? ModelLoader.load(file: "models/2026-all-platforms.yaml") else { return [:] }
    var map: [String: String] = [:]
    for step in model.steps.dropFirst() {
      guard case .name(let android)? = step.names.first(where: { $0.platform == "android" })?.form,
        case .name(let swift)? = step.names.first(where: { $0.platform == "swift" })?.form
      else { continue }
      map[android] = swift
    }
    return map
  }()

  /// Converts the fixtures' lowerCamel response fields to Cognito's wire names.
  static func wire(_ value: Any) -> JSONValue {
    switch value {
    case let s as String: return .string(s)
    case let n as NSNumber: return .number(n.doubleValue)
    case let a as [Any]: return .array(a.map(wire))
    case let o as [String: Any]:
      var result: JSONObject = [:]
      for (k, v) in o {
        let key: String
        switch k {
        case "challengeName": key = "ChallengeName"
        case "session": key = "Session"
        case "challengeParameters": key = "ChallengeParameters"
        case "authenticationResult": key = "AuthenticationResult"
        case "availableChallenges": key = "AvailableChallenges"
        case "parameters": continue
        default: key = k.prefix(1).uppercased() + k.dropFirst()
        }
        result[key] = wire(v)
      }
      return .object(result)
    default: return .null
    }
  }

  @Test("the fixtures are there: a missing ../shared/external fails, it does not pass with no cases")
  func fixturesPresent() {
    #expect(Self.files.count >= 30, "found \(Self.files.count) fixtures under \(Self.root)/testsuites")
    #expect(Self.files.filter { $0.hasPrefix("confirmSignIn/") }.count >= 10)
    #expect(!Self.androidToSwift.isEmpty, "the 2026 model gave no android -> swift step names")
  }

  @Test("every sign-in fixture passes or is a documented platform difference", arguments: files)
  func fixture(file: String) async throws {
    let data = try #require(FileManager.default.contents(atPath: "\(Self.root)/testsuites/\(file)"))
    let spec = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let pre = try #require(spec["preConditions"] as? [String: Any])
    let mocks = (pre["mockedResponses"] as? [[String: Any]]) ?? []
    // getId and getCredentialsForIdentity are identity-pool calls this client does not make.
    let script = mocks.compactMap { mock -> ScriptedBackend.Answer? in
      guard let api = mock["apiName"] as? String, !["getId", "getCredentialsForIdentity"].contains(api)
      else { return nil }
      let operation = api.prefix(1).uppercased() + api.dropFirst()
      let response = mock["response"] as? [String: Any] ?? [:]
      if mock["responseType"] as? String == "failure" {
        return .init(
          operation: operation,
          result: .failure(
            .service(
              type: response["errorType"] as? String ?? "", message: response["errorMessage"] as? String ?? "")))
      }
      return .init(operation: operation, result: .success(Self.wire(response).object ?? [:]))
    }
    let backend = ScriptedBackend(script)
    let client = SignInClient(
      backend: backend, clientId: "testAppClientId", userPoolId: "us-east-1_testPool",
      random: { n in [UInt8](repeating: 7, count: n) })

    // Starting state: a pending challenge, if the fixture starts mid-sign-in.
    let stateFile = pre["state"] as? String ?? ""
    if stateFile.hasPrefix("SigningIn"),
      let stateData = FileManager.default.contents(atPath: "\(Self.root)/states/\(stateFile)"),
      let text = String(data: stateData, encoding: .utf8),
      let range = text.range(of: "\"authChallenge\""),
      let challenge = Self.firstObject(in: String(text[range.upperBound...]))
    {
      _ = try await client.restore(
        username: challenge["username"] as? String ?? "username",
        challengeName: challenge["challengeName"] as? String ?? "",
        session: challenge["session"] as? String, parameters: challenge["parameters"] as? [String: String] ?? [:],
        availableChallenges: challenge["availableChallenges"] as? [String] ?? [])
    }

    if let difference = Self.documentedDifferences[file] {
      for answer in difference.prelude {
        let step = try await client.confirmSignIn(challengeResponse: answer)
        #expect(step.nextStep == .confirmSignInWithPassword, "\(file): after choosing \(answer)")
      }
    }
    let api = try #require(spec["api"] as? [String: Any])
    let params = api["params"] as? [String: Any] ?? [:]
    let outcome: Result<AuthSignInResult, AuthError>
    do {
      if api["name"] as? String == "signIn" {
        let options = (api["options"] as? [String: Any])?["signInOptions"] as? [String: Any] ?? [:]
        let flow: AuthFlowType
        switch options["authFlow"] as? String
          ?? (pre["amplify-configuration"] as? String == "authconfiguration_userauth.json"
            ? "USER_AUTH" : "USER_SRP_AUTH")
        {
        case "CUSTOM_AUTH_WITH_SRP": flow = .customWithSRP
        case "CUSTOM_AUTH_WITHOUT_SRP": flow = .customWithoutSRP
        case "USER_AUTH":
          flow = .userAuth(
            preferredFirstFactor: (options["preferredFirstFactor"] as? String).flatMap {
              AuthFactorType(rawValue: $0 == "EMAIL" ? "EMAIL_OTP" : $0 == "SMS" ? "SMS_OTP" : $0)
            })
        case "USER_PASSWORD_AUTH": flow = .userPassword
        default: flow = .userSRP
        }
        outcome = .success(
          try await client.signIn(
            username: params["username"] as? String ?? "username", password: params["password"] as? String,
            options: SignInOptions(authFlow: flow)))
      } else {
        outcome = .success(
          try await client.confirmSignIn(challengeResponse: params["challengeResponse"] as? String ?? ""))
      }
    } catch {
      outcome = .failure(error)
    }

    // A fixture that scripts confirmDevice ends its sign-in with NewDeviceMetadata: the client
    // sends ConfirmDevice and remembers the device for the username signIn was given.
    if mocks.contains(where: { $0["apiName"] as? String == "confirmDevice" }), case .success(let result) = outcome,
      result.isSignedIn
    {
      #expect(await backend.unused.allSatisfy { $0.operation != "ConfirmDevice" }, "\(file): no ConfirmDevice sent")
      let username = params["username"] as? String ?? "username"
      #expect(await client.rememberedDevice(for: username) != nil, "\(file): the device is not remembered")
    }

    let expected = try #require((spec["validations"] as? [[String: Any]])?.first { $0["type"] as? String == "amplify" })
    let response = expected["response"] as? [String: Any] ?? [:]
    if expected["responseType"] as? String == "success" {
      let androidStep = (response["nextStep"] as? [String: Any])?["signInStep"] as? String ?? ""
      let swiftStep = Self.androidToSwift[androidStep]
      #expect(swiftStep != nil, "\(file): no model step has the Android name \(androidStep)")
      switch outcome {
      case .success(let result):
        #expect(
          result.nextStep.name == swiftStep,
          "\(file): expected \(androidStep) (\(swiftStep ?? "?")), got \(result.nextStep.name)")
        #expect(result.isSignedIn == (response["isSignedIn"] as? Bool ?? false))
      case .failure(let error):
        Issue.record("\(file): expected \(androidStep), got the error \(error)")
      }
    } else {
      let errorType = response["errorType"] as? String ?? ""
      guard case .failure(let error) = outcome else {
        Issue.record("\(file): expected \(errorType), got \(outcome)")
        return
      }
      switch errorType {
      case "CodeMismatchException": #expect(error == .codeMismatch, "\(file)")
      case "NotAuthorizedException": if case .notAuthorized = error {} else { Issue.record("\(file): got \(error)") }
      default: Issue.record("\(file): no mapping for the expected error \(errorType)")
      }
    }
  }

  /// The first balanced {...} object at the start of `text`, parsed.
  static func firstObject(in text: String) -> [String: Any]? {
    guard let start = text.firstIndex(of: "{") else { return nil }
    var depth = 0
    var end = start
    for i in text[start...].indices {
      if text[i] == "{" { depth += 1 }
      if text[i] == "}" {
        depth -= 1
        if depth == 0 {
          end = i
          break
        }
      }
    }
    return (try? JSONSerialization.jsonObject(with: Data(text[start...end].utf8))) as? [String: Any]
  }
}
