import CognitoWire
import Foundation
import Recordings
import SignInModel

/// `signin-spec diagnose`'s output: text for a terminal, JSON (`signin-spec-diagnosis`, version 1)
/// and SARIF 2.1.0 (one result per inconsistent or inconclusive flow, at its entry).
package struct DiagnosisReport: Sendable {
  package let model: SignInModel
  package let diagnoses: [RecordingDiagnosis]

  package init(model: SignInModel, diagnoses: [RecordingDiagnosis]) {
    self.model = model
    self.diagnoses = diagnoses
  }

  /// A count as an exact integer while a Double holds one, else as a power of two.
  static func count(_ value: Double) -> String {
    if value < 9_007_199_254_740_992 { return String(format: "%.0f", value) }
    return String(format: "about 2^%.1f", log2(value))
  }

  static func grouped(_ value: Double) -> String {
    guard value < 9_007_199_254_740_992 else { return count(value) }
    let digits = Array(String(format: "%.0f", value))
    var out = ""
    for (i, d) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(d)
    }
    return out
  }

  static func ranges(_ numbers: [Int]) -> String {
    guard let first = numbers.first, let last = numbers.last else { return "none" }
    if numbers == Array(first...last) { return first == last ? "request \(first)" : "requests \(first)-\(last)" }
    return "requests " + numbers.map(String.init).joined(separator: ", ")
  }

  func place(_ recording: Recording, _ entry: Int) -> String {
    recording.kind == .har ? "entry \(entry)" : "line \(entry)"
  }

  // MARK: - Text

  package func text() -> String {
    var lines: [String] = []
    for diagnosis in diagnoses {
      let recording = diagnosis.recording
      let kind = recording.kind == .har ? "HAR" : recording.kind == .requestLog ? "serve request log" : "JSON lines"
      lines.append(
        "\(recording.path) (\(kind), \(recording.exchanges.count) Cognito request\(recording.exchanges.count == 1 ? "" : "s")"
          + (recording.skipped > 0 ? ", \(recording.skipped) other entries skipped" : "") + ") on \(model.name):")
      let clients = Set(diagnosis.flows.compactMap(\.clientId))
      for flow in diagnosis.flows {
        let client = clients.count > 1 ? flow.clientId.map { " (client \($0))" } ?? "" : ""
        let which = flow.flowsOfUser > 1 ? ", flow \(flow.flow) of \(flow.flowsOfUser)" : ""
        let head = "  user \"\(flow.username)\"\(client)\(which), \(Self.ranges(flow.requests))"
        let verdict = flow.verdict
        switch verdict.kind {
        case .consistent:
          lines.append("\(head): consistent")
          lines.append("    explained by \(Self.grouped(verdict.count)) configuration\(verdict.count == 1 ? "" : "s"):")
          for variable in model.configurationIndices.map({ model.variables[$0].name }) {
            guard let values = verdict.values[variable] else { continue }
            lines.append(
              "      \(variable) " + (values.count == 1 ? "= \(values[0])" : "in [\(values.joined(separator: ", "))]"))
          }
          lines.append("      (every other variable: any value)")
        case .inconsistent:
          if let call = verdict.failingCall, let at = verdict.failingRequest {
            lines.append(
              "\(head): INCONSISTENT at request \(at.request) (\(place(recording, at.entry))): "
                + "\(Self.callName(call)) showed \(call.observed)")
            lines.append("    the model allows there, for the configurations still possible:")
            for item in verdict.allowed.prefix(12) { lines.append("      \(item)") }
            if verdict.allowed.count > 12 { lines.append("      … \(verdict.allowed.count - 12) more") }
            if !verdict.ruleLines.isEmpty {
              lines.append(
                "    rules: " + verdict.ruleLines.prefix(8).map { "\(model.file):\($0)" }.joined(separator: ", "))
            }
          } else {
            lines.append("\(head): INCONSISTENT: \(verdict.allowed.joined(separator: "; "))")
          }
        case .inconclusive:
          lines.append("\(head): inconclusive: \(verdict.reason ?? "")")
        }
        if !flow.verdict.midFlow.isEmpty {
          lines.append(
            "    starts mid-flow: checked from \(flow.verdict.midFlow.joined(separator: " or ")) (whether a "
              + "configuration reaches it is not checked)")
        }
        if !flow.ignored.isEmpty {
          lines.append("    not checked (no call of the flow): \(Self.ranges(flow.ignored))")
        }
      }
      if !diagnosis.redacted.isEmpty {
        lines.append("  redacted (never printed): " + diagnosis.redacted.joined(separator: ", "))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func callName(_ call: ObservedCall) -> String {
    let first = call.exchanges[0]
    if let challenge = first.body["ChallengeName"]?.string { return "\(first.operation) \(challenge)" }
    if let flow = first.body["AuthFlow"]?.string { return "\(first.operation) \(flow)" }
    return first.operation
  }

  // MARK: - JSON

  package func json() -> JSONValue {
    .object([
      "format": .string("signin-spec-diagnosis"), "version": .number(1), "model": .string(model.name),
      "files": .array(
        diagnoses.map { diagnosis in
          .object([
            "file": .string(diagnosis.recording.path), "kind": .string(diagnosis.recording.kind.rawValue),
            "skipped": .number(Double(diagnosis.recording.skipped)),
            "flows": .array(diagnosis.flows.map(flowJSON)),
          ])
        }),
      "redacted": .array(Set(diagnoses.flatMap(\.redacted)).sorted().map { .string($0) }),
    ])
  }

  func flowJSON(_ flow: RecordingDiagnosis.Flow) -> JSONValue {
    var object: JSONObject = [
      "username": .string(flow.username), "clientId": flow.clientId.map { .string($0) } ?? .null,
      "flow": .number(Double(flow.flow)), "requests": .array(flow.requests.map { .number(Double($0)) }),
      "ignored": .array(flow.ignored.map { .number(Double($0)) }), "verdict": .string(flow.verdict.kind.rawValue),
      "startsMidFlowAt": .array(flow.verdict.midFlow.map { .string($0) }),
    ]
    switch flow.verdict.kind {
    case .consistent:
      object["configurations"] = .object([
        "count": .string(Self.count(flow.verdict.count)),
        "values": .object(flow.verdict.values.mapValues { .array($0.map { .string($0) }) }),
      ])
    case .inconsistent:
      if let call = flow.verdict.failingCall, let at = flow.verdict.failingRequest {
        object["inconsistentAt"] = .object([
          "request": .number(Double(at.request)), "entry": .number(Double(at.entry)),
          "call": .string(Self.callName(call)), "observed": .string(call.observed.description),
          "allowed": .array(flow.verdict.allowed.map { .string($0) }),
          "rules": .array(flow.verdict.ruleLines.map { .string("\(model.file):\($0)") }),
        ])
      } else {
        object["reason"] = .string(flow.verdict.allowed.joined(separator: "; "))
      }
    case .inconclusive:
      object["reason"] = .string(flow.verdict.reason ?? "")
    }
    return .object(object)
  }

  // MARK: - SARIF

  package func sarif() -> JSONValue {
    var results: [JSONValue] = []
    for diagnosis in diagnoses {
      for flow in diagnosis.flows where flow.verdict.kind != .consistent {
        let call = flow.verdict.failingCall
        let at = flow.verdict.failingRequest
        let message =
          flow.verdict.kind == .inconclusive
          ? "user \(flow.username): inconclusive: \(flow.verdict.reason ?? "")"
          : "user \(flow.username): inconsistent at request \(at?.request ?? 0): "
            + (call.map { "\(Self.callName($0)) showed \($0.observed)" } ?? "")
            + "; the model allows: \(flow.verdict.allowed.prefix(6).joined(separator: "; "))"
        var location: JSONObject = ["artifactLocation": .object(["uri": .string(diagnosis.recording.path)])]
        if let at, diagnosis.recording.kind != .har {
          location["region"] = .object(["startLine": .number(Double(at.entry))])
        }
        var result: JSONObject = [
          "ruleId": .string(flow.verdict.kind == .inconclusive ? "diagnosis-inconclusive" : "diagnosis-inconsistent"),
          "level": .string(flow.verdict.kind == .inconclusive ? "note" : "error"),
          "message": .object(["text": .string(message)]),
          "locations": .array([
            .object(
              [
                "physicalLocation": .object(location),
                "logicalLocations": .array([
                  .object(["name": .string(at.map { place(diagnosis.recording, $0.entry) } ?? "recording")])
                ]),
              ])
          ]),
        ]
        if let at { result["properties"] = .object(["request": .number(Double(at.request))]) }
        results.append(.object(result))
      }
    }
    return .object([
      "$schema": .string("https://json.schemastore.org/sarif-2.1.0.json"), "version": .string("2.1.0"),
      "runs": .array([
        .object([
          "tool": .object([
            "driver": .object([
              "name": .string("signin-spec diagnose"),
              "rules": .array([
                .object([
                  "id": .string("diagnosis-inconsistent"),
                  "shortDescription": .object([
                    "text": .string("No configuration of the model explains the recording from this request on")
                  ]),
                ]),
                .object([
                  "id": .string("diagnosis-inconclusive"),
                  "shortDescription": .object(["text": .string("The recording could not be decided within the limits")]
                  ),
                ]),
              ]),
            ])
          ]),
          "results": .array(results),
        ])
      ]),
    ])
  }
}
