// What an actor hop costs (docs/guide/figures.md, "How little the actors cost"): a round trip
// from a task to actor A, on to actor B and back, with A and B on executors of their own, then
// with both on one executor (`Host`'s). Not part of the package:
//   swiftc -O -parse-as-library scripts/actor-hop-bench.swift -o /tmp/actor-hop && /tmp/actor-hop
import Dispatch
actor B { var n = 0; func work() -> Int { n += 1; return n } }
actor A {
  let b: B
  init(b: B) { self.b = b }
  func call() async -> Int { await b.work() }
}
actor Host {}
actor B2 { let host: Host; var n = 0; init(host: Host) { self.host = host }
  nonisolated var unownedExecutor: UnownedSerialExecutor { host.unownedExecutor }
  func work() -> Int { n += 1; return n } }
actor A2 { let host: Host; let b: B2
  init(host: Host, b: B2) { self.host = host; self.b = b }
  nonisolated var unownedExecutor: UnownedSerialExecutor { host.unownedExecutor }
  func call() async -> Int { await b.work() } }
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
func bench() async {
  let N = 2_000_000
  for _ in 0..<3 {
  var t = now(); let a = A(b: B()); var s = 0
  for _ in 0..<N { s &+= await a.call() }
  let sep = (now() - t) / Double(N) * 1e9
  t = now(); let h = Host(); let a2 = A2(host: h, b: B2(host: h))
  for _ in 0..<N { s &+= await a2.call() }
  let shared = (now() - t) / Double(N) * 1e9
  print("separate \(Int(sep)) ns/call, shared \(Int(shared)) ns/call \(s % 2)")
  }
}
@main struct Main { static func main() async { await Task.detached { await bench() }.value } }
