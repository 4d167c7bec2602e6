/// A map from integers to integers by open addressing (linear probing), for the searches'
/// per-state and per-transition lookups: a multiplicative hash instead of `Hasher`'s SipHash,
/// which was a quarter of a diff's time. A value type (copy on write), as the searches it
/// serves are copied on a fork. Keys are any integer but `Int.min`.
package struct IntTable {
  private static let empty = Int.min
  private var keys: [Int]
  private var values: [Int]
  package private(set) var count = 0

  package init(capacity: Int = 16) {
    var size = 16
    while size < 2 * capacity { size *= 2 }
    keys = [Int](repeating: Self.empty, count: size)
    values = [Int](repeating: 0, count: size)
  }

  /// The value of `key` (never `Int.min`), if any.
  package subscript(key: Int) -> Int? {
    var slot = Self.slot(key, keys.count)
    while true {
      let k = keys[slot]
      if k == key { return values[slot] }
      if k == Self.empty { return nil }
      slot = (slot + 1) & (keys.count - 1)
    }
  }

  /// Sets `key` to `value` unless it has a value; true when it was added.
  @discardableResult
  package mutating func insert(_ key: Int, _ value: Int) -> Bool {
    if 2 * (count + 1) > keys.count { grow() }
    var slot = Self.slot(key, keys.count)
    while true {
      let k = keys[slot]
      if k == key { return false }
      if k == Self.empty {
        keys[slot] = key
        values[slot] = value
        count += 1
        return true
      }
      slot = (slot + 1) & (keys.count - 1)
    }
  }

  /// Every key, in slot order.
  package var keysInTable: [Int] {
    var found: [Int] = []
    found.reserveCapacity(count)
    for k in keys where k != Self.empty { found.append(k) }
    return found
  }

  private static func slot(_ key: Int, _ size: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (size - 1)
  }

  /// Removes `key` and its value, if there; the keys after it in its probe run move back
  /// (Knuth's algorithm R), so every lookup still finds its key.
  package mutating func remove(_ key: Int) {
    let mask = keys.count - 1
    var slot = Self.slot(key, keys.count)
    while keys[slot] != key {
      if keys[slot] == Self.empty { return }
      slot = (slot + 1) & mask
    }
    keys[slot] = Self.empty
    count -= 1
    var next = (slot + 1) & mask
    while keys[next] != Self.empty {
      let home = Self.slot(keys[next], keys.count)
      // The key at `next` moves to the hole unless its home lies cyclically in (slot, next].
      let stays = slot <= next ? (slot < home && home <= next) : (slot < home || home <= next)
      if !stays {
        keys[slot] = keys[next]
        values[slot] = values[next]
        keys[next] = Self.empty
        slot = next
      }
      next = (next + 1) & mask
    }
  }

  private mutating func grow() {
    let old = (keys, values)
    keys = [Int](repeating: Self.empty, count: old.0.count * 2)
    values = [Int](repeating: 0, count: old.0.count * 2)
    count = 0
    for (k, v) in zip(old.0, old.1) where k != Self.empty { _ = insert(k, v) }
  }
}
