import SignInClient
import SimulatedCognito

/// The client a harness run drives: the calls a user of a sign-in client makes, each answered
/// with what that user sees (`Observation`). The reference client in process (`InProcessClient`),
/// or any client behind an adapter process (`AdapterClient`).
package protocol ClientUnderTest: Sendable {
  /// `signIn`; what the user sees afterwards.
  func signIn(username: String, password: String?, options: SignInOptions) async throws(ClientFailure) -> Observation
  /// `confirmSignIn` with the user's answer; what the user sees afterwards.
  func confirmSignIn(_ answer: String) async throws(ClientFailure) -> Observation
  /// `signOut`; whether the client still says it is signed in afterwards.
  func signOut() async throws(ClientFailure) -> Bool
  /// Whether the client's public API says it is signed in now.
  func isSignedIn() async throws(ClientFailure) -> Bool
}

/// The client under test misbehaved in a way that is not an answer at all (an adapter crashed,
/// hung, answered garbage or broke the protocol): the run cannot go on. Never a disagreement
/// with the model, which is an answer a user sees.
package struct ClientFailure: Error, Sendable, Equatable, CustomStringConvertible {
  package let description: String

  package init(_ description: String) { self.description = description }
}

/// The reference client (`SignInClient`, or a deliberately broken one through its hooks) called
/// in process.
package struct InProcessClient: ClientUnderTest {
  package let client: SignInClient

  package init(_ client: SignInClient) { self.client = client }

  package func signIn(username: String, password: String?, options: SignInOptions) async throws(ClientFailure)
    -> Observation
  {
    Self.observation(await client.observedSignIn(username: username, password: password, options: options))
  }

  package func confirmSignIn(_ answer: String) async throws(ClientFailure) -> Observation {
    Self.observation(await client.observedConfirmSignIn(challengeResponse: answer))
  }

  package func signOut() async throws(ClientFailure) -> Bool {
    await client.signOut()
    return await client.isSignedIn
  }

  package func isSignedIn() async throws(ClientFailure) -> Bool { await client.isSignedIn }

  /// What the user sees of a call: the step it returned, or the error it threw and the step the
  /// client is on now; `isSignedIn` read once the call returned.
  private static func observation(_ observed: SignInClient.Observed) -> Observation {
    switch observed.result {
    case .success(let result):
      return Observation(
        .returned(result.nextStep), isSignedIn: observed.isSignedIn, resultSignedIn: result.isSignedIn)
    case .failure(let error):
      return Observation(.threw(error, now: observed.currentStep), isSignedIn: observed.isSignedIn)
    }
  }
}

/// What a client under test supports, as its adapter declares it (`hello`'s capabilities): the
/// harness draws only configurations whose auth flow the client has, and a call on which the
/// pool asks for a challenge the client lacks is not judged ("unsupported by this client").
package struct ClientProfile: Sendable, Equatable {
  /// The client's name, as "name version".
  package var name: String
  /// The auth flows it runs, by the names of `AuthFlowType` (`userSRP`, `userPassword`,
  /// `customWithSRP`, `customWithoutSRP`, `userAuth`); nil: all of them.
  package var flows: Set<String>?
  /// The Cognito challenges it answers, by `ChallengeName`; nil: all of them.
  package var challenges: Set<String>?
  /// Whether it can start a case holding a remembered device (`user.deviceRemembered`): the
  /// reference client in process can; protocol v1 cannot hand an adapter one.
  package var remembersDevices: Bool

  package init(name: String, flows: Set<String>? = nil, challenges: Set<String>? = nil, remembersDevices: Bool = true) {
    self.name = name
    self.flows = flows
    self.challenges = challenges
    self.remembersDevices = remembersDevices
  }

  /// The reference client in process: everything the harness covers.
  package static let reference = ClientProfile(name: "signin-spec SignInClient")

  /// The flow a configuration's `pool.authFlow` value runs, by `AuthFlowType`'s name (USER_PASSWORD_AUTH
  /// for a model without the variable, as `Harness.flow` does).
  package static func flowName(_ authFlow: String?) -> String {
    guard let authFlow, ["userSRP", "customWithSRP", "customWithoutSRP", "userAuth"].contains(authFlow) else {
      return "userPassword"
    }
    return authFlow
  }

  /// The first challenge of `issued` the client does not answer (the unknown and the device
  /// challenge the harness injects are not: every client must end the flow on them; a pool an
  /// adapter reaches remembers no device, so it issues DEVICE_SRP_AUTH only when injected).
  package func firstUnsupported(_ issued: [String]) -> String? {
    guard let challenges else { return nil }
    let injected = [SimulatedUserPool.unknownChallenge, SimulatedUserPool.deviceChallenge]
    return issued.first { !challenges.contains($0) && !injected.contains($0) }
  }
}
