import CognitoWire
import Foundation

/// Signs and checks the tokens of a sign-in (`signin-spec serve` signs JWTs; the in-process
/// fuzzer never needs this, so the pool itself hands out a fixed opaque access token).
package protocol TokenMinting: Sendable {
  /// The ID, access and refresh tokens and their lifetime for `username` of `poolId`.
  func mint(
    poolId: String, clientId: String, username: String, sub: String, deviceKey: String?, attributes: [String: String]
  )
    async throws -> MintedTokens
  /// The pool and user an access token was issued to; nil when it is not one this server signed
  /// or it expired.
  func check(accessToken: String) async -> (poolId: String, username: String)?
}

/// The token fields of an AuthenticationResult.
package struct MintedTokens: Sendable {
  package var idToken: String
  package var accessToken: String
  package var refreshToken: String
  package var expiresIn: Int

  package init(idToken: String, accessToken: String, refreshToken: String, expiresIn: Int) {
    self.idToken = idToken
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
  }
}

/// Cognito as `signin-spec serve` presents it: any number of user pools, each with its app
/// client and its users, every user a persistent `SimulatedUserPool`. Requests are routed as
/// Cognito routes them: InitiateAuth by ClientId and USERNAME, a challenge answer by its Session
/// (or, without one, by USERNAME), the token operations by the access token. A username with no
/// user goes to the pool's "nobody" (its configuration with `user.exists: false`), so
/// PreventUserExistenceErrors is answered as Cognito answers it.
package actor SimulatedService: CognitoBackend {
  /// A pool: its ids, its configuration (pool. variables) and its users.
  struct Pool {
    let poolId: String
    let clientId: String
    let configuration: [String: String]
    var users: [String: SimulatedUserPool] = [:]
    let nobody: SimulatedUserPool
    /// Its users' lifecycle: persistent (Cognito's), or per flow (a fuzzer's case).
    let lifecycle: SimulatedUserPool.Lifecycle
    /// How its users' codes are made (nil: the service's).
    let codes: SimulatedUserPool.Codes?
  }

  private var pools: [String: Pool] = [:]
  /// Pool ids in the order they were made (the first is the default).
  private var poolOrder: [String] = []
  private var poolByClient: [String: String] = [:]
  /// Every user actor, and its pool, by the tag its session ids begin with.
  private var byTag: [String: (actor: SimulatedUserPool, poolId: String)] = [:]
  private var nextTag = 0
  /// How many pools were ever made (ids are drawn from it, so a removed pool's id is not reused).
  private var poolsMade = 0
  private let seed: UInt64
  private let codes: SimulatedUserPool.Codes
  private let minter: (any TokenMinting)?

  /// The first pool's ids: the ones the start-up lines print.
  package static let firstPoolId = SimulatedUserPool.poolId
  package static let firstClientId = "signinspecsimulatedclient"

  /// How many sent codes each user's outbox keeps.
  private let outboxLimit: Int

  package init(
    seed: UInt64 = 0, codes: SimulatedUserPool.Codes, minter: (any TokenMinting)?,
    outboxLimit: Int = SimulatedUserPool.defaultOutboxLimit
  ) {
    self.seed = seed
    self.codes = codes
    self.minter = minter
    self.outboxLimit = outboxLimit
  }

  /// An error of the control endpoints (the message names the field).
  package struct ControlError: Error, Sendable {
    package let message: String
    package let field: String?
  }

  // MARK: - Pools and users

  /// Makes a pool with `configuration` (its pool. variables are kept); the first is
  /// `us-east-1_sim` / `signinspecsimulatedclient`, later ones get ids drawn from the seed.
  /// `lifecycle` is that of its users and of its "nobody".
  @discardableResult
  package func createPool(
    configuration: [String: String], lifecycle: SimulatedUserPool.Lifecycle = .persistent,
    codes: SimulatedUserPool.Codes? = nil
  ) -> (poolId: String, clientId: String) {
    let poolConfiguration = configuration.filter { $0.key.hasPrefix("pool.") }
    let poolId: String
    let clientId: String
    if pools.isEmpty {
      poolId = Self.firstPoolId
      clientId = Self.firstClientId
    } else {
      var random = PoolRandom(seed: seed ^ UInt64(poolsMade) &* 0x9E37_79B9)
      let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
      poolId = "us-east-1_" + String(random.bytes(9).map { alphabet[Int($0) % alphabet.count] })
      let lower = Array("abcdefghijklmnopqrstuvwxyz0123456789")
      clientId = String(random.bytes(26).map { lower[Int($0) % lower.count] })
    }
    var nobodyConfiguration = poolConfiguration
    nobodyConfiguration["user.exists"] = "false"
    let nobody = makeUser(
      poolId: poolId, configuration: nobodyConfiguration, user: SimulatedUserPool.User(username: "", password: ""),
      lifecycle: lifecycle, codes: codes)
    pools[poolId] = Pool(
      poolId: poolId, clientId: clientId, configuration: poolConfiguration, nobody: nobody, lifecycle: lifecycle,
      codes: codes)
    poolOrder.append(poolId)
    poolByClient[clientId] = poolId
    poolsMade += 1
    return (poolId, clientId)
  }

  /// Forgets `poolId`, its users and their sessions (a fuzzer's pool once its case ran, so a
  /// long run does not grow); later requests for it are answered as for an unknown pool.
  package func removePool(_ poolId: String) {
    guard let pool = pools.removeValue(forKey: poolId) else { return }
    poolOrder.removeAll { $0 == poolId }
    poolByClient[pool.clientId] = nil
    byTag = byTag.filter { $0.value.poolId != poolId }
  }

  /// Creates or replaces `user` of `poolId` with the user. variables of `configuration`
  /// (its pool. variables are the pool's). A replaced user's open sessions end.
  package func putUser(poolId: String?, user: SimulatedUserPool.User, configuration: [String: String])
    throws(ControlError) -> SimulatedUserPool
  {
    guard let poolId = poolId ?? poolOrder.first, var pool = pools[poolId] else {
      throw ControlError(message: "no pool \(poolId ?? "") (POST /_signin-spec/pools makes one)", field: "poolId")
    }
    var merged = pool.configuration
    for (k, v) in configuration where k.hasPrefix("user.") { merged[k] = v }
    merged["user.exists"] = "true"
    if let replaced = pool.users[user.username] {
      // The replaced user's sessions end: its tag no longer names an actor.
      byTag = byTag.filter { $0.value.actor !== replaced }
    }
    let actor = makeUser(
      poolId: poolId, configuration: merged, user: user, lifecycle: pool.lifecycle, codes: pool.codes)
    pool.users[user.username] = actor
    pools[poolId] = pool
    return actor
  }

  private func makeUser(
    poolId: String, configuration: [String: String], user: SimulatedUserPool.User,
    lifecycle: SimulatedUserPool.Lifecycle, codes: SimulatedUserPool.Codes? = nil
  ) -> SimulatedUserPool {
    nextTag += 1
    let tag = "sess-" + String(format: "%06d", nextTag) + "x"
    let actor = SimulatedUserPool(
      configuration: configuration, poolId: poolId, seed: seed &+ UInt64(nextTag) &* 0x1000_0001,
      codes: codes ?? self.codes,
      user: user, lifecycle: lifecycle, sessionTag: tag, outboxLimit: outboxLimit)
    byTag[tag] = (actor, poolId)
    return actor
  }

  /// The actor that answers for a user `poolId` does not have (default: the first pool).
  package func nobody(poolId: String? = nil) -> SimulatedUserPool? {
    guard let poolId = poolId ?? poolOrder.first else { return nil }
    return pools[poolId]?.nobody
  }

  /// The user actor of `username` in `poolId` (default: the first pool).
  package func user(_ username: String, poolId: String? = nil) -> SimulatedUserPool? {
    guard let poolId = poolId ?? poolOrder.first else { return nil }
    return pools[poolId]?.users[username]
  }

  /// The actor that answers for `username` in `poolId`: the user, or the pool's "nobody" when it
  /// has no such user; nil when there is no such pool.
  package func controlled(_ username: String, poolId: String) -> SimulatedUserPool? {
    guard let pool = pools[poolId] else { return nil }
    return pool.users[username] ?? pool.nobody
  }

  /// The pool. variables of `poolId` (nil: the first pool).
  package func configuration(of poolId: String?) -> [String: String]? {
    (poolId ?? poolOrder.first).flatMap { pools[$0]?.configuration }
  }

  /// The configuration of the user a Cognito request is for (empty when none is found): for
  /// the request log.
  package func configuration(forRequest request: JSONObject) async -> [String: String] {
    var actor: SimulatedUserPool?
    if let session = request["Session"]?.string { actor = owner(of: session)?.actor }
    if actor == nil, let clientId = request["ClientId"]?.string, let poolId = poolByClient[clientId],
      let pool = pools[poolId]
    {
      let username =
        request["AuthParameters"]?.object?["USERNAME"]?.string
        ?? request["ChallengeResponses"]?.object?["USERNAME"]?.string ?? ""
      actor = pool.users[username] ?? pool.nobody
    }
    guard let actor else { return [:] }
    return await actor.configuration
  }

  /// Whether `poolId` names a pool (nil: the first).
  package func hasPool(_ poolId: String?) -> Bool { (poolId ?? poolOrder.first).map { pools[$0] != nil } ?? false }

  /// The codes sent to `username` of `poolId`, oldest first (none for a user the pool does not have).
  package func messages(for username: String, poolId: String? = nil) async -> [SimulatedUserPool.SentMessage] {
    guard let actor = user(username, poolId: poolId) else { return [] }
    return await actor.messages(for: username)
  }

  // MARK: - Cognito's protocol

  package func send(_ operation: String, _ request: JSONObject) async throws(CognitoCallError) -> JSONObject {
    try RequestShape.check(operation, request)
    switch operation {
    case "InitiateAuth":
      let pool = try self.pool(request)
      guard let username = request["AuthParameters"]?.object?["USERNAME"]?.string, !username.isEmpty else {
        throw .service(type: "InvalidParameterException", message: "Missing required parameter USERNAME")
      }
      let actor = pool.users[username] ?? pool.nobody
      return try await finish(try await actor.send(operation, request), pool: pool, actor: actor, request: request)
    case "RespondToAuthChallenge":
      let pool = try self.pool(request)
      let actor: SimulatedUserPool
      if let session = request["Session"]?.string {
        guard let found = owner(of: session), found.poolId == pool.poolId else { throw Self.invalidSession }
        actor = found.actor
      } else if let username = request["ChallengeResponses"]?.object?["USERNAME"]?.string {
        actor = pool.users[username] ?? pool.nobody
      } else {
        throw Self.invalidSession
      }
      return try await finish(try await actor.send(operation, request), pool: pool, actor: actor, request: request)
    case "AssociateSoftwareToken", "VerifySoftwareToken":
      if let session = request["Session"]?.string {
        guard let found = owner(of: session) else { throw Self.invalidSession }
        return try await found.actor.send(operation, request)
      }
      return try await withAccessToken(operation, request)
    case "ConfirmDevice", "UpdateDeviceStatus", "GetUser":
      return try await withAccessToken(operation, request)
    default:
      throw .service(type: "InvalidActionException", message: "the simulated pool does not implement \(operation)")
    }
  }

  static let invalidSession = CognitoCallError.service(
    type: "NotAuthorizedException", message: "Invalid session for the user.")

  /// The pool of the request's ClientId.
  private func pool(_ request: JSONObject) throws(CognitoCallError) -> Pool {
    guard let clientId = request["ClientId"]?.string else {
      throw .service(type: "InvalidParameterException", message: "Missing required parameter ClientId")
    }
    guard let poolId = poolByClient[clientId], let pool = pools[poolId] else {
      throw .service(type: "ResourceNotFoundException", message: "User pool client \(clientId) does not exist.")
    }
    return pool
  }

  /// The user actor whose session this is, and its pool.
  private func owner(of session: String) -> (actor: SimulatedUserPool, poolId: String)? {
    guard let end = session.firstIndex(of: "x") else { return nil }
    return byTag[String(session[...end])]
  }

  /// An operation authorised by an access token: the token is checked here and the user's
  /// actor sees the pool's own token.
  private func withAccessToken(_ operation: String, _ request: JSONObject) async throws(CognitoCallError)
    -> JSONObject
  {
    guard let token = request["AccessToken"]?.string else {
      throw .service(type: "InvalidParameterException", message: "Missing required parameter AccessToken")
    }
    guard let minter, let owner = await minter.check(accessToken: token),
      let actor = pools[owner.poolId]?.users[owner.username]
    else { throw .service(type: "NotAuthorizedException", message: "Invalid Access Token") }
    var forwarded = request
    forwarded["AccessToken"] = .string(SimulatedUserPool.accessToken)
    return try await actor.send(operation, forwarded)
  }

  /// Puts signed tokens into an AuthenticationResult (without a minter the pool's own stay).
  private func finish(_ response: JSONObject, pool: Pool, actor: SimulatedUserPool, request: JSONObject)
    async throws(CognitoCallError) -> JSONObject
  {
    guard let minter, var result = response["AuthenticationResult"]?.object else { return response }
    let deviceKey =
      result["NewDeviceMetadata"]?.object?["DeviceKey"]?.string
      ?? request["ChallengeResponses"]?.object?["DEVICE_KEY"]?.string
      ?? request["AuthParameters"]?.object?["DEVICE_KEY"]?.string
    let attributes = await actor.attributes
    let tokens: MintedTokens
    do {
      tokens = try await minter.mint(
        poolId: pool.poolId, clientId: pool.clientId, username: actor.username, sub: actor.sub, deviceKey: deviceKey,
        attributes: attributes)
    } catch {
      throw .service(type: "InternalErrorException", message: "cannot sign the tokens: \(error)")
    }
    result["AccessToken"] = .string(tokens.accessToken)
    result["IdToken"] = .string(tokens.idToken)
    result["RefreshToken"] = .string(tokens.refreshToken)
    result["ExpiresIn"] = .number(Double(tokens.expiresIn))
    result["TokenType"] = .string("Bearer")
    var answer = response
    answer["AuthenticationResult"] = .object(result)
    return answer
  }
}
