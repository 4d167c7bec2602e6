import Yams

/// Walks a composed YAML tree and builds a `SignInModel`, collecting diagnostics
/// instead of stopping at the first one.
///
/// The work is done in named passes, in the order a model's parts may refer to each other:
/// header (name, format), variables, definitions, constraints, option sets, responses, step
/// and route names, defaults, the entry, steps, routes. Each pass lives in its own file
/// (`ModelBuilder+*.swift`), reports what is wrong where it is wrong, and leaves what later
/// passes need in the builder's state.
final class ModelBuilder {
  /// One `key: value` pair of a YAML mapping, with the key's node for its position.
  typealias Field = (key: String, keyNode: Node, value: Node)

  let file: String
  let hash: String
  var diagnostics: [ModelDiagnostic] = []
  /// The file's text, to place errors inside multi-line scalars.
  var source: SourceLocator?

  static let topLevelKeys = [
    "format", "model", "generation", "summary", "sources", "platforms", "configuration", "flow", "constraints",
    "definitions", "options", "responses", "defaults", "signIn", "steps", "routes", "notes",
    "factors", "preferences", "failedAttempts", "lint", "clientCalls", "properties", "policy",
  ]
  static let ruleKeys = [
    "when", "goto", "error", "restart", "set", "verifies", "failAuthentication", "note",
    "exception", "platforms",
  ]
  static let stepKeys =
    [
      "summary", "names", "ends", "isSignedIn", "offers", "responses", "inherit", "without", "notes",
    ] + factKeys
  static let entryStepID = "signIn"

  // Declarations, filled by the passes in order.
  var header = ModelHeader()
  var variables: [Variable] = []
  var variableIndex: [String: Int] = [:]
  /// Names declared with a broken domain: later uses are not reported again.
  var poisoned: Set<String> = []
  var definitions: [String: TypedExpr] = [:]
  var platforms: [String] = []
  var builtins: Builtins?
  var canSignIn: Expr?
  var mfaRequired: Expr?
  var constraints: [Constraint] = []
  var optionSets: [OptionSet] = []
  var responses: [ResponseClass] = []
  var responseIndex: [String: Int] = [:]
  var stepIDs: [String: Int] = [:]
  var routeIDs: [String: Int] = [:]
  var routeReferences: [Int: [(Int, Int)]] = [:]  // route -> [(route, line)]
  var defaultResponses: [(Int, [Rule])] = []
  var steps: [Step] = []
  var routes: [Route] = []
  var modelNotes: [SourceNote] = []
  // Factor facts (ModelBuilder+Facts.swift).
  var factorAvailability: [FactorAvailability] = []
  var preferences: [Preference] = []
  var failedAttempts: FailedAttempts?

  init(file: String, hash: String) {
    self.file = file
    self.hash = hash
  }

  /// Runs every pass over `root`; nil when any diagnostic was reported.
  func build(_ root: Node) -> SignInModel? {
    let top = pairs(root, "the model file")
    guard !top.isEmpty else {
      report(root, "the model file must be a mapping with keys such as model, configuration, steps")
      return nil
    }
    // A newer format may mean anything below: stop at its one clear error.
    readFormat(top)
    guard header.formatIsKnown else { return nil }
    checkKeys(top, allowed: Self.topLevelKeys, "the model file")
    readHeader(top, root: root)
    declareVariables(top, root: root)
    declareDefinitions(top)
    declareConstraints(top)
    declareOptionSets(top)
    declareResponses(top, root: root)
    let names = declareStepAndRouteNames(top, root: root)
    readDefaults(top)
    buildEntry(top, root: root)
    buildSteps(names.steps, top: top)
    buildRoutes(names.routes)
    modelNotes = notes(value(top, "notes"))
    readFacts(top)
    let lint = readLintSection(top)
    let clientCalls = readClientCalls(top)
    let properties = readProperties(top, builtinNames: ModelProperty.builtinNames)
    let policy = readPolicy(top)

    guard diagnostics.isEmpty, let builtins else { return nil }
    return SignInModel(
      name: header.name, generation: header.generation, summary: header.summary, file: file, contentHash: hash,
      platforms: platforms, sources: header.sources, variables: variables, constraints: constraints,
      canSignIn: canSignIn, mfaRequired: mfaRequired, optionSets: optionSets, responses: responses, steps: steps,
      routes: routes, builtins: builtins, configurationCount: variables.filter { $0.scope == .configuration }.count,
      formatVersion: header.formatVersion, notes: modelNotes, factors: factorAvailability, preferences: preferences,
      failedAttempts: failedAttempts, definitions: lint.definitions, lintAcknowledgements: lint.acknowledgements,
      declarationLines: lint.lines, clientCalls: clientCalls, properties: properties,
      policy: policy)
  }
}

/// What the header pass reads: the model's name, generation, summary, sources and format.
struct ModelHeader {
  var name = ""
  var generation = ""
  var summary = ""
  var sources: [String] = []
  var formatVersion = 1
  var formatIsKnown = true
}
