import Evolution
import Testing

/// Configuration counts in reports: exact below 2^53, a power of ten above, never a trap
/// (a model with thousands of unread variables counts past Double's range).
@Suite("Counts in diff and lint reports")
struct CountTextTests {
  @Test("a count is printed with thousands separators, exactly, below 2^53")
  func exact() {
    #expect(DiffTextReport.n(6_371_904) == "6,371,904")
    #expect(DiffTextReport.n(0) == "0")
  }

  @Test("a count past 2^53, or past Double's range, is printed as a power of ten without a trap")
  func huge() {
    #expect(DiffTextReport.n(0x1p60) == "about 1.15e+18")
    #expect(DiffTextReport.n(.infinity) == "more than 1.8e+308")
    #expect(DiffTextReport.n(.nan) == "an unknown number of")
  }
}
