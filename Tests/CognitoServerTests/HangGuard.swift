import Foundation

/// How long a test's HTTP request may wait for an answer before it fails: a guard against a
/// hang, not a timing condition. The tests share two cores and Swift's cooperative threads with
/// Z3 and the explicit search in the same process, so an answer can wait minutes for a thread.
let hangGuard: TimeInterval = 600
