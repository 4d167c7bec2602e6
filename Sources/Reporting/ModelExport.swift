import Foundation
import ModelChecking
import SignInModel

/// The loaded, resolved model as JSON (`signin-spec export`), format
/// `signin-spec-model-export` version 1, described by `schemas/model-export.v1.schema.json`.
/// Expressions are strings in the model's guard language with definitions and `offered(X)`
/// expanded; the transition relation is `TransitionSystem`'s flattened branches.
public struct ModelExport: Codable, Sendable {
  public static let format = "signin-spec-model-export"
  public static let version = 1

  /// A finite domain: `bool`, an integer range, or enumeration values.
  public struct DomainEntry: Codable, Sendable {
    public let kind: String
    public let values: [String]?
    public let min: Int?
    public let max: Int?

    init(_ domain: Domain) {
      switch domain {
      case .bool: (kind, values, min, max) = ("bool", nil, nil, nil)
      case .range(let r): (kind, values, min, max) = ("range", nil, r.lowerBound, r.upperBound)
      case .enumeration(let names): (kind, values, min, max) = ("enumeration", names, nil, nil)
      }
    }
  }

  public struct VariableEntry: Codable, Sendable {
    public let name: String
    public let domain: DomainEntry
    /// The value every signIn starts from, in guard syntax (flow variables only).
    public let initial: String?
    public let builtin: Bool?
    public let doc: String
    public let line: Int
  }

  public struct ConstraintEntry: Codable, Sendable {
    public let expr: String
    public let source: String
    public let line: Int
  }

  public struct OptionSetEntry: Codable, Sendable {
    public struct OptionEntry: Codable, Sendable {
      public let name: String
      public let usable: String
    }
    public let name: String
    public let options: [OptionEntry]
  }

  public struct ResponseEntry: Codable, Sendable {
    /// One error the class carries (`errors:`), and what platforms report instead of its name.
    public struct CarriedErrorEntry: Codable, Sendable {
      public let exception: String
      /// Platform → the error it reports.
      public let platforms: [String: String]
    }

    public let name: String
    public let summary: String
    /// The errors the class carries; absent for a class that carries none.
    public let errors: [CarriedErrorEntry]?
  }

  public struct StepEntry: Codable, Sendable {
    public struct NameEntry: Codable, Sendable {
      public let platform: String
      /// `name` (a step of that platform), `error` (thrown instead) or `absent`.
      public let form: String
      public let value: String
    }
    public struct OfferEntry: Codable, Sendable {
      public let option: String
      public let when: String
    }
    public struct Offers: Codable, Sendable {
      public let optionSet: String
      public let options: [OfferEntry]
    }
    public struct NoteEntry: Codable, Sendable {
      public let source: String
      public let platform: String?
      public let text: String
    }
    public let id: String
    /// `entry`, `challenge`, `signedIn` or `restart`.
    public let kind: String
    public let isSignedIn: Bool
    public let summary: String
    public let line: Int
    public let names: [NameEntry]
    public let offers: Offers?
    public let responses: [String]
    public let notes: [NoteEntry]
  }

  public struct TransitionEntry: Codable, Sendable {
    public struct OutcomeEntry: Codable, Sendable {
      /// `step`, `error` (retryable, stays on the step) or `restart` (the flow is over).
      public let kind: String
      public let step: String?
      public let error: String?
      public let reason: String?
    }
    public let from: String
    public let response: String
    public let guardExpr: String
    /// New values of the flow variables the transition changes, over the state before it.
    public let effects: [String: String]
    public let outcome: OutcomeEntry
    public let failsAuthentication: Bool
    public let ruleLines: [Int]

    enum CodingKeys: String, CodingKey {
      case from, response, effects, outcome, failsAuthentication, ruleLines
      case guardExpr = "guard"
    }
  }

  public struct InvariantEntry: Codable, Sendable {
    public let name: String
    public let meaning: String
  }

  public struct ModelInfo: Codable, Sendable {
    public let name: String
    public let generation: String
    public let summary: String
    public let file: String
    public let contentHash: String
    public let platforms: [String]
    public let sources: [String]
  }

  public let format: String
  public let version: Int
  public let tool: String
  /// Where the expression syntax is documented.
  public let expressionSyntax: String
  public let model: ModelInfo
  public let configuration: [VariableEntry]
  public let flow: [VariableEntry]
  public let constraints: [ConstraintEntry]
  /// The definitions the invariants read (`canSignIn`, `mfaRequired`: the policy's requirement
  /// where the model states a `policy:`), expanded.
  public let definitions: [String: String]
  public let optionSets: [OptionSetEntry]
  public let responses: [ResponseEntry]
  public let steps: [StepEntry]
  public let transitions: [TransitionEntry]
  public let invariants: [InvariantEntry]

  public init(model: SignInModel, tool: String) {
    let printer = ExprPrinter(model: model)
    format = Self.format
    version = Self.version
    self.tool = tool
    expressionSyntax = "signin-spec guard language (docs/guide/models.md, \"The guard language\"), definitions expanded"
    self.model = ModelInfo(
      name: model.name, generation: model.generation, summary: model.summary, file: model.file,
      contentHash: model.contentHash, platforms: model.platforms, sources: model.sources)
    let builtins = [model.builtins.firstFactorVerified, model.builtins.mfaVerified, model.builtins.authFailed]
    func variable(_ i: Int) -> VariableEntry {
      let v = model.variables[i]
      let isFlow = v.scope == .flow
      return VariableEntry(
        name: v.name, domain: DomainEntry(v.domain), initial: isFlow ? v.domain.render(v.initial) : nil,
        builtin: isFlow ? builtins.contains(i) : nil, doc: v.doc, line: v.line)
    }
    configuration = model.configurationIndices.map(variable)
    flow = model.flowIndices.map(variable)
    constraints = model.constraints.map {
      ConstraintEntry(expr: printer.render($0.expr.simplified()), source: $0.text, line: $0.line)
    }
    var definitions: [String: String] = [:]
    if let e = model.canSignIn { definitions["canSignIn"] = printer.render(e.simplified()) }
    // What noFactorSkipped reads: the policy's requirement (required, no exemption) or the definition.
    if let e = model.mfaRequirement { definitions["mfaRequired"] = printer.render(e.simplified()) }
    self.definitions = definitions
    optionSets = model.optionSets.map { set in
      OptionSetEntry(
        name: set.name,
        options: set.options.map {
          .init(name: $0.name, usable: printer.render($0.usable.simplified()))
        })
    }
    responses = model.responses.map { r in
      let errors = r.errors.map { e in
        ResponseEntry.CarriedErrorEntry(
          exception: e.exception,
          platforms: Dictionary(
            e.platforms.compactMap { p -> (String, String)? in
              if case .error(let name) = p.form { return (p.platform, name) }
              return nil
            }, uniquingKeysWith: { a, _ in a }))
      }
      return ResponseEntry(name: r.name, summary: r.summary, errors: errors.isEmpty ? nil : errors)
    }
    steps = model.steps.map { step in
      let names = step.names.map { name -> StepEntry.NameEntry in
        switch name.form {
        case .name(let n): return .init(platform: name.platform, form: "name", value: n)
        case .error(let e): return .init(platform: name.platform, form: "error", value: e)
        case .absent(let why): return .init(platform: name.platform, form: "absent", value: why)
        }
      }
      let offers = step.offers.map { offers in
        let set = model.optionSets[offers.optionSet]
        return StepEntry.Offers(
          optionSet: set.name,
          options: offers.conditions.map {
            .init(option: set.options[$0.option].name, when: printer.render($0.when.simplified()))
          })
      }
      return StepEntry(
        id: step.id, kind: step.kind.rawValue, isSignedIn: step.isSignedIn, summary: step.summary, line: step.line,
        names: names, offers: offers, responses: step.responses.map { model.responses[$0.response].name },
        notes: step.notes.map { .init(source: $0.source, platform: $0.platform, text: $0.text) })
    }
    transitions = TransitionSystem(model: model).branches.map { branch in
      let outcome: TransitionEntry.OutcomeEntry
      switch branch.outcome {
      case .step(let s): outcome = .init(kind: "step", step: model.steps[s].id, error: nil, reason: nil)
      case .error(let e): outcome = .init(kind: "error", step: nil, error: e, reason: nil)
      case .restart(let r): outcome = .init(kind: "restart", step: nil, error: nil, reason: r)
      case .route: outcome = .init(kind: "restart", step: nil, error: nil, reason: "internal: unresolved route")
      }
      var effects: [String: String] = [:]
      for (variable, value) in branch.effects {
        effects[model.variables[variable].name] = printer.render(value, asValueOf: model.variables[variable].domain)
      }
      return TransitionEntry(
        from: model.steps[branch.step].id, response: model.responses[branch.response].name,
        guardExpr: printer.render(branch.guardExpr.simplified()), effects: effects, outcome: outcome,
        failsAuthentication: branch.failsAuthentication, ruleLines: branch.ruleLines)
    }
    invariants = Invariant.allCases.map { InvariantEntry(name: $0.rawValue, meaning: $0.meaning) }
  }

  public func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}
