import SignInModel

/// A node's step and flow packed into one integer, for the explicit search's state index:
/// hashing one word instead of an array is most of what finding a known state costs. Each
/// flow variable gets the bits its domain's span needs; nil when step and flow need more than
/// 63 bits (the search then indexes its states by step and flow array).
struct FlowPacking: Sendable {
  private let low: [Int]
  private let shifts: [Int]
  private let stepShift: Int

  init?(model: SignInModel) {
    var low: [Int] = []
    var shifts: [Int] = []
    var bits = 0
    for i in model.flowIndices {
      let values = model.variables[i].domain.values
      guard let lo = values.min(), let hi = values.max() else { return nil }
      let span = UInt64(hi - lo)
      low.append(lo)
      shifts.append(bits)
      bits += span == 0 ? 0 : 64 - span.leadingZeroBitCount
      if bits > 63 { return nil }
    }
    let stepBits = 64 - UInt64(max(1, model.steps.count)).leadingZeroBitCount
    guard bits + stepBits <= 63 else { return nil }
    self.low = low
    self.shifts = shifts
    self.stepShift = bits
  }

  /// The key of `step` with the flow at `valuation[flowStart...]` (every value in its domain).
  func key(step: Int, _ valuation: [Int], flowStart: Int) -> Int {
    var key = step << stepShift
    for k in low.indices { key |= (valuation[flowStart + k] - low[k]) << shifts[k] }
    return key
  }
}
