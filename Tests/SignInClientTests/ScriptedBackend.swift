import CognitoWire
import Foundation
import SignInClient

/// A backend that answers from a script, in order, and records every request: the
/// fixtures' "mocked responses".
actor ScriptedBackend: CognitoBackend {
  struct Answer {
    let operation: String
    let result: Result<JSONObject, CognitoCallError>
  }

  private var script: [Answer]
  private(set) var requests: [(operation: String, body: JSONObject)] = []

  init(_ script: [Answer]) { self.script = script }

  var unused: [Answer] { script }

  func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject {
    requests.append((operation, request))
    guard let index = script.firstIndex(where: { $0.operation == operation }) else {
      throw .malformed("the script has no answer for \(operation)")
    }
    let answer = script.remove(at: index)
    switch answer.result {
    case .success(let body): return body
    case .failure(let error): throw error
    }
  }
}
