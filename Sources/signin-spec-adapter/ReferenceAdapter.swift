import ClientAdapters
import CognitoWire
import Conformance
import Foundation
import SignInClient

/// The reference client behind the adapter protocol: one `SignInClient` per case (made by
/// `reset`), calling Cognito at the endpoint `hello` gave.
actor ReferenceAdapter {
  /// The client and version `hello` reports (a deliberately broken client adds its bug).
  static let client = "signin-spec SignInClient 1"
  /// Every auth flow the reference client has.
  static let flows = SignInRequestOptions.AuthFlow.allCases.map(\.rawValue)
  /// Every challenge the reference client answers (all of Cognito's sign-in challenges but
  /// WEB_AUTHN: passkeys are not supported on this platform).
  static let challenges = [
    "PASSWORD_VERIFIER", "DEVICE_SRP_AUTH", "DEVICE_PASSWORD_VERIFIER", "SMS_MFA", "SOFTWARE_TOKEN_MFA", "EMAIL_OTP",
    "SMS_OTP", "SELECT_MFA_TYPE", "MFA_SETUP", "NEW_PASSWORD_REQUIRED", "CUSTOM_CHALLENGE", "SELECT_CHALLENGE",
    "PASSWORD", "PASSWORD_SRP",
  ]
  /// The step names the adapter reports: `AuthSignInStep`'s case names, which the models give
  /// as `swift:` names, so each maps to itself.
  static let steps = AuthSignInStep.caseNames
  /// How long one Cognito request may take by default before the client reports a network error.
  static let defaultRequestTimeout: TimeInterval = 20

  let hooks: ClientHooks
  /// The deliberate bug the client has, if any (named in `hello`'s client).
  let bug: String?
  let requestTimeout: TimeInterval
  private var endpoint: URL?
  private var client: SignInClient?

  init(hooks: ClientHooks, bug: String? = nil, requestTimeout: TimeInterval) {
    self.hooks = hooks
    self.bug = bug
    self.requestTimeout = requestTimeout
  }

  func answer(_ request: AdapterRequest) async -> AnswerMessage {
    switch request.body {
    case .hello(_, let endpoint):
      self.endpoint = URL(string: endpoint)
      return .hello(
        AdapterHello(
          id: request.id, protocol: AdapterProcess.protocolVersion,
          client: Self.client + (bug.map { " with the deliberate bug \($0)" } ?? ""),
          steps: Dictionary(uniqueKeysWithValues: Self.steps.map { ($0, $0) }),
          capabilities: .init(flows: Self.flows, challenges: Self.challenges)))
    case .reset(let poolId, let clientId, _, _):
      guard let endpoint else { return refused(request.id, "reset before hello: no endpoint") }
      let client = SignInClient(
        backend: HTTPCognitoBackend(endpoint: endpoint, timeout: requestTimeout), clientId: clientId,
        userPoolId: poolId, hooks: hooks)
      self.client = client
      return .observation(AdapterObservation(id: request.id, step: nil, isSignedIn: await client.isSignedIn))
    case .signIn(let username, let password, let options):
      guard let client else { return refused(request.id, "signIn before reset: no pool") }
      let flow: AuthFlowType
      switch options.authFlow ?? .userSRP {
      case .userSRP: flow = .userSRP
      case .userPassword: flow = .userPassword
      case .customWithSRP: flow = .customWithSRP
      case .customWithoutSRP: flow = .customWithoutSRP
      case .userAuth: flow = .userAuth(preferredFirstFactor: options.preferredFirstFactor.flatMap(AuthFactorType.init))
      }
      do {
        let result = try await client.signIn(
          username: username, password: password, options: SignInOptions(authFlow: flow))
        return .observation(Self.observation(request.id, result))
      } catch {
        return .observation(await Self.observation(request.id, error, client))
      }
    case .confirmSignIn(let answer):
      guard let client else { return refused(request.id, "confirmSignIn before reset: no pool") }
      do {
        return .observation(Self.observation(request.id, try await client.confirmSignIn(challengeResponse: answer)))
      } catch {
        return .observation(await Self.observation(request.id, error, client))
      }
    case .signOut:
      guard let client else { return refused(request.id, "signOut before reset: no pool") }
      await client.signOut()
      return .observation(
        AdapterObservation(id: request.id, step: await client.currentStep?.name, isSignedIn: await client.isSignedIn))
    }
  }

  /// An answer for a call the adapter cannot make: the client's `InvalidStateError`.
  private func refused(_ id: Int, _ why: String) -> AnswerMessage {
    .observation(
      AdapterObservation(
        id: id, step: nil, error: .init(type: ErrorType.name(of: .invalidState("")), message: why), isSignedIn: false))
  }

  /// What the call returned: the result's step with its values, and the result's `isSignedIn`.
  static func observation(_ id: Int, _ result: AuthSignInResult) -> AdapterObservation {
    var observation = AdapterObservation(id: id, step: result.nextStep.name, isSignedIn: result.isSignedIn)
    func delivery(_ details: AuthCodeDeliveryDetails) -> AdapterObservation.Delivery {
      .init(medium: details.medium.rawValue, destination: details.destination)
    }
    switch result.nextStep {
    case .confirmSignInWithSMSMFACode(let details, let info):
      observation.delivery = delivery(details)
      observation.challengeParameters = info
    case .confirmSignInWithOTP(let details):
      observation.delivery = delivery(details)
    case .confirmSignInWithCustomChallenge(let info), .confirmSignInWithNewPassword(let info),
      .resetPassword(let info), .confirmSignUp(let info):
      observation.challengeParameters = info
    case .continueSignInWithTOTPSetup(let details):
      observation.totpSecret = details.sharedSecret
      observation.totpUsername = details.username
    case .continueSignInWithMFASelection(let types), .continueSignInWithMFASetupSelection(let types):
      observation.options = types.map(\.rawValue).sorted()
    case .continueSignInWithFirstFactorSelection(let factors):
      observation.options = factors.map(\.rawValue).sorted()
    case .confirmSignInWithPassword, .confirmSignInWithTOTPCode, .continueSignInWithEmailMFASetup, .done:
      break
    }
    return observation
  }

  /// What the call threw: the error by the type name the models give it, the step the client
  /// is still on (nil when the flow ended) and what the client's `isSignedIn` says.
  static func observation(_ id: Int, _ error: AuthError, _ client: SignInClient) async -> AdapterObservation {
    AdapterObservation(
      id: id, step: await client.currentStep?.name,
      error: .init(type: ErrorType.name(of: error), message: error.description),
      isSignedIn: await client.isSignedIn)
  }
}

/// An answer the adapter writes.
enum AnswerMessage {
  case hello(AdapterHello)
  case observation(AdapterObservation)
}
