import BigInt
import CognitoSRPMath
import ModelChecking
import Testing

/// `SRPMath.modPow` (OpenSSL's `BN_mod_exp`) gives what BigInt's `power(_:modulus:)` gives, on
/// SRP's own sizes and on the edges: a zero exponent or base, a base past the modulus, a modulus
/// of one, and an even modulus (no Montgomery form).
@Suite("Modular exponentiation")
struct ModularPowerTests {
  /// A number of `bytes` random bytes from `random`.
  static func number(_ bytes: Int, _ random: inout SplitMix64) -> BigUInt {
    var value = BigUInt(0)
    for _ in 0..<bytes { value = value << 8 + BigUInt(random.next() & 0xFF) }
    return value
  }

  @Test("SRP's exponentiations modulo the 3072-bit group prime, as BigInt computes them")
  func srpSizes() {
    var random = SplitMix64(seed: 3)
    for round in 0..<6 {
      // A client's or the pool's secret (128 bytes), a scrambler (32), a private key (32), a base
      // as big as N or past it.
      let exponent = Self.number([128, 32, 160, 1, 384, 0][round], &random)
      let base = round == 4 ? SRPMath.N + Self.number(16, &random) : Self.number(384, &random) % SRPMath.N
      #expect(SRPMath.modPow(base, exponent, SRPMath.N) == base.power(exponent, modulus: SRPMath.N), "round \(round)")
      #expect(SRPMath.modPow(SRPMath.g, exponent, SRPMath.N) == SRPMath.g.power(exponent, modulus: SRPMath.N))
    }
  }

  @Test("the edges: zero exponent, zero base, modulus one, an even modulus, small numbers")
  func edges() {
    let cases: [(BigUInt, BigUInt, BigUInt)] = [
      (5, 0, 7), (0, 5, 7), (0, 0, 7), (123, 45, 1), (7, 3, 10), (3, 200, 1 << 100), (2, 10, 1000), (10, 1, 3),
    ]
    for (base, exponent, modulus) in cases {
      #expect(
        SRPMath.modPow(base, exponent, modulus) == base.power(exponent, modulus: modulus),
        "\(base)^\(exponent) mod \(modulus)")
    }
    #expect(SRPMath.modPow(2, 10, 1000) == 24)
  }
}
