import ClientAdapters
import Foundation
import Testing

/// The protocol's messages on the wire: what each request looks like, and what an observation
/// must and may hold.
@Suite("Adapter protocol messages")
struct AdapterMessageTests {
  func json(_ value: some Encodable) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: try JSONEncoder().encode(value)) as? [String: Any])
  }

  @Test("a request carries its id and type, and a signIn without a password says null")
  func requests() throws {
    let signIn = AdapterRequest(
      id: 3,
      .signIn(username: "user", password: nil, options: .init(authFlow: .userAuth, preferredFirstFactor: "EMAIL_OTP")))
    let object = try json(signIn)
    #expect(object["id"] as? Int == 3)
    #expect(object["type"] as? String == "signIn")
    #expect(object["password"] is NSNull)
    #expect((object["options"] as? [String: Any])?["authFlow"] as? String == "userAuth")
    let back = try JSONDecoder().decode(AdapterRequest.self, from: try JSONEncoder().encode(signIn))
    #expect(back == signIn)
    for body: AdapterRequest.Body in [
      .hello(protocol: 1, endpoint: "http://127.0.0.1:9229/"),
      .reset(poolId: "us-east-1_sim", clientId: "c", username: "user", password: "Passw0rd!"),
      .confirmSignIn(answer: "123456"), .signOut,
    ] {
      let request = AdapterRequest(id: 1, body)
      #expect(try JSONDecoder().decode(AdapterRequest.self, from: try JSONEncoder().encode(request)) == request)
    }
  }

  @Test("an observation writes step, error and delivery even when null, and leaves out the optional members")
  func observations() throws {
    let object = try json(AdapterObservation(id: 2, step: nil, isSignedIn: false))
    #expect(Set(object.keys) == ["id", "type", "step", "error", "delivery", "isSignedIn"])
    #expect(object["step"] is NSNull)
    #expect(object["type"] as? String == "observation")
    let read = try JSONDecoder().decode(
      AdapterObservation.self, from: Data(#"{"id":4,"type":"observation","step":"done","isSignedIn":true}"#.utf8))
    #expect(read == AdapterObservation(id: 4, step: "done", isSignedIn: true))
  }
}
