import ClientAdapters
import SignInClient
import SignInModel
import SimulatedCognito

/// An adapter process made ready for a model (docs/guide/adapters.md): started, its `hello`
/// answered, its step table checked against the model; each case's client is then made by
/// `reset` (`makeClient`). One request is in flight at a time, so a fuzzer worker owns one.
package final class AdapterSession: Sendable {
  package let process: AdapterProcess
  package let hello: AdapterHello
  /// What the client supports, from `hello`'s capabilities.
  package let profile: ClientProfile
  /// Each step name the adapter declared, as the Amplify Swift step the harness compares.
  let stepNames: [String: String]

  /// Starts `command`, sends `hello` with `endpoint` and checks the answer against `model`.
  /// - Throws: the adapter could not be started or answered `hello` wrongly, or its step table
  ///   names a step that is neither a step of `model` nor an Amplify Swift step name, or it
  ///   lists a flow protocol v1 does not have.
  package init(
    command: String, endpoint: String, model: SignInModel, timeLimit: Double = AdapterProcess.defaultTimeLimit,
    environment: [String: String] = [:]
  ) async throws(ClientFailure) {
    let process: AdapterProcess
    do {
      process = try AdapterProcess(command, timeLimit: timeLimit, environment: environment)
    } catch {
      throw ClientFailure(error.description)
    }
    let hello: AdapterHello
    do { hello = try await process.hello(endpoint: endpoint) } catch {
      throw ClientFailure(error.description)
    }
    func refuse(_ why: String) -> ClientFailure {
      process.close()
      return ClientFailure("adapter `\(process.command.text)` answered hello (id 1) with \(why)")
    }
    var names: [String: String] = [:]
    for (name, target) in hello.steps.sorted(by: { $0.key < $1.key }) {
      if let step = model.steps.first(where: { $0.id == target }) {
        var swift: String?
        if case .name(let name)? = step.names.first(where: { $0.platform == "swift" })?.form { swift = name }
        guard let swift, AuthSignInStep.caseNames.contains(swift) else {
          throw refuse(
            "the step \"\(name)\" mapped to the model's step \(target), which has no Amplify Swift step the "
              + "fuzzer can compare")
        }
        names[name] = swift
      } else if AuthSignInStep.caseNames.contains(target) {
        names[name] = target
      } else {
        throw refuse(
          "the step \"\(name)\" mapped to \"\(target)\", which is neither a step of the model \(model.name) nor an "
            + "Amplify Swift step name (\(AuthSignInStep.caseNames.joined(separator: ", ")))")
      }
    }
    let flows = SignInRequestOptions.AuthFlow.allCases.map(\.rawValue)
    if let unknown = hello.capabilities.flows.first(where: { !flows.contains($0) }) {
      throw refuse(
        "the flow \"\(unknown)\" in its capabilities, which protocol v1 does not have (\(flows.joined(separator: ", ")))"
      )
    }
    self.process = process
    self.hello = hello
    self.stepNames = names
    profile = ClientProfile(
      name: hello.client, flows: Set(hello.capabilities.flows), challenges: Set(hello.capabilities.challenges),
      remembersDevices: false)
  }

  /// The harness's client maker: `reset` to the endpoint's pool and app client, with the
  /// pool's user.
  package var makeClient: Harness.ClientMaker {
    { [self] endpoint, _ throws(ClientFailure) in
      do throws(AdapterError) {
        _ = try await process.reset(
          poolId: endpoint.userPoolId, clientId: endpoint.clientId, username: endpoint.pool.username,
          password: SimulatedUserPool.password)
      } catch {
        throw ClientFailure(error.description)
      }
      return AdapterClient(session: self)
    }
  }

  /// Ends the adapter (closing its stdin; see `AdapterProcess.close`).
  package func close() { process.close() }
}

/// One case's client behind an adapter: each call a request, each observation what the harness
/// compares (steps by the adapter's table, errors by type name, `isSignedIn` as it reports it).
package actor AdapterClient: ClientUnderTest {
  let session: AdapterSession
  /// What the adapter's last observation said of `isSignedIn` (a fresh client: false).
  private var signedIn = false

  init(session: AdapterSession) { self.session = session }

  package func signIn(username: String, password: String?, options: SignInOptions) async throws(ClientFailure)
    -> Observation
  {
    let request: SignInRequestOptions
    switch options.authFlow {
    case .userSRP: request = SignInRequestOptions(authFlow: .userSRP)
    case .userPassword: request = SignInRequestOptions(authFlow: .userPassword)
    case .customWithSRP: request = SignInRequestOptions(authFlow: .customWithSRP)
    case .customWithoutSRP: request = SignInRequestOptions(authFlow: .customWithoutSRP)
    case .userAuth(let factor):
      request = SignInRequestOptions(authFlow: .userAuth, preferredFirstFactor: factor?.rawValue)
    }
    let answered: AdapterObservation
    do {
      answered = try await session.process.signIn(username: username, password: password, options: request)
    } catch {
      throw ClientFailure(error.description)
    }
    return try observation(answered, "signIn")
  }

  package func confirmSignIn(_ answer: String) async throws(ClientFailure) -> Observation {
    let answered: AdapterObservation
    do { answered = try await session.process.confirmSignIn(answer: answer) } catch {
      throw ClientFailure(error.description)
    }
    return try observation(answered, "confirmSignIn")
  }

  package func signOut() async throws(ClientFailure) -> Bool {
    let answered: AdapterObservation
    do { answered = try await session.process.signOut() } catch { throw ClientFailure(error.description) }
    signedIn = answered.isSignedIn
    return answered.isSignedIn
  }

  package func isSignedIn() async throws(ClientFailure) -> Bool { signedIn }

  /// What a user sees, from the adapter's observation of a `signIn` or `confirmSignIn`.
  func observation(_ observed: AdapterObservation, _ call: String) throws(ClientFailure) -> Observation {
    signedIn = observed.isSignedIn
    var step: AuthSignInStep?
    if let name = observed.step {
      guard let swift = session.stepNames[name] else {
        throw ClientFailure(
          "adapter `\(session.process.command.text)` answered \(call) (id \(observed.id)) with the step \"\(name)\", "
            + "which its hello's steps table does not map")
      }
      step = Self.step(swift, observed)
    }
    if let error = observed.error {
      return Observation(.threw(Self.error(error), now: step), isSignedIn: observed.isSignedIn)
    }
    guard let step else {
      throw ClientFailure(
        "adapter `\(session.process.command.text)` answered \(call) (id \(observed.id)) with neither a step nor "
          + "an error")
    }
    return Observation(.returned(step), isSignedIn: observed.isSignedIn, resultSignedIn: observed.isSignedIn)
  }

  /// The Amplify Swift step named `name` (one of `AuthSignInStep.caseNames`), with the values
  /// the observation carries.
  static func step(_ name: String, _ observed: AdapterObservation) -> AuthSignInStep {
    let details = AuthCodeDeliveryDetails(
      destination: observed.delivery?.destination ?? "",
      medium: observed.delivery.flatMap { AuthCodeDeliveryDetails.Medium(rawValue: $0.medium) } ?? .unknown)
    let mfa = Set((observed.options ?? []).compactMap(MFAType.init(answer:)))
    switch name {
    case "confirmSignInWithSMSMFACode": return .confirmSignInWithSMSMFACode(details, observed.challengeParameters)
    case "confirmSignInWithCustomChallenge": return .confirmSignInWithCustomChallenge(observed.challengeParameters)
    case "confirmSignInWithNewPassword": return .confirmSignInWithNewPassword(observed.challengeParameters)
    case "confirmSignInWithPassword": return .confirmSignInWithPassword
    case "confirmSignInWithTOTPCode": return .confirmSignInWithTOTPCode
    case "continueSignInWithTOTPSetup":
      return .continueSignInWithTOTPSetup(
        TOTPSetupDetails(sharedSecret: observed.totpSecret ?? "", username: observed.totpUsername ?? ""))
    case "continueSignInWithMFASelection": return .continueSignInWithMFASelection(mfa)
    case "continueSignInWithEmailMFASetup": return .continueSignInWithEmailMFASetup
    case "continueSignInWithMFASetupSelection": return .continueSignInWithMFASetupSelection(mfa)
    case "confirmSignInWithOTP": return .confirmSignInWithOTP(details)
    case "continueSignInWithFirstFactorSelection":
      return .continueSignInWithFirstFactorSelection(
        Set((observed.options ?? []).compactMap(AuthFactorType.init(rawValue:))))
    case "resetPassword": return .resetPassword(observed.challengeParameters)
    case "confirmSignUp": return .confirmSignUp(observed.challengeParameters)
    default: return .done
    }
  }

  /// The error as the harness compares it: by type name (`ErrorType.name` gives `type` back),
  /// with the adapter's message in its description (checked for secrets). The client's own
  /// errors that end a flow keep their kind, so a flow-ending error where the model expects a
  /// retryable one reads as such.
  static func error(_ observed: AdapterObservation.ObservedError) -> AuthError {
    let message = observed.message
    switch observed.type {
    case "InvalidStateError": return .invalidState(message)
    case "ValidationError": return .validation(message)
    case "InvalidParameterException": return .invalidParameter(message)
    case "NotAuthorizedException": return .notAuthorized(message)
    case "UnknownChallengeError": return .unknownChallenge(message)
    case "SignInError.invalidServiceResponse": return .invalidServiceResponse(message)
    case "NetworkError": return .network(message)
    case "UnsupportedError": return .unsupported(message)
    default: return .service(type: observed.type, message: message)
    }
  }
}
