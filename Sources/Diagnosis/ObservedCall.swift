import CognitoWire
import Recordings
import SignInModel

/// One call a client made, as a recording shows it: the requests it took (a sign-in with SRP
/// takes InitiateAuth and the PASSWORD_VERIFIER answer; a TOTP setup answer VerifySoftwareToken
/// and RespondToAuthChallenge), the moves it asks of the model, and what the user saw after it.
package struct ObservedCall: Sendable {
  /// What the call asks of the model, in order.
  package enum Move: Sendable, Equatable {
    /// `signIn`: a new flow from the model's first step.
    case signIn
    /// An answer at the current step: one of `classes` (nil: any response the step accepts
    /// that is not a selection).
    case answer(Set<String>?)
    /// An answer at the current step that is none of these (and no selection): a code Cognito
    /// refused earlier in the same challenge is not the right code now.
    case answerNot(Set<String>)
  }

  /// What the call showed.
  package enum Observed: Sendable, Equatable, CustomStringConvertible {
    /// A step (one of these model step ids: a challenge can stand for several).
    case steps(Set<String>, shown: String)
    /// An error, by Cognito's exception name or the client-side name the models use
    /// (`NetworkError` for no answer, `SignInError.invalidServiceResponse` for a 5xx or an
    /// unreadable body).
    case error(String)
    /// An answer no client can go on from (a challenge the model has no step for).
    case unusable(String)

    package var description: String {
      switch self {
      case .steps(_, let shown): return shown
      case .error(let name): return "error \(name)"
      case .unusable(let what): return what
      }
    }
  }

  package let exchanges: [RecordedExchange]
  package let moves: [Move]
  package let observed: Observed
  /// Configuration values the requests themselves show (an InitiateAuth's AuthFlow is the
  /// client's `pool.authFlow`; USER_AUTH's PREFERRED_CHALLENGE its `pool.preferredFirstFactor`):
  /// per variable, the values it may take.
  package var settings: [String: Set<String>] = [:]

  /// The model steps the call's first request can answer (nil: any; a sign-in starts anew).
  package var answers: Set<String>? {
    let first = exchanges[0]
    switch first.operation {
    case "InitiateAuth": return nil
    case "VerifySoftwareToken": return ["continueSignInWithTOTPSetup"]
    case "AssociateSoftwareToken": return ["continueSignInWithMFASetupSelection"]
    default: return Self.stepsAnswered[first.body["ChallengeName"]?.string ?? ""] ?? []
    }
  }

  /// The steps a RespondToAuthChallenge of each challenge answers.
  static let stepsAnswered: [String: Set<String>] = [
    "SMS_MFA": ["confirmSignInWithSMSMFACode"],
    "SOFTWARE_TOKEN_MFA": ["confirmSignInWithTOTPCode"],
    "EMAIL_OTP": ["confirmSignInWithOTP.emailMFA", "confirmSignInWithOTP.emailFirstFactor", "confirmSignInWithOTP"],
    "SMS_OTP": ["confirmSignInWithOTP.smsFirstFactor", "confirmSignInWithOTP"],
    "SELECT_MFA_TYPE": ["continueSignInWithMFASelection"],
    "SELECT_CHALLENGE": ["continueSignInWithFirstFactorSelection"],
    "NEW_PASSWORD_REQUIRED": ["confirmSignInWithNewPassword"],
    "CUSTOM_CHALLENGE": ["confirmSignInWithCustomChallenge"],
    "MFA_SETUP": [
      "continueSignInWithTOTPSetup", "continueSignInWithEmailMFASetup", "continueSignInWithMFASetupSelection",
    ],
  ]

  /// The first request's number and entry: where the call is reported.
  package var request: Int { exchanges[0].request }
  package var entry: Int { exchanges[0].entry }
}

/// Turns one user's exchanges into calls (`ObservedCall`), reading Cognito's wire as the
/// reference client speaks it (`Sources/SignInClient`).
package struct CallReader {
  /// Challenges a client answers inside its call, with no step of their own.
  static let internalChallenges: Set<String> = ["PASSWORD_VERIFIER", "DEVICE_SRP_AUTH", "DEVICE_PASSWORD_VERIFIER"]
  /// Operations after a sign-in that are no part of the flow (device confirmation, the user).
  static let afterSignIn: Set<String> = [
    "ConfirmDevice", "UpdateDeviceStatus", "GetUser", "GlobalSignOut", "RevokeToken", "ForgetDevice", "ListDevices",
  ]

  let model: SignInModel
  /// The model's step ids, and the ids of its signed-in steps.
  let known: Set<String>
  let signedIn: Set<String>

  package init(model: SignInModel) {
    self.model = model
    known = Set(model.steps.map(\.id))
    signedIn = Set(model.steps.filter { $0.kind == .signedIn }.map(\.id))
  }

  /// The calls of one user's exchanges, in order; exchanges that belong to no call (after a
  /// sign-in, or before the first InitiateAuth) are returned apart.
  package func calls(_ exchanges: [RecordedExchange]) -> (calls: [ObservedCall], ignored: [RecordedExchange]) {
    var calls: [ObservedCall] = []
    var ignored: [RecordedExchange] = []
    var index = 0
    var lastShown: String?  // the challenge name the last call showed
    var lastSetupTypes = ""
    // Codes sent by SMS or email that Cognito refused in the current flow, by challenge: such a
    // code does not change within its challenge, so the same value is never right later.
    var refused = Set<String>()
    while index < exchanges.count {
      let first = exchanges[index]
      var group = [first]
      index += 1
      var moves: [ObservedCall.Move]
      switch first.operation {
      case "InitiateAuth":
        moves = [.signIn]
      case "RespondToAuthChallenge":
        let name = first.body["ChallengeName"]?.string ?? ""
        let answers = first.body["ChallengeResponses"]?.object ?? [:]
        let answer = answers["ANSWER"]?.string
        switch name {
        case "SELECT_MFA_TYPE":
          moves = [.answer([Self.mfaSelection(answer)])]
        case "SELECT_CHALLENGE":
          let select = Self.factorSelection(answer)
          let withPassword = answers["PASSWORD"] != nil || answers["SRP_A"] != nil
          moves = withPassword ? [.answer([select]), .answer(nil)] : [.answer([select])]
        case "SMS_MFA", "EMAIL_OTP", "SMS_OTP":
          let code = answers[Self.codeKeys[name] ?? ""]?.string ?? ""
          // A redacted code (serve's log writes "<redacted>") says nothing.
          let known = !code.isEmpty && !code.contains("redacted")
          moves = known && refused.contains("\(name)|\(code)") ? [.answerNot(["correctCode"])] : [.answer(nil)]
        case "MFA_SETUP"
        where lastShown == "MFA_SETUP" && lastSetupTypes.contains("SOFTWARE_TOKEN_MFA")
          && lastSetupTypes.contains("EMAIL_OTP") && answers["EMAIL"] != nil:
          // Email chosen at the setup selection (locally), then the address.
          moves = [.answer(["selectEMAIL"]), .answer(nil)]
        case _ where Self.internalChallenges.contains(name):
          ignored.append(first)
          continue
        default:
          moves = [.answer(nil)]
        }
      case "VerifySoftwareToken":
        moves = [.answer(nil)]
        // The code's answer: VerifySoftwareToken, then RespondToAuthChallenge MFA_SETUP. Once
        // VerifySoftwareToken took the code, the code was right, whatever follows.
        if first.response != nil, first.errorType == nil, index < exchanges.count,
          exchanges[index].operation == "RespondToAuthChallenge"
        {
          group.append(exchanges[index])
          index += 1
          moves = [.answerNot(["wrongCode", "malformedCode", "expiredCode"])]
        }
      case "AssociateSoftwareToken":
        // TOTP chosen at the setup selection: the client asks Cognito for the secret.
        moves = [.answer(["selectTOTP"])]
      default:
        ignored.append(first)
        continue
      }
      // The requests the client makes inside the call: internal challenges' answers, and the
      // secret of a TOTP setup it goes to (AssociateSoftwareToken) before showing the step.
      while index < exchanges.count {
        let last = group[group.count - 1]
        let next = exchanges[index]
        let shown = last.response?["ChallengeName"]?.string
        if let shown, Self.internalChallenges.contains(shown), next.operation == "RespondToAuthChallenge",
          next.body["ChallengeName"]?.string == shown
        {
          group.append(next)
          index += 1
          continue
        }
        let setup = last.response?["ChallengeParameters"]?.object?["MFAS_CAN_SETUP"]?.string ?? ""
        if shown == "MFA_SETUP", setup.contains("SOFTWARE_TOKEN_MFA"), !setup.contains("EMAIL_OTP"),
          next.operation == "AssociateSoftwareToken"
        {
          group.append(next)
          index += 1
          continue
        }
        break
      }
      // After tokens, what the client does for the device belongs to no call.
      let observed = self.observed(group)
      var call = ObservedCall(exchanges: group, moves: moves, observed: observed)
      if first.operation == "InitiateAuth" {
        call.settings = Self.settings(first.body)
        refused = []
      }
      if first.operation == "RespondToAuthChallenge", let name = first.body["ChallengeName"]?.string,
        let key = Self.codeKeys[name], observed == .error("CodeMismatchException"),
        let code = first.body["ChallengeResponses"]?.object?[key]?.string
      {
        refused.insert("\(name)|\(code)")
      }
      calls.append(call)
      let end = group.last(where: { $0.operation == "RespondToAuthChallenge" || $0.operation == "InitiateAuth" })
      lastShown = end?.response?["ChallengeName"]?.string
      lastSetupTypes = end?.response?["ChallengeParameters"]?.object?["MFAS_CAN_SETUP"]?.string ?? ""
    }
    return (calls, ignored)
  }

  /// What the user saw after `group`: its last request's answer.
  func observed(_ group: [RecordedExchange]) -> ObservedCall.Observed {
    let last = group[group.count - 1]
    guard let response = last.response else { return .error("NetworkError") }
    if let type = last.errorType {
      if type.hasPrefix("HTTP ") { return .error("SignInError.invalidServiceResponse") }
      return .error(type)
    }
    if let status = last.status, status >= 500 { return .error("SignInError.invalidServiceResponse") }
    if last.operation == "AssociateSoftwareToken" {
      guard response["SecretCode"]?.string != nil else { return .error("SignInError.invalidServiceResponse") }
      return steps(["continueSignInWithTOTPSetup"], shown: "continueSignInWithTOTPSetup (a TOTP secret)")
    }
    if response["AuthenticationResult"] != nil { return steps(signedIn, shown: "tokens (signed in)") }
    guard let name = response["ChallengeName"]?.string else {
      return .error("SignInError.invalidServiceResponse")
    }
    let parameters = response["ChallengeParameters"]?.object ?? [:]
    switch name {
    case "MFA_SETUP":
      let types = parameters["MFAS_CAN_SETUP"]?.string ?? ""
      let totp = types.contains("SOFTWARE_TOKEN_MFA")
      let email = types.contains("EMAIL_OTP")
      if totp && email { return steps(["continueSignInWithMFASetupSelection"], shown: "MFA_SETUP (\(types))") }
      if totp { return steps(["continueSignInWithTOTPSetup"], shown: "MFA_SETUP (\(types))") }
      if email { return steps(["continueSignInWithEmailMFASetup"], shown: "MFA_SETUP (\(types))") }
      return .unusable("MFA_SETUP offering \(types.isEmpty ? "nothing" : types), which no client can set up")
    default:
      // The step a challenge shows is the step an answer to it answers.
      guard let ids = ObservedCall.stepsAnswered[name] else {
        return .unusable("the challenge \(name), which the model has no step for")
      }
      return steps(ids, shown: name)
    }
  }

  func steps(_ ids: Set<String>, shown: String) -> ObservedCall.Observed {
    .steps(ids.intersection(known), shown: shown)
  }

  /// What an InitiateAuth says of the configuration: the auth flow the client runs and, for
  /// USER_AUTH, the preferred first factor it names.
  static func settings(_ body: JSONObject) -> [String: Set<String>] {
    let parameters = body["AuthParameters"]?.object ?? [:]
    switch body["AuthFlow"]?.string {
    case "USER_PASSWORD_AUTH": return ["pool.authFlow": ["userPassword"], "pool.preferredFirstFactor": ["none"]]
    case "USER_SRP_AUTH": return ["pool.authFlow": ["userSRP"], "pool.preferredFirstFactor": ["none"]]
    case "CUSTOM_AUTH":
      let flow = parameters["SRP_A"] != nil ? "customWithSRP" : "customWithoutSRP"
      return ["pool.authFlow": [flow], "pool.preferredFirstFactor": ["none"]]
    case "USER_AUTH":
      return [
        "pool.authFlow": ["userAuth"],
        "pool.preferredFirstFactor": [parameters["PREFERRED_CHALLENGE"]?.string ?? "none"],
      ]
    default: return [:]
    }
  }

  /// The response class of an answer at the MFA-type selection.
  static func mfaSelection(_ answer: String?) -> String {
    switch answer?.uppercased() {
    case "SMS_MFA", "SMS": return "selectSMS"
    case "SOFTWARE_TOKEN_MFA", "TOTP": return "selectTOTP"
    case "EMAIL_OTP", "EMAIL": return "selectEMAIL"
    default: return "selectUnknown"
    }
  }

  /// The response class of an answer at the first-factor selection.
  static func factorSelection(_ answer: String?) -> String {
    switch answer?.uppercased() {
    case "PASSWORD": return "selectPASSWORD"
    case "PASSWORD_SRP": return "selectPASSWORD_SRP"
    case "SMS_OTP": return "selectSMS_OTP"
    case "EMAIL_OTP": return "selectEMAIL_OTP"
    case "WEB_AUTHN": return "selectWEB_AUTHN"
    default: return "selectUnknown"
    }
  }

  /// The answer member of each challenge whose code Cognito sends (and keeps for the challenge).
  static let codeKeys = ["SMS_MFA": "SMS_MFA_CODE", "EMAIL_OTP": "EMAIL_OTP_CODE", "SMS_OTP": "SMS_OTP_CODE"]

  /// Response classes a plain answer never is (selections are read from the answer).
  static let selections: Set<String> = [
    "selectSMS", "selectTOTP", "selectEMAIL", "selectUnknown", "selectPASSWORD", "selectPASSWORD_SRP",
    "selectSMS_OTP", "selectEMAIL_OTP", "selectWEB_AUTHN",
  ]
}
