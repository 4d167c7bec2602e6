import SimulatedCognito

/// What a harness does to the pool of a run: inject the case's faults and read what the pool
/// sent. The pool's actor in process (`SimulatedUserPool`), or a pool of a `signin-spec serve`
/// elsewhere, through its control endpoints (`RemotePool`).
package protocol PoolControl: Sendable {
  /// The pool's user (its username; "" for the pool's "nobody").
  var username: String { get }
  /// The device `user.deviceRemembered` says an earlier sign-in confirmed, known to both sides.
  var configuredDevice: RememberedDeviceSecret? { get }
  /// The next InitiateAuth or RespondToAuthChallenge answers with a challenge nobody knows.
  func injectUnknownChallenge() async throws(ClientFailure)
  /// The next InitiateAuth or RespondToAuthChallenge answers DEVICE_SRP_AUTH, unasked.
  func injectDeviceChallenge() async throws(ClientFailure)
  /// The request `onRequest` requests from now (0: the next) fails with `kind`.
  func injectFault(_ kind: SimulatedFault, onRequest request: Int) async throws(ClientFailure)
  /// The next `count` requests of `operation` fail (0: none any more).
  func injectFault(operation: String, _ fault: SimulatedUserPool.OperationFault, count: Int)
    async throws(ClientFailure)
  /// The request `onRequest` requests from now answers Cognito's error `type`.
  func injectError(_ type: String, onRequest request: Int) async throws(ClientFailure)
  /// Every session the pool issued ends.
  func expireSessions() async throws(ClientFailure)
  /// The user's status becomes `status` before the next request.
  func changeStatus(to status: String) async throws(ClientFailure)
  /// Whether the injected fault fired and what the pool sent.
  func state() async throws(ClientFailure) -> SimulatedUserPool.State
}

extension SimulatedUserPool: PoolControl {}
