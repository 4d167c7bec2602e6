import ModelChecking
import Testing

/// `IntTable` answers as a `Dictionary` would, through growth and removals (the explicit search
/// removes the nodes of a state it processes again after a fork).
@Suite("IntTable")
struct IntTableTests {
  @Test(
    "random inserts, lookups and removals agree with a Dictionary",
    arguments: [(UInt64(1), 40), (2, 400), (3, 5_000)])
  func agreesWithDictionary(seed: UInt64, keyRange: Int) {
    var rng = SplitMix64(seed: seed)
    var table = IntTable(capacity: 4)
    var reference: [Int: Int] = [:]
    for step in 0..<20_000 {
      // Keys cluster (a small range), so probe runs are long and removals move keys back.
      let key = Int(rng.next() % UInt64(keyRange)) * 64 - keyRange
      switch rng.next() % 3 {
      case 0:
        let inserted = table.insert(key, step)
        #expect(inserted == (reference[key] == nil))
        if reference[key] == nil { reference[key] = step }
      case 1:
        table.remove(key)
        reference[key] = nil
      default:
        #expect(table[key] == reference[key])
      }
      #expect(table.count == reference.count)
    }
    for (key, value) in reference { #expect(table[key] == value) }
    #expect(Set(table.keysInTable) == Set(reference.keys))
  }

  @Test("removing a key that is not there changes nothing")
  func removeAbsent() {
    var table = IntTable()
    table.insert(7, 1)
    table.remove(8)
    #expect(table.count == 1 && table[7] == 1)
  }
}
