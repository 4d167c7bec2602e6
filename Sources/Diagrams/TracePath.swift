import Foundation
import ModelChecking
import SignInModel

/// The path of a saved counterexample through a model, for `graph --trace`. Reads
/// `signin-spec-counterexample` files (fuzz cases: the configuration and calls are replayed
/// on the model) and counterexample objects as `verify --format json` prints them (`steps`
/// with `stepBefore`, `response` and `outcome`, at the top level or under `counterexample`).
public enum TracePath {
  /// Why a trace cannot be read.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  public static func read(file: String, model: SignInModel) throws(Failure) -> [FlowDiagram.PathStep] {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
    } catch {
      // Foundation's debug description says where (line, column) and what; the localized one does not.
      let debug = (error as NSError).userInfo[NSDebugDescriptionErrorKey].map { String(describing: $0) }
      let detail = String((debug ?? error.localizedDescription).prefix(200))
      throw Failure(description: "\(file): cannot read the trace as JSON: \(detail)")
    }
    guard let root = object as? [String: Any] else { throw Failure(description: "\(file): expected a JSON object") }
    if root["format"] as? String == "signin-spec-counterexample" {
      if let reference = root["model"] as? [String: Any], let name = reference["name"] as? String, name != model.name {
        throw Failure(description: "\(file): the trace is for model '\(name)', not '\(model.name)'")
      }
      return try replay(root, file: file, model: model)
    }
    let container = root["counterexample"] as? [String: Any] ?? root
    guard let steps = container["steps"] as? [[String: Any]] else {
      throw Failure(description: "\(file): neither a signin-spec-counterexample file nor an object with 'steps'")
    }
    // A route-level finding's last call has no single outcome (`undetermined`): the path stops before it.
    let decided = steps.prefix { ($0["outcome"] as? [String: Any])?["undetermined"] == nil }
    return try decided.enumerated().map { (i, step) throws(Failure) -> FlowDiagram.PathStep in
      guard let before = step["stepBefore"] as? String, let s = model.stepIndex(named: before),
        let responseName = step["response"] as? String,
        let r = model.responses.firstIndex(where: { $0.name == responseName }),
        let outcome = step["outcome"] as? [String: Any]
      else { throw Failure(description: "\(file): step \(i + 1) does not name a step and response of \(model.name)") }
      let to: FlowDiagram.Destination
      if let target = (outcome["step"] as? [String: Any])?["_0"] as? String, let t = model.stepIndex(named: target) {
        to = t == s ? .stays : .step(t)
      } else if outcome["error"] != nil {
        to = .stays
      } else if outcome["restart"] != nil {
        to = .restart
      } else {
        throw Failure(description: "\(file): step \(i + 1) has an outcome this model does not know")
      }
      return FlowDiagram.PathStep(step: s, response: r, to: to)
    }
  }

  /// The path of a counterexample the checker found (one run; for a pair of runs, the left one),
  /// up to a call whose rules decide no single outcome.
  public static func path(of counterexample: Counterexample, model: SignInModel) -> [FlowDiagram.PathStep] {
    var path: [FlowDiagram.PathStep] = []
    for step in counterexample.steps {
      guard let s = model.stepIndex(named: step.stepBefore),
        let r = model.responses.firstIndex(where: { $0.name == step.response })
      else { break }
      switch step.outcome {
      case .step(let id):
        guard let t = model.stepIndex(named: id) else { return path }
        path.append(.init(step: s, response: r, to: t == s ? .stays : .step(t)))
      case .error: path.append(.init(step: s, response: r, to: .stays))
      case .restart: path.append(.init(step: s, response: r, to: .restart))
      case .undetermined: return path
      }
    }
    return path
  }

  /// Replays a fuzz case's configuration and calls on the model, up to a call the server
  /// answers with an unknown challenge (the flow then leaves what the model draws).
  static func replay(_ root: [String: Any], file: String, model: SignInModel) throws(Failure) -> [FlowDiagram.PathStep]
  {
    guard let fuzzCase = root["fuzzCase"] as? [String: Any],
      let configuration = fuzzCase["configuration"] as? [String: String],
      let calls = fuzzCase["calls"] as? [[String: Any]]
    else { throw Failure(description: "\(file): no fuzzCase with configuration and calls") }
    var simulator: ModelSimulator
    do { simulator = try ModelSimulator(model: model, configuration: configuration) } catch {
      throw Failure(description: "\(file): \(error)")
    }
    var path: [FlowDiagram.PathStep] = []
    for call in calls {
      guard let response = call["response"] as? String, let step = simulator.step,
        let r = model.responses.firstIndex(where: { $0.name == response })
      else { break }
      // The server answered with a challenge no model step stands for: the path leaves the model.
      if call["unknownChallenge"] as? Bool == true { break }
      let outcome: TraceOutcome
      do { outcome = try simulator.respond(response) } catch {
        // A model-check finding ends in a call whose rules decide no single outcome: the path stops before it.
        if case .notDeterministic = error { break }
        throw Failure(description: "\(file): \(error)")
      }
      switch outcome {
      case .step(let id):
        path.append(
          .init(
            step: step, response: r,
            to: model.stepIndex(named: id) == step
              ? .stays : .step(model.stepIndex(named: id) ?? step)))
      case .error: path.append(.init(step: step, response: r, to: .stays))
      case .restart: path.append(.init(step: step, response: r, to: .restart))
      case .undetermined: return path
      }
      if simulator.step.map({ model.steps[$0].isTerminal }) == true { break }
    }
    return path
  }
}
