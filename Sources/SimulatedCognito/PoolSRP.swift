import BigInt
import CognitoSRPMath
import Foundation

/// SplitMix64 (as in the project's fuzzer): the pool's seedable source of SRP's salt, secret
/// `b` and secret blocks, so a pool built with the same seed answers the same exchange with
/// the same values.
struct PoolRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// `count` bytes, eight from each draw.
  mutating func bytes(_ count: Int) -> [UInt8] {
    var result: [UInt8] = []
    while result.count < count {
      let word = next()
      for shift in stride(from: 56, through: 0, by: -8) where result.count < count {
        result.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
    return result
  }
}

/// What the pool stores for a user instead of the password: a salt and the verifier
/// v = g^x, x = H(salt | H(poolName | userIdForSRP | ":" | password)).
struct SRPUserRecord: Sendable {
  let userIdForSRP: String
  let salt: BigUInt
  let verifier: BigUInt

  init(poolName: String, userIdForSRP: String, password: String, salt: BigUInt) {
    self.init(
      userIdForSRP: userIdForSRP, salt: salt,
      verifier: VerifierCache.shared.verifier(
        salt: salt, poolName: poolName, userIdForSRP: userIdForSRP, password: password))
  }

  /// A record from a verifier made elsewhere: a device's, which the client computes and sends
  /// in ConfirmDevice (`userIdForSRP` is then the device key, and the device group key signs in
  /// place of the pool name).
  init(userIdForSRP: String, salt: BigUInt, verifier: BigUInt) {
    self.userIdForSRP = userIdForSRP
    self.salt = salt
    self.verifier = verifier
  }
}

/// One PASSWORD_VERIFIER exchange, server side: the client's A, the pool's secret b and public
/// B = k·v + g^b, and the SECRET_BLOCK the answer must sign.
struct SRPExchange: Sendable {
  let A: BigUInt
  let b: BigUInt
  let B: BigUInt
  let secretBlock: String

  /// A fresh exchange for the client's `A` (already checked: A ≢ 0 mod N), drawing b (256
  /// bits) and a 48-byte secret block from `random`.
  init(A: BigUInt, record: SRPUserRecord, random: inout PoolRandom) {
    let N = SRPMath.N
    var b: BigUInt
    var B: BigUInt
    repeat {
      b = BigUInt(Data(random.bytes(32))) % N
      B = (SRPMath.k * record.verifier + SRPMath.modPow(SRPMath.g, b, N)) % N
    } while b == 0 || B == 0
    self.A = A
    self.b = b
    self.B = B
    secretBlock = Data(random.bytes(48)).base64EncodedString()
  }

  /// The PASSWORD_CLAIM_SIGNATURE a client that knows the password sends for `timestamp`:
  /// S = (A · v^u)^b, the key from HKDF over S and u. Nil when u = 0 (the client refuses too).
  func expectedSignature(record: SRPUserRecord, poolName: String, timestamp: String) -> String? {
    let N = SRPMath.N
    let u = SRPMath.scrambler(A, B)
    guard u != 0 else { return nil }
    let S = SRPMath.modPow(A * SRPMath.modPow(record.verifier, u, N) % N, b, N)
    return SRPMath.claimSignature(
      key: SRPMath.claimKey(S: S, u: u), poolName: poolName, userIdForSRP: record.userIdForSRP,
      secretBlock: SRPMath.secretBlockBytes(secretBlock), timestamp: timestamp)
  }

  /// The challenge parameters Cognito sends with PASSWORD_VERIFIER (numbers in lower-case hex).
  func challengeParameters(record: SRPUserRecord) -> [String: String] {
    [
      "SALT": String(record.salt, radix: 16), "SRP_B": String(B, radix: 16), "SECRET_BLOCK": secretBlock,
      "USERNAME": record.userIdForSRP, "USER_ID_FOR_SRP": record.userIdForSRP,
    ]
  }
}

/// Verifiers already made, by pool name, user id, password and salt: v = g^x is a pure function
/// of them, and the fuzzer's pools (one per case, the same seed) make the same user's and the
/// same remembered device's verifier again and again. Bounded: emptied when full.
final class VerifierCache: @unchecked Sendable {
  static let shared = VerifierCache()
  /// The most verifiers kept (a persistent pool's users and devices beyond it are made again).
  static let capacity = 1_024

  private struct Key: Hashable {
    let poolName: String
    let userIdForSRP: String
    let password: String
    let salt: BigUInt
  }

  private let lock = NSLock()
  private var verifiers: [Key: BigUInt] = [:]

  func verifier(salt: BigUInt, poolName: String, userIdForSRP: String, password: String) -> BigUInt {
    let key = Key(poolName: poolName, userIdForSRP: userIdForSRP, password: password, salt: salt)
    if let known = lock.withLock({ verifiers[key] }) { return known }
    let verifier = SRPMath.verifier(salt: salt, poolName: poolName, userIdForSRP: userIdForSRP, password: password)
    lock.withLock {
      if verifiers.count >= Self.capacity { verifiers.removeAll(keepingCapacity: true) }
      verifiers[key] = verifier
    }
    return verifier
  }
}
