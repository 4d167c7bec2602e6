import Crypto
import Foundation

/// SHA-1, SHA-256, HMAC and HKDF from apple/swift-crypto: what TOTP (RFC 6238) and Cognito's
/// SRP need. No primitive is implemented here; the tests check the standard vectors.
package enum Digest {
  /// A hash function usable with `hmac(_:key:message:)`.
  package enum Hash { case sha1, sha256 }

  package static func sha1(_ message: [UInt8]) -> [UInt8] { Array(Insecure.SHA1.hash(data: message)) }

  package static func sha256(_ message: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: message)) }

  package static func hmac(_ hash: Hash, key: [UInt8], message: [UInt8]) -> [UInt8] {
    let key = SymmetricKey(data: key)
    switch hash {
    case .sha1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
    case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }
  }

  /// HKDF with SHA-256 (RFC 5869): `count` bytes derived from `inputKey`, `salt` and `info`.
  package static func hkdfSHA256(inputKey: [UInt8], salt: [UInt8], info: [UInt8], count: Int) -> [UInt8] {
    let key = HKDF<SHA256>.deriveKey(
      inputKeyMaterial: SymmetricKey(data: inputKey), salt: salt, info: info, outputByteCount: count)
    return key.withUnsafeBytes { Array($0) }
  }
}
