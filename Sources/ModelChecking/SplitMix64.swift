import SignInModel

/// SplitMix64: a small, seedable generator, so mutants and fuzz runs reproduce anywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64
  public init(seed: UInt64) { state = seed }
  /// The value the `k`-th call of `next()` from now returns (k ≥ 1), without drawing it.
  public func peek(_ k: UInt64) -> UInt64 {
    var ahead = SplitMix64(seed: state &+ (k &- 1) &* 0x9E37_79B9_7F4A_7C15)
    return ahead.next()
  }
  /// Moves on as `n` calls of `next()` would.
  public mutating func skip(_ n: UInt64) { state &+= n &* 0x9E37_79B9_7F4A_7C15 }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
