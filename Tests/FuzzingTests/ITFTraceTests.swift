import Foundation
import Fuzzing
import Testing

/// The ITF reader and writer: traces this tool writes read back as the same values, and a
/// trace written by Apalache reads as the format intends.
@Suite("ITF traces")
struct ITFTraceTests {
  @Test("every kind of value survives a write and a read")
  func roundTrip() throws {
    let state = ITFTrace.State(
      meta: ["index": .int(0)],
      values: [
        "n": .int(3), "big": .int("-123456789012345678901234567890"), "b": .bool(true), "s": .string("SMS"),
        "xs": .list([.int(1), .int(2)]), "set": .set([.string("a")]), "tup": .tuple([.bool(false), .int(0)]),
        "m": .map([ITFValue.MapEntry(key: .string("k"), value: .int(7))]), "r": .record(["f": .string("v")]),
        "u": .unserializable("λx. x"),
      ])
    let trace = ITFTrace(meta: ["format": .string("ITF")], vars: ["n", "big", "b"], states: [state], loop: 0)
    let data = try JSONEncoder().encode(trace)
    let text = try #require(String(data: data, encoding: .utf8))
    #expect(text.contains(##"{"#bigint":"3"}"##))
    #expect(try ITFTrace.read(data) == trace)
  }

  @Test("a malformed #bigint is an error, not a string")
  func malformed() {
    let text = ##"{"#meta": {}, "vars": ["x"], "states": [{"#meta": {"index": 0}, "x": {"#bigint": "3a"}}]}"##
    #expect(throws: (any Error).self) { try ITFTrace.read(Data(text.utf8)) }
  }

  /// Shortened from `tests/fixtures/TestInsufficientSuccess9.itf.json` of
  /// informalsystems/itf-rs, a trace written by Apalache ("Created by Apalache on Sat Sep 24
  /// 20:45:34 CEST 2022"): nested `#map`s of `#bigint`s, records, and a plain JSON number.
  static let apalacheTrace = #"""
    {
      "#meta": {
        "format": "ITF",
        "format-description": "https://apalache.informal.systems/docs/adr/015adr-trace.html",
        "description": "Created by Apalache on Sat Sep 24 20:45:34 CEST 2022"
      },
      "vars": ["outcome", "balances", "action", "step"],
      "states": [
        {
          "#meta": { "index": 0 },
          "action": {
            "balances": { "#map": [["Carol", { "#map": [["atom", { "#bigint": "0" }]] }]] },
            "tag": "init"
          },
          "balances": {
            "#map": [
              ["Carol", { "#map": [["atom", { "#bigint": "0" }], ["muon", { "#bigint": "0" }]] }],
              ["Alice", { "#map": [["atom", {
                "#bigint": "57896044618658097711785492504343953926634992332820282019728792003956564819967" }]] }]
            ]
          },
          "outcome": "",
          "step": 0
        },
        {
          "#meta": { "index": 1 },
          "action": {
            "coins": [{ "amount": { "#bigint": "2" }, "denom": "atom" }],
            "receiver": "Eve", "sender": "Alice", "tag": "send"
          },
          "balances": { "#map": [["Eve", { "#map": [["atom", { "#bigint": "2" }]] }]] },
          "outcome": "SUCCESS",
          "step": 1
        }
      ]
    }
    """#

  @Test("a trace written by Apalache reads as its variables' values")
  func apalache() throws {
    let trace = try ITFTrace.read(Data(Self.apalacheTrace.utf8))
    #expect(trace.vars == ["outcome", "balances", "action", "step"])
    #expect(trace.meta["format"] == .string("ITF"))
    #expect(trace.states.map { $0.meta["index"]?.intValue } == [0, 1])
    let first = trace.states[0].values
    #expect(first["step"]?.intValue == 0)
    #expect(first["outcome"] == .string(""))
    guard case .map(let banks)? = first["balances"], case .map(let alice) = banks[1].value else {
      Issue.record("balances is not a map of maps: \(String(describing: first["balances"]))")
      return
    }
    #expect(banks.map(\.key) == [.string("Carol"), .string("Alice")])
    #expect(alice[0].value == .int("57896044618658097711785492504343953926634992332820282019728792003956564819967"))
    #expect(alice[0].value.intValue == nil, "too large for Int, kept as digits")
    guard case .record(let action)? = trace.states[1].values["action"], case .list(let coins)? = action["coins"],
      case .record(let coin)? = coins.first
    else {
      Issue.record("action is not a record with a list of coins")
      return
    }
    #expect(coin["amount"]?.intValue == 2)
    #expect(action["tag"] == .string("send"))
  }

  @Test("a version 1 file (rendered strings in its trace) still reads")
  func versionOne() throws {
    let file = try CounterexampleFile.read("Tests/Fixtures/counterexample-version1.json")
    #expect(file.version == 1)
    #expect(!file.fuzzCase.calls.isEmpty)
    #expect(file.itf.states.count == file.calls.count + 1)
    #expect(file.itf.states.last?.values["step"] == .string(file.calls.last?.stepBefore ?? ""))
  }

  @Test("a version 2 file (no adapter member) still reads, as a case of the reference client in process")
  func versionTwo() throws {
    let file = try CounterexampleFile.read("Tests/Fixtures/counterexample-version2.json")
    #expect(file.version == 2)
    #expect(file.adapter == nil)
    #expect(file.client == "userKeptAfterSignOut")
    #expect(file.itf.states.count == file.calls.count + 1)
  }

  @Test("the saved counterexamples are ITF traces of the model's variables")
  func corpus() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: "counterexamples").filter { $0.hasSuffix(".json") }
    #expect(!names.isEmpty)
    for name in names {
      let file = try CounterexampleFile.read("counterexamples/\(name)")
      #expect(file.version >= 2, "\(name)")
      #expect(file.itf.states.count == file.calls.count + 1, "\(name)")
      #expect(file.itf.vars.contains("flow.retries"), "\(name)")
    }
  }
}
