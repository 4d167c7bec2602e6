import SignInModel
import Testing

/// `Domain.bounds` is the least and greatest of `values`, and a value is in the domain exactly
/// when it lies within them (every domain is a range), which the explicit search's domain check reads.
@Suite("Domain bounds")
struct DomainBoundsTests {
  @Test(
    "bounds span the values, and contains agrees with them",
    arguments: [Domain.bool, .range(0...0), .range(-3...4), .enumeration(["a"]), .enumeration(["a", "b", "c"])])
  func boundsSpanValues(domain: Domain) throws {
    let bounds = try #require(domain.bounds)
    #expect(bounds.lowerBound == domain.values.min())
    #expect(bounds.upperBound == domain.values.max())
    for v in (bounds.lowerBound - 2)...(bounds.upperBound + 2) { #expect(domain.contains(v) == bounds.contains(v)) }
  }

  @Test("an empty enumeration has no bounds and contains nothing")
  func emptyEnumeration() {
    #expect(Domain.enumeration([]).bounds == nil)
    #expect(!Domain.enumeration([]).contains(0))
  }
}
