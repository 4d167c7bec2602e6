import BigInt
import CLibCrypto
import Foundation

extension SRPMath {
  /// `base^exponent mod modulus`, as BigInt's `power(_:modulus:)` gives it, computed by OpenSSL's
  /// `BN_mod_exp` (Montgomery multiplication in C): SRP's 3072-bit exponentiations take about a
  /// fiftieth of BigInt's time, and every SRP sign-in does six of them (three on each side; a
  /// remembered device's DEVICE_SRP_AUTH as many again).
  /// BigInt's own `power` answers where OpenSSL cannot (a zero modulus, or no memory).
  package static func modPow(_ base: BigUInt, _ exponent: BigUInt, _ modulus: BigUInt) -> BigUInt {
    guard !modulus.isZero, let context = BN_CTX_new() else { return base.power(exponent, modulus: modulus) }
    defer { BN_CTX_free(context) }
    let b = bignum(base)
    let e = bignum(exponent)
    let m = bignum(modulus)
    let result = BN_new()
    defer {
      BN_free(b)
      BN_free(e)
      BN_free(m)
      BN_free(result)
    }
    guard let b, let e, let m, let result, BN_mod_exp(result, b, e, m, context) == 1 else {
      return base.power(exponent, modulus: modulus)
    }
    var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(result) + 7) / 8))
    _ = BN_bn2bin(result, &bytes)
    return BigUInt(Data(bytes))
  }

  /// `value` as an OpenSSL number (nil: no memory).
  private static func bignum(_ value: BigUInt) -> OpaquePointer? {
    let bytes = [UInt8](value.serialize())
    return bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
  }
}
