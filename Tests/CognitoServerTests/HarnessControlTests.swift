import CognitoServer
import CognitoWire
import Foundation
import SimulatedCognito
import Testing

/// The control endpoints a fuzzer uses on a `serve` elsewhere (`fuzz --adapter … --endpoint`):
/// pools made per flow with fixed codes and deleted, faults injected into a user (or the pool's
/// "nobody"), and the user's state read back.
@Suite("The harness's control endpoints: pools per case, inject, state")
struct HarnessControlTests {
  static func call(_ server: CognitoServer, _ method: String, _ path: String, _ body: String? = nil) async throws
    -> (status: Int, json: JSONObject?)
  {
    try await GeneratedCodesTests.call(server, method, path, body: body)
  }

  static let signIn =
    #"{"AuthFlow":"USER_PASSWORD_AUTH","ClientId":"CLIENT","AuthParameters":{"USERNAME":"user","PASSWORD":"Passw0rd!"}}"#

  @Test("a per-flow pool with fixed codes: the SMS code is 123456, its state shows the challenge, DELETE forgets it")
  func perFlowPool() async throws {
    try await servingService([:]) { server, _, _ in
      let made = try await Self.call(
        server, "POST", "/_signin-spec/pools",
        #"{"set":{"pool.mfa":"required","pool.sms":"true"},"lifecycle":"perFlow","codes":"fixed"}"#)
      #expect(made.status == 200)
      let poolId = try #require(made.json?["poolId"]?.string)
      let clientId = try #require(made.json?["clientId"]?.string)
      let put = try await Self.call(
        server, "PUT", "/_signin-spec/pools/\(poolId)/users/user",
        #"{"password":"Passw0rd!","set":{"user.phone":"true"}}"#)
      #expect(put.status == 200)
      let started = try await GeneratedCodesTests.call(
        server, "POST", "/", body: Self.signIn.replacingOccurrences(of: "CLIENT", with: clientId),
        target: "InitiateAuth")
      #expect(started.json?["ChallengeName"]?.string == "SMS_MFA")
      let state = try await Self.call(server, "GET", "/_signin-spec/pools/\(poolId)/users/user/state")
      let read = try #require(state.json.flatMap { HarnessControl.state(.object($0)) })
      #expect(read.issuedChallenges == ["SMS_MFA"])
      #expect(read.lastChallengeParameters["CODE_DELIVERY_DELIVERY_MEDIUM"] == "SMS")
      #expect(read.issuedSessions.count == 1 && !read.faultFired)
      let session = try #require(started.json?["Session"]?.string)
      let answer =
        #"{"ChallengeName":"SMS_MFA","ClientId":"\#(clientId)","Session":"\#(session)","ChallengeResponses":{"USERNAME":"user","SMS_MFA_CODE":"123456"}}"#
      let done = try await GeneratedCodesTests.call(server, "POST", "/", body: answer, target: "RespondToAuthChallenge")
      #expect(done.json?["AuthenticationResult"] != nil, "fixed codes: 123456 is right")
      #expect(try await Self.call(server, "DELETE", "/_signin-spec/pools/\(poolId)").status == 200)
      #expect(try await Self.call(server, "GET", "/_signin-spec/pools/\(poolId)/users/user/state").status == 404)
    }
  }

  @Test("inject: a fault on the next request fires and the state says so; a bad action names its field")
  func inject() async throws {
    try await servingService([:]) { server, service, _ in
      let ids = await service.createPool(configuration: [:], lifecycle: .perFlow, codes: .fixed)
      _ = try await service.putUser(poolId: ids.poolId, user: .init(), configuration: [:])
      let path = "/_signin-spec/pools/\(ids.poolId)/users/user/inject"
      let action = HarnessControl.encode(.error("TooManyRequestsException", onRequest: 0))
      let body = String(decoding: CognitoExchange.encode(.object(action)), as: UTF8.self)
      #expect(try await Self.call(server, "POST", path, body).status == 200)
      let failed = try await GeneratedCodesTests.call(
        server, "POST", "/", body: Self.signIn.replacingOccurrences(of: "CLIENT", with: ids.clientId),
        target: "InitiateAuth")
      #expect(failed.status == 400)
      let state = try await Self.call(server, "GET", "/_signin-spec/pools/\(ids.poolId)/users/user/state")
      #expect(state.json?["faultFired"] == .bool(true))
      let bad = try await Self.call(server, "POST", path, #"{"action":"fault","kind":"gremlins","onRequest":0}"#)
      #expect(bad.status == 400 && bad.json?["field"]?.string == "kind")
      let unknown = try await Self.call(server, "POST", path, #"{"action":"explode"}"#)
      #expect(unknown.status == 400 && unknown.json?["field"]?.string == "action")
      // A user the pool lacks: its "nobody" answers (the fuzzer's user.exists false).
      let nobody = try await Self.call(
        server, "POST", "/_signin-spec/pools/\(ids.poolId)/users/someone/inject", #"{"action":"expireSessions"}"#)
      #expect(nobody.status == 200)
    }
  }

  @Test("every action survives encoding and decoding")
  func roundTrip() {
    let actions: [HarnessControl.Action] = [
      .unknownChallenge, .deviceChallenge, .expireSessions, .changeStatus("resetRequired"),
      .fault(.timeout, onRequest: 1),
      .error("LimitExceededException", onRequest: 0),
      .operationFault("AssociateSoftwareToken", .fault(.transport), count: 1),
      .operationFault("AssociateSoftwareToken", .error("InternalErrorException"), count: 0),
    ]
    for action in actions {
      #expect((try? HarnessControl.action(HarnessControl.encode(action)).get()) == action)
    }
  }
}
