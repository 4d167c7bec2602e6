/// A sign-in flow model loaded from one file in `models/`: the single source of truth
/// that the explicit checker, the Z3 encoder, the fuzzer's oracle and the reports read.
public final class SignInModel: Sendable {
  /// The model's own name (`model:` in the file).
  public let name: String
  /// The documentation generation it describes ("2023", "2024", "2026").
  public let generation: String
  public let summary: String
  /// The path it was loaded from, as given.
  public let file: String
  /// FNV-1a 64-bit hash of the file's bytes, in hex; counterexamples record it.
  public let contentHash: String
  public let platforms: [String]
  public let sources: [String]
  /// Configuration variables first, then flow variables (built-in ones included).
  public let variables: [Variable]
  public let constraints: [Constraint]
  /// When the user can sign in at all (definition `canSignIn`); `done` must be reachable then.
  public let canSignIn: Expr?
  /// When an MFA factor must be verified before `done` (definition `mfaRequired`).
  public let mfaRequired: Expr?
  public let optionSets: [OptionSet]
  public let responses: [ResponseClass]
  /// `steps[0]` is the entry: the `signIn` call itself.
  public let steps: [Step]
  public let routes: [Route]
  /// Indices of the built-in flow variables.
  public let builtins: Builtins

  /// How many of `variables` are configuration variables (they come first).
  public let configurationCount: Int
  /// The model format the file is written in (`format:`; 1 when absent).
  public let formatVersion: Int
  /// Notes on the model as a whole (top-level `notes:`); steps carry their own.
  public let notes: [SourceNote]
  /// When each factor is usable and can be set up (`factors:`).
  public let factors: [FactorAvailability]
  /// What the preference variables' values name (`preferences:`).
  public let preferences: [Preference]
  /// The failed-attempt event and its limit (`failedAttempts:`), if declared.
  public let failedAttempts: FailedAttempts?
  /// The definitions as written, with how often each is used (for `signin-spec lint`).
  public let definitions: [Definition]
  /// The lint warnings the model acknowledges (`lint:`).
  public let lintAcknowledgements: [LintAcknowledgement]
  /// Lines of responses, options and routes, for warnings that name file:line.
  public let declarationLines: DeclarationLines
  /// What a new `signIn` or a `signOut` does outside the step's own answer (`clientCalls:`).
  public let clientCalls: [ClientCall]

  /// The client call named `name` (`signIn`, `signOut`), if the model describes it.
  public func clientCall(named name: String) -> ClientCall? { clientCalls.first { $0.name == name } }
  /// The properties the model states (`properties:`), in file order.
  public let properties: [ModelProperty]
  /// The security policy (`policy:`, format 3), stated apart from the rules.
  public let policy: SecurityPolicy?

  public var configurationIndices: Range<Int> { 0..<configurationCount }
  public var flowIndices: Range<Int> { configurationIndices.upperBound..<variables.count }

  /// The number of configurations before constraints: the product of the domains.
  public var configurationSpaceSize: Double {
    configurationIndices.reduce(1.0) { $0 * Double(variables[$1].domain.count) }
  }

  public func stepIndex(named id: String) -> Int? { steps.firstIndex { $0.id == id } }
  public func variableIndex(named name: String) -> Int? { variables.firstIndex { $0.name == name } }

  /// The step's name on `platform`, or its model id when the platform has none.
  public func displayName(ofStep index: Int, platform: String?) -> String {
    let step = steps[index]
    guard let platform, let name = step.names.first(where: { $0.platform == platform }) else { return step.id }
    switch name.form {
    case .name(let n): return n
    case .error(let e): return "\(step.id) (thrown as \(e) on \(platform))"
    case .absent: return "\(step.id) (absent on \(platform))"
    }
  }

  public init(
    name: String, generation: String, summary: String, file: String, contentHash: String, platforms: [String],
    sources: [String], variables: [Variable], constraints: [Constraint], canSignIn: Expr?, mfaRequired: Expr?,
    optionSets: [OptionSet], responses: [ResponseClass], steps: [Step], routes: [Route], builtins: Builtins,
    configurationCount: Int,
    formatVersion: Int = ModelFormat.current, notes: [SourceNote] = [], factors: [FactorAvailability] = [],
    preferences: [Preference] = [], failedAttempts: FailedAttempts? = nil,
    definitions: [Definition] = [], lintAcknowledgements: [LintAcknowledgement] = [],
    declarationLines: DeclarationLines = DeclarationLines(), clientCalls: [ClientCall] = [],
    properties: [ModelProperty] = [], policy: SecurityPolicy? = nil
  ) {
    self.name = name
    self.generation = generation
    self.summary = summary
    self.file = file
    self.contentHash = contentHash
    self.platforms = platforms
    self.sources = sources
    self.variables = variables
    self.constraints = constraints
    self.canSignIn = canSignIn
    self.mfaRequired = mfaRequired
    self.optionSets = optionSets
    self.responses = responses
    self.steps = steps
    self.routes = routes
    self.builtins = builtins
    self.configurationCount = configurationCount
    self.formatVersion = formatVersion
    self.notes = notes
    self.factors = factors
    self.preferences = preferences
    self.failedAttempts = failedAttempts
    self.definitions = definitions
    self.lintAcknowledgements = lintAcknowledgements
    self.declarationLines = declarationLines
    self.clientCalls = clientCalls
    self.properties = properties
    self.policy = policy
  }
}

/// The built-in flow variables every model has; rules set them through `verifies:` and
/// `failAuthentication:`, and the invariants read them.
public struct Builtins: Sendable {
  public let firstFactorVerified: Int
  public let mfaVerified: Int
  public let authFailed: Int

  public init(firstFactorVerified: Int, mfaVerified: Int, authFailed: Int) {
    self.firstFactorVerified = firstFactorVerified
    self.mfaVerified = mfaVerified
    self.authFailed = authFailed
  }

  public static let names = (
    firstFactor: "flow.firstFactorVerified", mfa: "flow.mfaVerified", authFailed: "flow.authFailed"
  )
}

/// An assumption on configurations: only those where every constraint holds are checked.
public struct Constraint: Sendable {
  public let expr: Expr
  public let text: String
  public let line: Int

  public init(expr: Expr, text: String, line: Int) {
    self.expr = expr
    self.text = text
    self.line = line
  }
}

/// A named set of options a selection step can offer, each with the condition under
/// which the user can really use it (`offersAreUsable` compares offers against this).
public struct OptionSet: Sendable {
  public let name: String
  public let options: [Option]

  public struct Option: Sendable {
    public let name: String
    public let usable: Expr
    public let text: String

    public init(name: String, usable: Expr, text: String) {
      self.name = name
      self.usable = usable
      self.text = text
    }
  }

  public init(name: String, options: [Option]) {
    self.name = name
    self.options = options
  }
}

/// What a selection step offers: for each option of its set, when it is offered.
public struct Offers: Sendable {
  public let optionSet: Int
  public let conditions: [(option: Int, when: Expr)]

  public init(optionSet: Int, conditions: [(option: Int, when: Expr)]) {
    self.optionSet = optionSet
    self.conditions = conditions
  }
}

/// A class of response a user or the server can produce (`correctCode`, `networkFault`, …).
public struct ResponseClass: Sendable {
  /// One error a response class can carry (`errors:`): Cognito's exception and what
  /// platforms report instead of its name.
  public struct CarriedError: Sendable, Equatable {
    public let exception: String
    public let platforms: [PlatformOutcome]

    public init(exception: String, platforms: [PlatformOutcome]) {
      self.exception = exception
      self.platforms = platforms
    }
  }

  public let name: String
  public let summary: String
  /// The errors this class can carry, one per call (`setupError=NotAuthorizedException` in
  /// `simulate`); empty for a class that carries none. The engines treat the class as one
  /// response: every carried error takes the same rules.
  public let errors: [CarriedError]

  public init(name: String, summary: String, errors: [CarriedError] = []) {
    self.name = name
    self.summary = summary
    self.errors = errors
  }

  /// The error named `exception` this class carries.
  public func carried(_ exception: String) -> CarriedError? { errors.first { $0.exception == exception } }
}

/// How a step ends the flow, if it does.
public enum StepKind: String, Sendable {
  /// The `signIn` call: the entry of every flow.
  case entry
  /// A step that waits for `confirmSignIn`.
  case challenge
  /// `done`: the user is signed in.
  case signedIn
  /// The flow is over and a new `signIn` is needed (`resetPassword`, `confirmSignUp`).
  case restart
}

/// How a platform reports a step: by a name, as a thrown error, or not at all.
public struct PlatformName: Sendable, Equatable {
  public enum Form: Sendable, Equatable {
    case name(String)
    case error(String)
    case absent(String)
  }
  public let platform: String
  public let form: Form
}

/// A remark tied to a source: where seeds or clients disagree, and the choice made.
///
/// A note that records a disagreement of documentation pages names the page (`page:`, a
/// seed file name or its number prefix), the page's lines (`line:` or `lines:`) and the kind
/// of disagreement (`kind:`), so `signin-spec docs` can match its findings against it.
public struct SourceNote: Sendable {
  public let source: String
  public let platform: String?
  public let text: String
  /// The documentation page the note is about, as written (e.g. `002` or `002_e5f5ae0642442d10.txt`).
  public let page: String?
  /// The lines of `page` the note is about.
  public let pageLines: ClosedRange<Int>?
  /// The kind of disagreement (a finding kind of `signin-spec docs`).
  public let kind: String?
  /// The note's own line in the model file.
  public let line: Int

  public init(
    source: String, platform: String?, text: String, page: String? = nil, pageLines: ClosedRange<Int>? = nil,
    kind: String? = nil, line: Int = 0
  ) {
    self.source = source
    self.platform = platform
    self.text = text
    self.page = page
    self.pageLines = pageLines
    self.kind = kind
    self.line = line
  }
}

/// The versions of the model file format this build reads (`format:` at the top of a model).
///
/// 1: the format without a `format:` key. 2: adds `format:`, `default:` on configuration
/// variables, top-level `notes:`, `page:`/`line:`/`lines:`/`kind:` on notes, and the factor
/// facts: `factor:`/`action:`/`delivery:`/`carries:`/`choices:` on steps, top-level `factors:`,
/// `preferences:` and `failedAttempts:`. 3: adds `policy:` (the security policy, apart from the
/// rules), `indistinguishable:` properties (two runs, compared call by call) and the lint rules
/// `notChecked` and `policySharesDefinition`.
public enum ModelFormat {
  public static let oldest = 1
  public static let current = 3
}

/// A client-visible step (or the `signIn` entry), with its responses and their rules.
public final class Step: Sendable {
  public let id: String
  public let summary: String
  public let kind: StepKind
  public let isSignedIn: Bool
  public let names: [PlatformName]
  public let offers: Offers?
  public let responses: [StepResponse]
  public let notes: [SourceNote]
  public let line: Int
  /// The factor this step challenges, sets up or selects (`factor:`, `action:`, …).
  public let facts: StepFacts

  public var isTerminal: Bool { kind == .signedIn || kind == .restart }

  public init(
    id: String, summary: String, kind: StepKind, isSignedIn: Bool, names: [PlatformName], offers: Offers?,
    responses: [StepResponse], notes: [SourceNote], line: Int,
    facts: StepFacts = StepFacts()
  ) {
    self.id = id
    self.summary = summary
    self.kind = kind
    self.isSignedIn = isSignedIn
    self.names = names
    self.offers = offers
    self.responses = responses
    self.notes = notes
    self.line = line
    self.facts = facts
  }
}

/// The rules for one response class at one step; exactly one should apply in any state.
public struct StepResponse: Sendable {
  public let response: Int
  public let rules: [Rule]
  /// True when the rules come from `defaults:` rather than the step itself.
  public let inherited: Bool

  public init(response: Int, rules: [Rule], inherited: Bool) {
    self.response = response
    self.rules = rules
    self.inherited = inherited
  }
}

/// A named group of rules with no response of its own: a decision the server makes
/// (e.g. which MFA challenge follows the first factor). `goto:` may name a route.
public final class Route: Sendable {
  public let name: String
  public let rules: [Rule]
  public let line: Int

  public init(name: String, rules: [Rule], line: Int) {
    self.name = name
    self.rules = rules
    self.line = line
  }
}

/// A guarded transition: when `guard` holds, apply `effects` and take `outcome`.
public final class Rule: Sendable {
  public let guardExpr: Expr
  /// `guardExpr` compiled, for the explorations' hot paths.
  public let guardCode: CompiledExpr
  public let guardText: String
  /// Assignments, evaluated in the state before the rule (simultaneously).
  public let effects: [(variable: Int, value: Expr)]
  /// `effects` compiled.
  public let effectCodes: [(variable: Int, value: CompiledExpr)]
  public let outcome: Outcome
  /// The define-auth-challenge trigger failed authentication in this transition.
  public let failsAuthentication: Bool
  public let line: Int
  /// What platforms report instead of `outcome` (`platforms:`); the flow goes where `outcome` says.
  public let platformOutcomes: [PlatformOutcome]

  /// For a restart: the exception the client reports (`exception:`, or by default the
  /// reason's leading `Name:`, see `Rule.exception(inReason:)`); nil when neither names one.
  public let exception: String?

  public init(
    guardExpr: Expr, guardText: String, effects: [(variable: Int, value: Expr)], outcome: Outcome,
    failsAuthentication: Bool, line: Int, exception: String? = nil,
    platformOutcomes: [PlatformOutcome] = []
  ) {
    self.guardExpr = guardExpr
    guardCode = CompiledExpr(guardExpr)
    self.guardText = guardText
    self.effects = effects
    effectCodes = effects.map { ($0.variable, CompiledExpr($0.value)) }
    self.outcome = outcome
    self.failsAuthentication = failsAuthentication
    self.line = line
    self.platformOutcomes = platformOutcomes
    if case .restart(let reason) = outcome {
      self.exception = exception ?? Rule.exception(inReason: reason)
    } else {
      self.exception = exception
    }
  }

  /// The default of `exception:` for a restart: the reason's text before its first `:` when
  /// that is one name ending in `Exception` or `Error` (`NotAuthorizedException: lockout`,
  /// `SignInError.invalidServiceResponse: …`), so models written before the field keep
  /// their meaning.
  public static func exception(inReason reason: String) -> String? {
    guard let colon = reason.firstIndex(of: ":") else { return nil }
    let head = reason[..<colon]
    let isName = !head.isEmpty && head.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
    guard isName, let last = head.split(separator: ".").last, last.first?.isLetter == true else { return nil }
    return head.hasSuffix("Exception") || head.hasSuffix("Error") || head.contains(".") ? String(head) : nil
  }
}

/// What a transition leads to.
public enum Outcome: Sendable, Equatable {
  /// The next client-visible step.
  case step(Int)
  /// A server-side decision; its rules pick the outcome.
  case route(Int)
  /// A retryable error: the flow stays on the same step.
  case error(String)
  /// The flow is over; a new `signIn` is required.
  case restart(String)
}
