import CognitoWire
import ModelChecking
import SignInClient
import SignInModel
import SimulatedCognito

/// Drives a client against the simulated user pool call by call and compares what it
/// observes with the model (`ModelSimulator` over the shared `TransitionSystem` is the
/// oracle). Conformance runs and the fuzzer both run every call through `perform`.
///
/// Covered: every auth flow the pool and the client share, SRP included (userSRP, customWithSRP
/// with each `pool.customMfa`, USER_AUTH's PASSWORD_SRP as preference and as `selectPASSWORD_SRP`;
/// the client answers PASSWORD_VERIFIER from the password, the pool checks the claim), and
/// device tracking (`pool.deviceTracking` on: the client confirms the device the tokens name;
/// with `user.deviceRemembered` the pool and the client start with the same remembered device,
/// `SimulatedUserPool.seededDevice`, whose challenges the client answers inside its calls).
///
/// Not covered, and why: passkeys (WEB_AUTHN, as preference or `selectWEB_AUTHN`), which the
/// client cannot do (no platform authenticator); network faults and expired sessions at the two
/// selection steps whose answer the client handles locally (no request is made);
/// `pool.customMfa` other than none outside customWithSRP and PreventUserExistenceErrors for a
/// user that exists (neither is read there: the same runs again); and one case where the model
/// is wrong, `unconfirmedUserBeforeSRPVerifier`.
package struct Harness: Sendable {
  package let system: TransitionSystem
  package var model: SignInModel { system.model }
  /// The client's decisions: `.reference`, or a deliberately broken client's.
  package let hooks: ClientHooks
  /// Each step's index by model id, and each step's Swift name (built once per model).
  let stepByID: [String: Int]
  let swiftNames: [String]
  /// For each of `coverageVariables` the model has: its index and each value's text.
  let coverageTexts: [(index: Int, lowest: Int, texts: [String])?]
  /// `coverageTable(coverageTexts)`, for each `Kind` (by its raw value).
  let coverageTables: [[Bool]]
  /// The configuration values `unconfirmedUserBeforeSRPVerifier` reads (nil: the model lacks one).
  let statusBeforeVerifier: StatusBeforeVerifier?
  /// Where the client reaches the pool (nil: the pool's actor, in process).
  package let connection: PoolConnection?
  /// Makes each run's client (nil: the reference client in process, with `hooks`).
  package let makeClient: ClientMaker?
  /// What the client under test supports; the harness draws only what it does.
  package let profile: ClientProfile
  /// The oracle's shared tables: every run's `ModelSimulator` starts from it.
  package let oracleContext: ModelSimulator.Context
  /// Per-model tables for `supports(responseIndex:in:)`, built once (no name is compared on the
  /// fuzzer's hot path): each response's class, whether the harness can give it at each step
  /// (`supports(_:at:)`), each step's answer that `answerLeadsToSetup` tries, whether each step
  /// carries the TOTP secret, and the value of `user.deviceRemembered` that means true.
  package let responseClasses: [ResponseName?]
  let setupClass: [Bool]
  let supportedAt: [[Bool]]
  let setupAnswer: [Int?]
  package let carriesSecret: [Bool]
  /// Per step: whether it is the signed-in step, and what `compareDetails` reads of its facts.
  package let signedInStep: [Bool]
  let detailFacts: [(delivery: Delivery?, deliveryDetails: Bool, challengeParameters: Bool)]
  let rememberedDevice: (index: Int, value: Int)?
  /// Each branch's transition as `allTransitions` names it ("step / response -> outcome").
  package let transitionTexts: [String]

  /// Makes the client of a run, for the endpoint its pool is reached at and the devices its user
  /// remembers (by username).
  package typealias ClientMaker =
    @Sendable (PoolConnection.Endpoint, [String: RememberedDevice]) async throws(ClientFailure) -> any ClientUnderTest

  package init(
    system: TransitionSystem, hooks: ClientHooks = .reference, connection: PoolConnection? = nil,
    client: ClientMaker? = nil, profile: ClientProfile = .reference
  ) {
    self.system = system
    self.hooks = hooks
    self.connection = connection
    self.makeClient = client
    self.profile = profile
    var stepByID: [String: Int] = [:]
    for (i, step) in system.model.steps.enumerated() where stepByID[step.id] == nil { stepByID[step.id] = i }
    self.stepByID = stepByID
    coverageTexts = Self.coverageNames(profile).map { name in
      system.configurationIndex[name].map { i in
        let domain = system.model.variables[i].domain
        let lowest = domain.values.min() ?? 0
        let highest = domain.values.max() ?? 0
        return (i, lowest, (lowest...highest).map { domain.render($0) })
      }
    }
    let texts = coverageTexts
    coverageTables = Kind.allCases.map { Self.coverageTable(texts, kind: $0, profile: profile) }
    statusBeforeVerifier = StatusBeforeVerifier(system)
    swiftNames = system.model.steps.map { step in
      if case .name(let n)? = step.names.first(where: { $0.platform == "swift" })?.form { return n }
      return step.id
    }
    oracleContext = ModelSimulator.Context(system)
    let model = system.model
    let classes = model.responses.map { ResponseName(rawValue: $0.name) }
    responseClasses = classes
    setupClass = classes.map { $0.map(ResponseName.setupClasses.contains) ?? false }
    supportedAt = model.steps.map { step in
      classes.indices.map { r in Self.supports(classes[r], at: step.id) }
    }
    let answers: [ResponseName] = [.correctPassword, .goodNewPassword, .correctAnswer, .validEmail, .correctCode]
    setupAnswer = model.steps.map { step in
      let accepted = step.responses.map(\.response)
      for answer in answers {
        if let r = accepted.first(where: { classes[$0] == answer }) { return r }
      }
      return nil
    }
    carriesSecret = model.steps.map { $0.facts.carries.contains(.sharedSecret) }
    signedInStep = model.steps.map { $0.kind == .signedIn }
    detailFacts = model.steps.map { step in
      (
        step.facts.delivery, step.facts.delivery != nil || step.facts.carries.contains(.codeDeliveryDetails),
        step.facts.carries.contains(.challengeParameters)
      )
    }
    rememberedDevice = model.variableIndex(named: Self.rememberedDeviceVariable).flatMap { i in
      model.variables[i].domain.values.first { model.variables[i].domain.render($0) == "true" }.map { (i, $0) }
    }
    transitionTexts = system.branches.map { branch in
      let outcome: String
      switch branch.outcome {
      case .step(let s): outcome = model.steps[s].id
      case .error: outcome = "error"
      default: outcome = "restart"
      }
      return Self.transitionText(model.steps[branch.step].id, model.responses[branch.response].name, outcome)
    }
  }

  package init(
    model: SignInModel, hooks: ClientHooks = .reference, connection: PoolConnection? = nil,
    client: ClientMaker? = nil, profile: ClientProfile = .reference
  ) {
    self.init(
      system: TransitionSystem(model: model), hooks: hooks, connection: connection, client: client, profile: profile)
  }

  /// One call to make: a response class, the API call, and for a fault how it happens.
  package struct Call: Sendable, Equatable {
    package var response: String
    /// The API call: nil for the one the flow implies (`signIn` at the start and after the
    /// flow ended, after `signOut` when signed in; `confirmSignIn` on a challenge);
    /// `.signIn` mid-flow; `.confirmSignIn` with no flow (refused: `InvalidStateError`).
    package var function: Function?
    /// For `networkFault`: which backend request of the call fails (0: the first).
    package var faultRequest: Int
    /// For `networkFault` and `setupFault`: how it fails (transport or timeout); for
    /// `serviceError` without `error`: a 5xx or an unreadable body.
    package var fault: SimulatedFault
    /// For `serviceError`: the documented Cognito error the pool answers (nil: `fault`); for
    /// `setupError`, the error AssociateSoftwareToken answers (one the model's class carries).
    package var error: String?
    /// `response`'s index in the model's responses, when the caller looked it up already (the
    /// fuzzer's executor): the oracle is then given the response without looking up its name.
    package var responseIndex: Int?

    package init(
      response: String, function: Function? = nil, faultRequest: Int = 0,
      fault: SimulatedFault = .transport, error: String? = nil
    ) {
      self.response = response
      self.function = function
      self.faultRequest = faultRequest
      self.fault = fault
      self.error = error
    }
  }

  /// The client API a call uses.
  package enum Function: String, Sendable, Codable, Equatable {
    case signIn, confirmSignIn
  }

  /// Why a call could not be made: the model refuses it (a response the step does not
  /// accept), or its fault was never reached (the call made fewer backend requests).
  package enum Refusal: Error, Sendable, Equatable {
    case model(ModelSimulator.Failure)
    case faultNotReached(request: Int)
    /// The client under test failed to answer (an adapter broke the protocol): no verdict.
    case client(ClientFailure)
  }

  /// One client session on one simulated pool, with the model's state beside it.
  package struct Run: Sendable {
    package let configuration: [String: String]
    package fileprivate(set) var oracle: ModelSimulator
    /// The model's state at the start (what a new flow starts from).
    package let fresh: ModelSimulator
    package let pool: any PoolControl
    package let client: any ClientUnderTest
    /// The auth flow every `signIn` of the run asks for (`flow(configuration)`, read once).
    let authFlow: AuthFlowType
    /// Whether the model's flow is over (a restart or a terminal step).
    package var flowEnded: Bool { oracle.flowEnded }

    init(
      configuration: [String: String], oracle: ModelSimulator, fresh: ModelSimulator, pool: any PoolControl,
      client: any ClientUnderTest
    ) {
      self.configuration = configuration
      self.oracle = oracle
      self.fresh = fresh
      self.pool = pool
      self.client = client
      authFlow = Harness.flow(configuration)
    }
  }

  /// What one call did.
  package struct Record: Sendable {
    /// "signIn" or "confirmSignIn" (after "signOut, " when the client signed out first).
    package let function: String
    package let call: Call
    package let stepBefore: String
    /// What the model's transition system does.
    package let modelOutcome: TraceOutcome
    /// What the client should do: what the model does (an unknown challenge is a response
    /// class of the model's now, not a harness override).
    package var expected: TraceOutcome { modelOutcome }
    /// The exception the model names for `expected` (nil: a step, or none named).
    package let expectedException: String?
    package let observation: Observation
    /// nil when the client did what the model expects.
    package let disagreement: Disagreement?
    /// Why the call is not judged: the pool asked for a challenge the client under test does
    /// not support (`ClientProfile.challenges`); nil for a judged call.
    package var unsupported: String? = nil
    /// The branch of `system.branches` the model took (nil where the call met no step: a
    /// `confirmSignIn` with no flow, or a client still signed in after `signOut`).
    package var branch: Int? = nil
  }

  /// The indices of the configuration variables `covers(valueOf:)` reads.
  package var coverageIndices: [Int] { coverageTexts.compactMap { $0?.index } }

  /// Which of the covered configurations a check admits: all of them, those whose runs do
  /// SRP's arithmetic (`usesSRP`), or the others. The fuzzer draws the two apart, so the
  /// share of the costly SRP cases is its choice (`Fuzzer.srpShare`).
  package enum Kind: Int, Sendable, CaseIterable {
    case any, srp, withoutSRP
  }

  /// Whether the harness can exercise this configuration (see the type's notes): no passkey
  /// preference, `pool.customMfa` only where customWithSRP reads it, and
  /// PreventUserExistenceErrors only for a user that does not exist (elsewhere it is not read).
  package func covers(_ configuration: [String: String], kind: Kind = .any) -> Bool {
    let names = Self.coverageNames(profile)
    return Self.coversRule({ $0 < names.count ? configuration[names[$0]] : nil }, kind: kind, profile: profile)
  }

  /// Whether a run of `configuration` does SRP's 3072-bit arithmetic at every sign-in (about
  /// milliseconds per sign-in where the other calls take microseconds): an SRP auth flow (userSRP,
  /// customWithSRP, USER_AUTH preferring PASSWORD_SRP), or device tracking on (ConfirmDevice's
  /// verifier, a remembered device's DEVICE_SRP_AUTH). USER_AUTH without that preference does
  /// SRP only after `selectPASSWORD_SRP`, which the fuzzer draws in SRP cases alone.
  package static func usesSRP(_ configuration: [String: String]) -> Bool {
    srpRule { configuration[coverageVariables[$0]] }
  }

  /// `covers` for a configuration given by value per configuration variable index, each read
  /// through `value` only when needed (so a generator can test a configuration before
  /// drawing all of it).
  package func covers(valueOf value: (Int) -> Int, kind: Kind = .any) -> Bool {
    var index = 0
    for case let variable? in coverageTexts {
      index = index * variable.texts.count + value(variable.index) - variable.lowest
    }
    return coverageTables[kind.rawValue][index]
  }

  /// `coversRule` for every combination of the values of `coverageTexts`' variables
  /// (positions in mixed radix, in their order).
  static func coverageTable(
    _ coverageTexts: [(index: Int, lowest: Int, texts: [String])?], kind: Kind, profile: ClientProfile
  ) -> [Bool] {
    let size = coverageTexts.reduce(1) { $0 * ($1?.texts.count ?? 1) }
    return (0..<size).map { combination in
      var positions = [Int?](repeating: nil, count: coverageTexts.count)
      var rest = combination
      for k in coverageTexts.indices.reversed() {
        guard let count = coverageTexts[k]?.texts.count else { continue }
        positions[k] = rest % count
        rest /= count
      }
      return coversRule({ k in positions[k].flatMap { coverageTexts[k]?.texts[$0] } }, kind: kind, profile: profile)
    }
  }

  /// The configuration variables `covers` reads, by name.
  static let coverageVariables = [
    "pool.authFlow", "pool.preferredFirstFactor", "pool.customMfa", "pool.deviceTracking", "user.exists",
    "pool.preventUserExistenceErrors",
  ]

  /// The variable a client that cannot be handed a remembered device (`ClientProfile.remembersDevices`
  /// false) also reads, after `coverageVariables`.
  static let rememberedDeviceVariable = "user.deviceRemembered"

  /// `coverageVariables`, and `rememberedDeviceVariable` for a client that cannot hold one.
  static func coverageNames(_ profile: ClientProfile) -> [String] {
    coverageVariables + (profile.remembersDevices ? [] : [rememberedDeviceVariable])
  }

  /// The rule of `covers`, reading `coverageVariables[k]` through `value(k)` (nil: the
  /// configuration has no such variable).
  private static func coversRule(_ value: (Int) -> String?, kind: Kind, profile: ClientProfile) -> Bool {
    let covered =
      value(1) != "WEB_AUTHN"
      && ((value(2) ?? "none") == "none" || value(0) == "customWithSRP")
      && !(value(4) != "false" && value(5) == "true")
      && profile.flows.map { $0.contains(ClientProfile.flowName(value(0))) } ?? true
      && (profile.remembersDevices || value(6) != "true")
    switch kind {
    case .any: return covered
    case .srp: return covered && srpRule(value)
    case .withoutSRP: return covered && !srpRule(value)
    }
  }

  /// The rule of `usesSRP`, read as `coversRule` reads its variables.
  private static func srpRule(_ value: (Int) -> String?) -> Bool {
    value(0) == "userSRP" || value(0) == "customWithSRP" || value(1) == "PASSWORD_SRP"
      || (value(3) ?? "off") != "off"
  }

  /// The values `unconfirmedUserBeforeSRPVerifier` compares, as the model's value numbers.
  struct StatusBeforeVerifier: Sendable {
    let status: Int, unconfirmed: Int
    let authFlow: Int, srpFlows: Set<Int>, userAuth: Int
    let preferred: Int?, passwordSRP: Int?
    let passwordSet: Int?, passwordSetTrue: Int?

    init?(_ system: TransitionSystem) {
      func value(_ name: String, _ text: String) -> (index: Int, value: Int)? {
        guard let i = system.configurationIndex[name], let v = system.valueOfText[i][text] else { return nil }
        return (i, v)
      }
      guard let unconfirmed = value("user.status", "unconfirmed"), let flow = system.configurationIndex["pool.authFlow"]
      else { return nil }
      status = unconfirmed.index
      self.unconfirmed = unconfirmed.value
      authFlow = flow
      srpFlows = Set(["userSRP", "customWithSRP"].compactMap { system.valueOfText[flow][$0] })
      userAuth = system.valueOfText[flow]["userAuth"] ?? -1
      let srp = value("pool.preferredFirstFactor", "PASSWORD_SRP")
      (preferred, passwordSRP) = (srp?.index, srp?.value)
      let set = value("user.passwordSet", "true")
      (passwordSet, passwordSetTrue) = (set?.index, set?.value)
    }
  }

  /// Left out because the model is wrong here: a wrong password at `signIn` in an SRP flow
  /// (userSRP, customWithSRP, USER_AUTH with PASSWORD_SRP preferred and a password) for an
  /// unconfirmed user. The model restarts with NotAuthorizedException (its `signIn` rule for
  /// `wrongPassword`, whatever the status: models/2026-all-platforms.yaml:339,
  /// models/2024-flutter.yaml:264, models/2023-swift.yaml:245); Cognito answers
  /// UserNotConfirmedException whatever the password, which the pool does (before the
  /// verifier, as moto does for USER_SRP_AUTH): AWS called it "the intended behavior" for the
  /// SRP sign-in of amazon-cognito-identity-js (amazon-archives/amazon-cognito-identity-js#288),
  /// and amplify-js #11209, aws-sdk-android #1688 and aws-sdk-js #4608 report the same.
  /// A reset-required user is not left out: Cognito checks that status only after the password
  /// (amplify-js #4890), as the model and the pool do.
  package func unconfirmedUserBeforeSRPVerifier(_ response: String, in oracle: ModelSimulator) -> Bool {
    response == ResponseName.wrongPassword.rawValue && unconfirmedBeforeVerifier(oracle)
  }

  /// `unconfirmedUserBeforeSRPVerifier` for the response with index `r` in `model.responses`.
  func unconfirmedUserBeforeSRPVerifier(responseIndex r: Int, in oracle: ModelSimulator) -> Bool {
    responseClasses[r] == .wrongPassword && unconfirmedBeforeVerifier(oracle)
  }

  /// The rule of `unconfirmedUserBeforeSRPVerifier` once the response is `wrongPassword`.
  private func unconfirmedBeforeVerifier(_ oracle: ModelSimulator) -> Bool {
    guard oracle.step == 0, let rule = statusBeforeVerifier else { return false }
    let values = oracle.valuation
    guard values[rule.status] == rule.unconfirmed else { return false }
    let flow = values[rule.authFlow]
    if rule.srpFlows.contains(flow) { return true }
    guard flow == rule.userAuth, let preferred = rule.preferred, values[preferred] == rule.passwordSRP else {
      return false
    }
    return rule.passwordSet.map { values[$0] == rule.passwordSetTrue } ?? true
  }

  /// Whether the harness can give `response` at the step `stepID`.
  package func supports(_ response: String, at stepID: String) -> Bool {
    guard let name = ResponseName(rawValue: response) else { return true }
    return Self.supports(name, at: stepID)
  }

  /// `supports(_:at:)` for a response class (nil: one the harness does not know, given as is).
  static func supports(_ name: ResponseName?, at stepID: String) -> Bool {
    guard let name else { return true }
    if ResponseName.unsupported.contains(name) { return false }
    return !(StepID.localSelections.contains(stepID) && name.isFault)
  }

  /// Whether the harness can give `response` in the model's state `oracle`: the step accepts it,
  /// `supports(_:at:)`, not `unconfirmedUserBeforeSRPVerifier`, and `setupFault` only where the
  /// answer the harness sends leads to the TOTP setup (elsewhere no AssociateSoftwareToken
  /// follows the answer, so the fault cannot happen).
  package func supports(_ response: String, in oracle: ModelSimulator) -> Bool {
    guard let r = system.responseIndex[response] else { return false }
    return supports(responseIndex: r, in: oracle)
  }

  /// `supports(_:in:)` for the response with index `r` in `model.responses`.
  package func supports(responseIndex r: Int, in oracle: ModelSimulator) -> Bool {
    guard let s = oracle.step, supportedAt[s][r], system.responseSlots[s][r] >= 0,
      !unconfirmedUserBeforeSRPVerifier(responseIndex: r, in: oracle)
    else { return false }
    if responseClasses[r] == .unexpectedDeviceChallenge, deviceRemembered(oracle) { return false }
    return !setupClass[r] || answerLeadsToSetup(oracle)
  }

  /// `supports(_:at:)` for the response with index `r` in `model.responses` at step `s`.
  package func supports(responseIndex r: Int, atStep s: Int) -> Bool { supportedAt[s][r] }

  /// Whether the configuration remembers a device for the user (`user.deviceRemembered`): the
  /// client then answers a device challenge with it, so the harness gives no
  /// `unexpectedDeviceChallenge` there (the model's restart stands for a device Cognito no
  /// longer knows, which the pool does not simulate).
  func deviceRemembered(_ oracle: ModelSimulator) -> Bool {
    guard let rememberedDevice else { return false }
    return oracle.valuation[rememberedDevice.index] == rememberedDevice.value
  }

  /// Whether the answer the harness sends for a fault at the current step leads to a step
  /// that carries the TOTP secret (the client then calls AssociateSoftwareToken).
  package func answerLeadsToSetup(_ oracle: ModelSimulator) -> Bool {
    guard let s = oracle.step, let answer = setupAnswer[s], let branch = oracle.peek(responseIndex: answer),
      case .step(let t) = branch.outcome
    else { return false }
    return carriesSecret[t]
  }

  /// A new session for `configuration`, or nil when the model refuses the configuration or
  /// the harness does not cover it.
  /// The reference client (with `hooks`) calls the pool's actor in process, whatever
  /// `connection` and `makeClient` say (see `open`).
  package func start(
    _ configuration: [String: String], values: [Int]? = nil, started: ModelSimulator? = nil, recordsTrace: Bool = false
  ) -> Run? {
    guard let oracle = oracle(configuration, values: values, started: started, recordsTrace: recordsTrace) else {
      return nil
    }
    let pool = SimulatedUserPool(configuration: configuration)
    let endpoint = PoolConnection.Endpoint(
      pool: pool, backend: pool, userPoolId: SimulatedUserPool.poolId, clientId: "harness")
    return Run(
      configuration: configuration, oracle: oracle, fresh: oracle, pool: pool,
      client: referenceClient(endpoint, devices: Self.devices(endpoint)))
  }

  /// A new session for `configuration` through `connection` (in process without one), with
  /// the client `makeClient` makes (the reference client without one), or nil as for `start`.
  /// - Throws: the client under test could not be made ready (an adapter ignored `reset`).
  /// `values`, when given, are the configuration's values by variable index (what `configuration`
  /// names), so the oracle starts without parsing the names again; `started`, the model's state
  /// already started from `values` (the fuzzer's generator walked the case from it), is then
  /// taken as the oracle's start instead of starting it again.
  package func open(
    _ configuration: [String: String], values: [Int]? = nil, started: ModelSimulator? = nil,
    recordsTrace: Bool = false
  ) async throws(ClientFailure) -> Run? {
    guard connection != nil || makeClient != nil else {
      return start(configuration, values: values, started: started, recordsTrace: recordsTrace)
    }
    guard let oracle = oracle(configuration, values: values, started: started, recordsTrace: recordsTrace) else {
      return nil
    }
    let endpoint: PoolConnection.Endpoint
    if let connection {
      endpoint = try await connection.connect(configuration)
    } else {
      let pool = SimulatedUserPool(configuration: configuration)
      endpoint = PoolConnection.Endpoint(
        pool: pool, backend: pool, userPoolId: SimulatedUserPool.poolId, clientId: "harness")
    }
    let devices = Self.devices(endpoint)
    let client = try await makeClient?(endpoint, devices) ?? referenceClient(endpoint, devices: devices)
    return Run(configuration: configuration, oracle: oracle, fresh: oracle, pool: endpoint.pool, client: client)
  }

  /// The device `user.deviceRemembered` says an earlier sign-in confirmed (known to both sides).
  static func devices(_ endpoint: PoolConnection.Endpoint) -> [String: RememberedDevice] {
    guard let device = endpoint.pool.configuredDevice else { return [:] }
    return [
      endpoint.pool.username: RememberedDevice(key: device.key, groupKey: device.groupKey, password: device.password)
    ]
  }

  /// The reference client (with `hooks`) reaching `endpoint`.
  private func referenceClient(_ endpoint: PoolConnection.Endpoint, devices: [String: RememberedDevice])
    -> InProcessClient
  {
    InProcessClient(
      SignInClient(
        backend: endpoint.backend, clientId: endpoint.clientId, userPoolId: endpoint.userPoolId, hooks: hooks,
        devices: devices))
  }

  /// The model's state at the start, when the model accepts the configuration and the
  /// harness covers it.
  private func oracle(
    _ configuration: [String: String], values: [Int]?, started: ModelSimulator?, recordsTrace: Bool
  ) -> ModelSimulator? {
    if let values {
      guard covers(valueOf: { values[$0] }) else { return nil }
      if var started, started.step == 0,
        model.configurationIndices.allSatisfy({ $0 < values.count && started.valuation[$0] == values[$0] })
      {
        started.recordsTrace = recordsTrace
        return started
      }
      return try? ModelSimulator(context: oracleContext, configurationValues: values, recordsTrace: recordsTrace)
    }
    guard covers(configuration) else { return nil }
    return try? ModelSimulator(context: oracleContext, configuration: configuration, recordsTrace: recordsTrace)
  }

  /// The model's state for a `signIn` while a flow is in progress or after it ended: the
  /// entry-point semantics `ModelSimulator` gives (today a new flow from the configuration).
  func newFlow(_ run: Run) throws(Refusal) -> ModelSimulator {
    // The configuration was accepted at `start`, so this is `ModelSimulator(system:configuration:)` again.
    var fresh = run.fresh
    fresh.recordsTrace = run.oracle.recordsTrace
    return fresh
  }

  /// Makes one call on both the model and the client and compares what a user sees.
  /// - Throws: the model's refusal (a response the step does not accept, a `confirmSignIn`
  ///   with no flow after `done`), or a fault the call never reached.
  package func perform(_ call: Call, on run: inout Run) async throws(Refusal) -> Record {
    if call.function == .confirmSignIn && run.flowEnded { return try await confirmWithoutFlow(call, on: &run) }
    var function = ""
    if run.flowEnded || (call.function == .signIn && run.oracle.step != 0) {
      if try await Self.signedIn(run) || run.oracle.step.map({ signedInStep[$0] }) == true {
        function = "signOut, "
        if try await Self.signOut(run) {
          return Record(
            function: "signOut", call: call, stepBefore: run.oracle.stepID ?? "ended",
            modelOutcome: .restart("signOut"), expectedException: nil,
            observation: Observation(.returned(.done), isSignedIn: true),
            disagreement: .wrongSignedIn(shown: true, expected: false))
        }
      }
      run.oracle = try newFlow(run)
    }
    guard let stepIndex = run.oracle.step else { throw .model(.flowEnded("restart")) }
    let step = model.steps[stepIndex]
    let offeredBefore = run.oracle.offered
    let modelOutcome: TraceOutcome
    do {
      if let r = call.responseIndex, model.responses.indices.contains(r), model.responses[r].name == call.response {
        modelOutcome = try run.oracle.respond(responseIndex: r)
      } else {
        modelOutcome = try run.oracle.respond(call.response)
      }
    } catch { throw .model(error) }
    var expectedException = run.oracle.lastException
    // The class of the response just given (the branch `respond` took is of that response).
    let response = run.oracle.lastBranch.map { responseClasses[system.branches[$0].response] } ?? nil
    let faultRequest = response == .setupFault ? max(1, call.faultRequest) : call.faultRequest
    let pool = run.pool
    try await Self.onPool { () async throws(ClientFailure) in
      switch response {
      case .networkFault:
        try await pool.injectFault(call.fault.isServiceAnswer ? .transport : call.fault, onRequest: faultRequest)
      case .setupError:
        try await pool.injectFault(
          operation: Self.setupOperation, .error(call.error ?? Self.defaultSetupError), count: 1)
      case .unknownChallenge: try await pool.injectUnknownChallenge()
      case .unexpectedDeviceChallenge: try await pool.injectDeviceChallenge()
      case .setupFault:
        // The request after the taken answer is AssociateSoftwareToken; in an SRP flow the answer
        // itself takes two requests (the password, then PASSWORD_VERIFIER), so the fault names the
        // operation rather than a request number.
        try await pool.injectFault(
          operation: Self.setupOperation, .fault(call.fault.isServiceAnswer ? .transport : call.fault), count: 1)
      case .serviceError:
        if let error = call.error {
          try await pool.injectError(error, onRequest: faultRequest)
        } else {
          try await pool.injectFault(call.fault.isServiceAnswer ? call.fault : .serverError, onRequest: faultRequest)
        }
      default: break
      }
      if response == .expiredSession { try await pool.expireSessions() }
      if response == .statusResetRequired { try await pool.changeStatus(to: "resetRequired") }
      if response == .statusUnconfirmed { try await pool.changeStatus(to: "unconfirmed") }
    }
    if response == .serviceError, expectedException == ErrorType.passedThrough {
      expectedException = ErrorType.passedThrough(call.error)
    }
    if response == .setupError, expectedException == nil { expectedException = call.error ?? Self.defaultSetupError }
    let text = answer(response, step: step.id, offered: offeredBefore)
    let observation: Observation
    do {
      if step.kind == .entry {
        let password = response == .wrongPassword ? text : SimulatedUserPool.password
        observation = try await run.client.signIn(
          username: SimulatedUserPool.username, password: password,
          options: SignInOptions(authFlow: run.authFlow))
      } else {
        observation = try await run.client.confirmSignIn(text)
      }
    } catch {
      throw .client(error)
    }
    let state = try await Self.poolState(run)
    if let response, ResponseName.firedDuringCall.contains(response), !state.faultFired {
      if ResponseName.setupClasses.contains(response) {
        try await Self.onPool { () async throws(ClientFailure) in
          try await pool.injectFault(operation: Self.setupOperation, .fault(.transport), count: 0)
        }
      }
      throw .faultNotReached(request: faultRequest)
    }
    let expectation = Expectation(
      outcome: modelOutcome, exception: expectedException, offered: run.oracle.offered,
      sent: SentValues(state))
    let unsupported = profile.firstUnsupported(state.issuedChallenges)
    var record = Record(
      function: function + (step.kind == .entry ? "signIn" : "confirmSignIn"), call: call, stepBefore: step.id,
      modelOutcome: modelOutcome, expectedException: expectedException, observation: observation,
      disagreement: unsupported == nil ? compare(expectation, observation) : nil)
    record.unsupported = unsupported.map { "the challenge \($0)" }
    record.branch = run.oracle.lastBranch
    return record
  }

  /// Runs `work` on the run's pool; a pool that cannot be reached refuses the run.
  private static func onPool(_ work: () async throws(ClientFailure) -> Void) async throws(Refusal) {
    do { try await work() } catch { throw .client(error) }
  }

  /// The pool's state after a call, or the run's refusal when the pool cannot be reached.
  private static func poolState(_ run: Run) async throws(Refusal) -> SimulatedUserPool.State {
    do { return try await run.pool.state() } catch { throw .client(error) }
  }

  /// What the client under test says of `isSignedIn`, or the run's refusal when it cannot say.
  private static func signedIn(_ run: Run) async throws(Refusal) -> Bool {
    do { return try await run.client.isSignedIn() } catch { throw .client(error) }
  }

  /// Signs the client under test out; whether it still says it is signed in.
  private static func signOut(_ run: Run) async throws(Refusal) -> Bool {
    do { return try await run.client.signOut() } catch { throw .client(error) }
  }

  /// `confirmSignIn` when no flow is in progress: refused with `InvalidStateError`, still
  /// signed out, and the model's state unchanged.
  private func confirmWithoutFlow(_ call: Call, on run: inout Run) async throws(Refusal) -> Record {
    if let step = run.oracle.step, model.steps[step].kind == .signedIn { throw .model(.flowEnded("done")) }
    let observation: Observation
    do { observation = try await run.client.confirmSignIn(SimulatedUserPool.code) } catch { throw .client(error) }
    let expected = TraceOutcome.restart("no sign-in in progress")
    let exception = ErrorType.name(of: .invalidState(""))
    let expectation = Expectation(
      outcome: expected, exception: exception, offered: [], sent: SentValues(try await Self.poolState(run)))
    return Record(
      function: "confirmSignIn", call: call, stepBefore: run.oracle.stepID ?? "ended", modelOutcome: expected,
      expectedException: exception, observation: observation,
      disagreement: compare(expectation, observation))
  }

  /// Every transition the model has, as "step / response -> outcome" (a step id, "error" or
  /// "restart"), each once, in the order of the transition system's branches.
  package var allTransitions: [String] {
    var seen = Set<String>()
    return transitionTexts.filter { seen.insert($0).inserted }
  }

  /// A transition as `allTransitions` names it: "step / response -> outcome".
  static func transitionText(_ step: String, _ response: String, _ outcome: String) -> String {
    "\(step) / \(response) -> \(outcome)"
  }

  /// The transition `record` took, as `allTransitions` names it: its branch's text, or for a
  /// call that met no step (no branch) the one its record gives.
  package func transitionText(of record: Record) -> String {
    record.branch.map { transitionTexts[$0] }
      ?? Self.transitionText(record.stepBefore, record.call.response, Self.transitionOutcome(record.modelOutcome))
  }

  /// An outcome as `allTransitions` names it.
  package static func transitionOutcome(_ outcome: TraceOutcome) -> String {
    switch outcome {
    case .step(let id): return id
    case .error: return "error"
    case .restart: return "restart"
    case .undetermined: return "undetermined"
    }
  }

  /// The step's Swift name, or its model id when the model gives none.
  package func swiftName(_ stepID: String) -> String {
    guard let i = stepByID[stepID] else { return stepID }
    return swiftNames[i]
  }

  /// The answer the client sends for a response class at a step.
  package func answer(_ response: String, step: String, offered: [String]) -> String {
    answer(ResponseName(rawValue: response), step: step, offered: offered)
  }

  /// `answer` for a response's class (nil: a response the harness has no class for).
  func answer(_ response: ResponseName?, step: String, offered: [String]) -> String {
    switch response {
    case .correctCode: return SimulatedUserPool.code
    case .wrongCode: return Self.wrongCode
    case .malformedCode: return "12ab"
    case .expiredCode: return SimulatedUserPool.usedCode
    case .selectSMS: return "SMS_MFA"
    case .selectTOTP: return "SOFTWARE_TOKEN_MFA"
    case .selectEMAIL: return "EMAIL_OTP"
    case .selectUnknown: return "PUSH_MFA"
    case .selectPASSWORD: return "PASSWORD"
    case .selectPASSWORD_SRP: return "PASSWORD_SRP"
    case .selectSMS_OTP: return "SMS_OTP"
    case .selectEMAIL_OTP: return "EMAIL_OTP"
    case .validEmail: return "user@example.com"
    case .invalidEmail: return "not-an-address"
    case .goodNewPassword: return Self.newPassword
    case .badNewPassword: return "short"
    case .correctAnswer: return "right"
    case .wrongAnswer: return "wrong"
    case .failingAnswer: return "fail"
    case .correctPassword: return SimulatedUserPool.password
    case .wrongPassword: return Self.wrongPassword
    case .networkFault, .expiredSession, .statusResetRequired, .statusUnconfirmed, .serviceError, .setupFault,
      .setupError, .unknownChallenge, .unexpectedDeviceChallenge, .selectWEB_AUTHN, nil:
      // A fault: the answer that would otherwise succeed.
      switch step {
      case StepID.mfaSelection:
        return ["SMS": "SMS_MFA", "TOTP": "SOFTWARE_TOKEN_MFA", "EMAIL": "EMAIL_OTP"][offered.first ?? ""] ?? "SMS_MFA"
      case StepID.emailMFASetup: return "user@example.com"
      case StepID.newPassword: return "NewPassw0rd!"
      case StepID.customChallenge: return "right"
      case StepID.password: return SimulatedUserPool.password
      default: return SimulatedUserPool.code
      }
    }
  }

  /// The operation `setupFault` and `setupError` fail: the request that prepares the TOTP setup step.
  static let setupOperation = "AssociateSoftwareToken"
  /// The error `setupError` answers when the call names none.
  static let defaultSetupError = "NotAuthorizedException"

  /// The answers the harness types that are secrets (beside the pool's password and code).
  package static let wrongPassword = "wrong-Passw0rd"
  package static let newPassword = "NewPassw0rd!"
  package static let wrongCode = "000000"

  /// The auth flow the client asks for under `configuration` (USER_PASSWORD_AUTH for a model
  /// without `pool.authFlow`).
  package static func flow(_ configuration: [String: String]) -> AuthFlowType {
    switch configuration["pool.authFlow"] {
    case "userSRP": return .userSRP
    case "customWithSRP": return .customWithSRP
    case "customWithoutSRP": return .customWithoutSRP
    case "userAuth":
      return .userAuth(preferredFirstFactor: AuthFactorType(rawValue: configuration["pool.preferredFirstFactor"] ?? ""))
    default: return .userPassword
    }
  }

  /// The model's option name of each MFA type.
  static let optionNames: [MFAType: String] = [.sms: "SMS", .totp: "TOTP", .email: "EMAIL"]

  /// The options a selection step offers, in the model's option names.
  static func offeredNames(_ step: AuthSignInStep) -> Set<String>? {
    switch step {
    case .continueSignInWithMFASelection(let types), .continueSignInWithMFASetupSelection(let types):
      return Set(types.compactMap { optionNames[$0] })
    case .continueSignInWithFirstFactorSelection(let factors): return Set(factors.map(\.rawValue))
    default: return nil
    }
  }

  /// nil when the client did what the model expects; otherwise how it differed.
  /// `offered` is what the model's step offers after the call, for selection steps.
  package func compare(_ expected: TraceOutcome, _ observation: Observation, offered: [String] = []) -> Disagreement? {
    compare(Expectation(outcome: expected, exception: nil, offered: offered, sent: nil), observation)
  }

  /// nil when what a user sees is what the model (and the values the server sent) say;
  /// otherwise the first difference: the outcome, the step's values, `isSignedIn`, the
  /// error's type, then secrets.
  package func compare(_ expected: Expectation, _ observation: Observation) -> Disagreement? {
    // The step the model expects, looked up once.
    var index: Int? = nil
    if case .step(let id) = expected.outcome { index = stepByID[id] }
    if let d = compareOutcome(expected.outcome, observation.outcome, offered: expected.offered, stepIndex: index) {
      return d
    }
    if let index, case .returned(let step) = observation.outcome, let sent = expected.sent,
      let d = compareDetails(index, step, sent)
    {
      return d
    }
    let signedIn = index.map { signedInStep[$0] } ?? false
    if let shown = observation.resultSignedIn, shown != signedIn {
      return .resultSignedIn(shown: shown, expected: signedIn)
    }
    if observation.isSignedIn != signedIn { return .wrongSignedIn(shown: observation.isSignedIn, expected: signedIn) }
    if case .threw(let error, _) = observation.outcome {
      if let exception = expected.exception, !ErrorType.matches(error, exception) {
        return .wrongErrorType(error, expected: exception)
      }
      if let sent = expected.sent, let kind = sent.secret(in: error.description) {
        return .secretShown(kind, place: "the error's description")
      }
    }
    return nil
  }

  /// The step, its offers and whether the flow goes on.
  /// `stepIndex`: the model's index of the step `expected` names, if known.
  func compareOutcome(
    _ expected: TraceOutcome, _ observation: Observation.Outcome, offered: [String], stepIndex: Int? = nil
  ) -> Disagreement? {
    switch (expected, observation) {
    case (.step(let id), .returned(let step)):
      let name = stepIndex.map { swiftNames[$0] } ?? swiftName(id)
      if step.name != name { return .wrongStep(returned: step.name, expected: name) }
      if let names = Self.offeredNames(step), !offered.isEmpty, names != Set(offered) {
        return .wrongOffers(offered: names.sorted(), expected: offered.sorted())
      }
      return nil
    case (.error(_, let stays), .threw(let error, let now)):
      if !error.isRetryable { return .flowEndedOnRetryableError(error) }
      return now?.name == swiftName(stays)
        ? nil : .wrongStepAfterError(error, now: now?.name, expected: swiftName(stays))
    case (.restart, .threw(let error, let now)):
      guard let now else { return nil }
      return .flowContinued(error, stays: now.name)
    case (_, .returned(let step)):
      return .returnedInstead(step.name, expected: expected)
    case (_, .threw(let error, _)):
      return .threwInstead(error, expected: expected)
    }
  }

  /// The values the step carries (the model's `delivery:` and `carries:`) against what
  /// the server sent.
  func compareDetails(_ i: Int, _ step: AuthSignInStep, _ sent: SentValues) -> Disagreement? {
    let facts = detailFacts[i]
    if facts.deliveryDetails {
      let details: AuthCodeDeliveryDetails?
      switch step {
      case .confirmSignInWithSMSMFACode(let d, _), .confirmSignInWithOTP(let d): details = d
      default: details = nil
      }
      let medium =
        facts.delivery.map { $0 == .sms ? "SMS" : "EMAIL" } ?? sent.parameters["CODE_DELIVERY_DELIVERY_MEDIUM"]
      if let medium, details?.medium.rawValue != medium {
        return .wrongDetail(field: .deliveryMedium, shown: details?.medium.rawValue ?? "nothing", expected: medium)
      }
      let destination = sent.parameters["CODE_DELIVERY_DESTINATION"] ?? ""
      if details?.destination != destination {
        return .wrongDetail(
          field: .deliveryDestination, shown: details?.destination ?? "nothing", expected: destination)
      }
    }
    if facts.challengeParameters {
      let expected = sent.parameters.filter { !$0.key.hasPrefix("CODE_DELIVERY") && $0.key != "USERNAME" }
      var shown: [String: String]? = nil
      if case .confirmSignInWithCustomChallenge(let info) = step { shown = info }
      if (shown ?? [:]) != expected {
        return .wrongDetail(
          field: .challengeParameters, shown: Self.render(shown ?? [:]), expected: Self.render(expected))
      }
    }
    if carriesSecret[i] {
      guard case .continueSignInWithTOTPSetup(let details) = step else {
        return .wrongDetail(field: .sharedSecret, shown: "nothing", expected: sent.secretCode ?? "a secret")
      }
      let base32 =
        !details.sharedSecret.isEmpty
        && details.sharedSecret.allSatisfy { "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".contains($0) }
      if details.sharedSecret != sent.secretCode || !base32 || (try? details.getSetupURI(appName: "App")) == nil {
        return .wrongDetail(
          field: .sharedSecret, shown: "a secret of \(details.sharedSecret.count) characters",
          expected: "the \(sent.secretCode?.count ?? 0)-character base32 secret the server sent")
      }
      if details.username != SimulatedUserPool.username {
        return .wrongDetail(field: .setupUsername, shown: details.username, expected: SimulatedUserPool.username)
      }
    }
    return nil
  }

  static func render(_ map: [String: String]) -> String {
    "[" + map.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
  }
}
