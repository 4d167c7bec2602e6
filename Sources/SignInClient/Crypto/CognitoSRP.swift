import BigInt
import CognitoSRPMath
import Foundation

/// The client's side of Cognito's SRP-6a (the USER_SRP_AUTH and PASSWORD_VERIFIER exchange, and
/// the same exchange for a remembered device: DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER), as
/// in the reference clients; the arithmetic it shares with the simulated pool is `SRPMath`.
struct CognitoSRP {
  /// RFC 5054's 3072-bit group prime.
  static let N = SRPMath.N
  static let g = SRPMath.g
  static let k = SRPMath.k

  /// The client's secret ephemeral value `a` and public `A = g^a mod N`.
  let smallA: BigUInt
  let largeA: BigUInt

  init(random: [UInt8]) {
    smallA = BigUInt(Data(random)) % CognitoSRP.N
    largeA = SRPMath.modPow(CognitoSRP.g, smallA, CognitoSRP.N)
  }

  /// `A` as Cognito expects it in SRP_A (lower-case hex).
  var publicValue: String { String(largeA, radix: 16) }

  /// The PASSWORD_CLAIM_SIGNATURE for the server's SRP_B, SALT and SECRET_BLOCK, or nil when
  /// the server's values are invalid (B ≡ 0 mod N, u = 0, or not hex/base64).
  func signature(
    poolName: String, userIdForSRP: String, password: String, srpB: String, salt: String, secretBlock: String,
    timestamp: String
  ) -> String? {
    let N = CognitoSRP.N
    guard let B = BigUInt(srpB, radix: 16), B % N != 0, let saltValue = BigUInt(salt, radix: 16) else { return nil }
    let u = SRPMath.scrambler(largeA, B)
    guard u != 0 else { return nil }
    let x = SRPMath.privateKey(salt: saltValue, poolName: poolName, userIdForSRP: userIdForSRP, password: password)
    let kgx = (CognitoSRP.k * SRPMath.modPow(CognitoSRP.g, x, N)) % N
    let base = (B % N + N - kgx) % N
    let S = SRPMath.modPow(base, smallA + u * x, N)
    return SRPMath.claimSignature(
      key: SRPMath.claimKey(S: S, u: u), poolName: poolName, userIdForSRP: userIdForSRP,
      secretBlock: SRPMath.secretBlockBytes(secretBlock), timestamp: timestamp)
  }

  /// A new device's secret and the DeviceSecretVerifierConfig ConfirmDevice sends for it, as
  /// amplify-js (`AuthenticationHelper.generateHashDevice`, `getNewDeviceMetadata.ts`) and
  /// pycognito (`generate_hash_device`) make them: the password is base64 of the random bytes
  /// (40 in the reference clients), the salt the random bytes (16) read as a number, and
  /// v = g^x with x = H(salt | H(groupKey | deviceKey | ":" | password)), the user's SRP with the
  /// group key in place of the pool name and the device key in place of the user id. Salt and
  /// verifier are sent as base64 of their padded hex's bytes (`SRPMath.padHex`: a leading zero
  /// byte when the top bit is set), as both reference clients do.
  static func newDevice(groupKey: String, deviceKey: String, passwordBytes: [UInt8], saltBytes: [UInt8]) -> (
    password: String, passwordVerifier: String, salt: String
  ) {
    let password = Data(passwordBytes).base64EncodedString()
    let salt = BigUInt(Data(saltBytes))
    let verifier = SRPMath.verifier(salt: salt, poolName: groupKey, userIdForSRP: deviceKey, password: password)
    return (
      password, Data(SRPMath.bytes(SRPMath.padHex(verifier))).base64EncodedString(),
      Data(SRPMath.bytes(SRPMath.padHex(salt))).base64EncodedString()
    )
  }

  /// "Tue Sep 5 09:03:07 UTC 2026": Cognito's TIMESTAMP format (day not zero-padded).
  static func timestamp(_ date: Date) -> String { SRPMath.timestamp(date) }

  /// Hex of a non-negative number, padded as the reference clients do (see `SRPMath.padHex`).
  static func padHex(_ value: BigUInt) -> String { SRPMath.padHex(value) }

  /// SHA-256 of the bytes a hex string spells, read as a big-endian number.
  static func hashNumber(_ hexString: String) -> BigUInt { SRPMath.hashNumber(hexString) }

  static func bytes(_ hex: String) -> [UInt8] { SRPMath.bytes(hex) }

  static func hex(_ bytes: [UInt8]) -> String { SRPMath.hex(bytes) }
}
