import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why a Cognito call failed.
public enum CognitoCallError: Error, Sendable, Equatable {
  /// Cognito answered with an error (`__type`, `message`).
  case service(type: String, message: String)
  /// No answer: connection refused, reset, or timed out.
  case network(String)
  /// An answer that is not a JSON object, or an HTTP error without an error body.
  case malformed(String)
}

/// Something that answers Cognito's AWS JSON 1.1 operations (`InitiateAuth`,
/// `RespondToAuthChallenge`, …): a real endpoint, moto, the simulated pool, or a script.
public protocol CognitoBackend: Sendable {
  func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject
}

/// Set when the request timer cancelled the request. `@unchecked Sendable` is safe: the
/// timer's queue writes and the awaiting task reads `fired` only under `lock`.
private final class TimeoutFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var fired: Bool {
    get { lock.withLock { value } }
    set { lock.withLock { value = newValue } }
  }
}

/// Cognito over HTTP: POST with `X-Amz-Target: AWSCognitoIdentityProviderService.<Op>`.
///
/// By default each request asks for its own connection (`Connection: close`). On Linux,
/// URLSession is libcurl, which resends a request whose reused keep-alive connection closed
/// before any answer (what a server's idle timeout, or a fault of `signin-spec serve`, looks
/// like), and swift-corelibs-foundation cannot rewind the body for that resend: the request
/// then waits for its body until `timeout`. A fresh connection has nothing to resend, so a lost
/// answer surfaces at once as the network error it is.
public struct HTTPCognitoBackend: CognitoBackend {
  public let endpoint: URL
  public let timeout: TimeInterval
  /// Whether requests may share keep-alive connections (see the type's notes).
  public let reusesConnections: Bool

  public init(endpoint: URL, timeout: TimeInterval = 10, reusesConnections: Bool = false) {
    self.endpoint = endpoint
    self.timeout = timeout
    self.reusesConnections = reusesConnections
  }

  public func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject {
    var urlRequest = URLRequest(url: endpoint, timeoutInterval: timeout)
    urlRequest.httpMethod = "POST"
    urlRequest.setValue("application/x-amz-json-1.1", forHTTPHeaderField: "Content-Type")
    urlRequest.setValue("AWSCognitoIdentityProviderService.\(operation)", forHTTPHeaderField: "X-Amz-Target")
    if !reusesConnections { urlRequest.setValue("close", forHTTPHeaderField: "Connection") }
    do {
      urlRequest.httpBody = try JSONEncoder().encode(JSONValue.object(request))
    } catch {
      throw .malformed("could not encode the request")
    }
    let result: (Data, Int)
    let timer = TimeoutFlag()
    do {
      result = try await withCheckedThrowingContinuation { continuation in
        let task = URLSession.shared.dataTask(with: urlRequest) { data, response, error in
          if let error {
            continuation.resume(throwing: error)
          } else {
            continuation.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
          }
        }
        task.resume()
        // URLSession's timeout is an idle timeout; this bounds the whole request.
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
          if task.state == .running {
            timer.fired = true
            task.cancel()
          }
        }
      }
    } catch {
      throw .network(timer.fired ? "no answer within \(Int(timeout)) s" : (error as NSError).localizedDescription)
    }
    let (data, status) = result
    let body = try? JSONDecoder().decode(JSONValue.self, from: data)
    if status != 200 {
      if let object = body?.object, let type = object["__type"]?.string {
        throw .service(
          type: String(type.split(separator: "#").last ?? Substring(type)), message: object["message"]?.string ?? "")
      }
      throw .malformed("HTTP status \(status) without a Cognito error body")
    }
    guard let object = body?.object else { throw .malformed("the response body is not a JSON object") }
    return object
  }
}
