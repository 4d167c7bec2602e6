import CognitoWire

/// A backend that holds every request until the test answers it: each request is announced
/// on `arrivals` (its number and operation) and waits for `answer(_:with:)`. Tests interleave
/// calls on the client deterministically with it, without sleeping.
actor SuspendingBackend: CognitoBackend {
  typealias Answer = Result<JSONObject, CognitoCallError>

  nonisolated let arrivals: AsyncStream<(id: Int, operation: String)>
  private let arrival: AsyncStream<(id: Int, operation: String)>.Continuation
  private var waiting: [Int: CheckedContinuation<Answer, Never>] = [:]
  private var count = 0

  init() {
    (arrivals, arrival) = AsyncStream.makeStream()
  }

  func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject {
    count += 1
    let id = count
    let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
      waiting[id] = continuation
      arrival.yield((id, operation))
    }
    return try answer.get()
  }

  /// Resumes request `id` with `answer`; false when no such request is waiting.
  @discardableResult
  func answer(_ id: Int, with answer: Answer) -> Bool {
    guard let continuation = waiting.removeValue(forKey: id) else { return false }
    continuation.resume(returning: answer)
    return true
  }
}
