import Testing

@testable import SignInModel

@Suite("The guard language")
struct ExpressionTests {
  let scope: ExprScope = {
    let variables = [
      Variable(name: "pool.mfa", domain: .enumeration(["off", "optional", "required"]), scope: .configuration),
      Variable(name: "user.phone", domain: .bool, scope: .configuration),
      Variable(name: "flow.tries", domain: .range(0...4), scope: .flow),
    ]
    return ExprScope(variables: variables, variableIndex: ["pool.mfa": 0, "user.phone": 1, "flow.tries": 2])
  }()

  func evaluate(_ text: String, _ values: [Int]) throws -> Int {
    try ExprTypeChecker(scope: scope).check(text, expecting: .bool).evaluate(values)
  }

  @Test(
    "operators, precedence and enumeration values",
    arguments: [
      ("pool.mfa == required && user.phone", [2, 1, 0], 1),
      ("pool.mfa == required && user.phone", [2, 0, 0], 0),
      ("pool.mfa in [optional, required] || flow.tries >= 3", [0, 0, 3], 1),
      ("not user.phone => flow.tries + 1 < 2", [0, 0, 0], 1),
      ("!user.phone => flow.tries + 1 < 2", [0, 0, 1], 0),
      ("(pool.mfa != off) and (flow.tries - 1 == 0)", [1, 0, 1], 1),
      ("flow.tries != -1 && flow.tries - 1 == -1", [0, 0, 0], 1),
      ("flow.tries - -2 == 3 && flow.tries + -1 >= 0", [0, 0, 1], 1),
      ("flow.tries - -2 == 3", [0, 0, 2], 0),
      ("flow.tries > -2147483648 && flow.tries < 2147483647", [0, 0, 4], 1),
    ])
  func evaluates(text: String, values: [Int], expected: Int) throws {
    #expect(try evaluate(text, values) == expected)
  }

  @Test("reading an unassigned variable throws with its index, so the checker can fork")
  func unassignedRead() {
    #expect(throws: UnassignedVariable.self) { try evaluate("user.phone", [0, unassigned, 0]) }
    #expect((try? evaluate("pool.mfa == off || user.phone", [0, unassigned, 0])) == 1, "short-circuit skips the read")
  }

  @Test("three-valued evaluation knows a value only when the assigned variables decide it")
  func partialEvaluation() throws {
    let e = try ExprTypeChecker(scope: scope).check("pool.mfa == off || user.phone", expecting: .bool)
    #expect(e.evaluatePartially([unassigned, 1, 0]) == 1)
    #expect(e.evaluatePartially([unassigned, 0, 0]) == nil)
    #expect(e.evaluatePartially([1, 0, 0]) == 0)
  }

  @Test(
    "type errors name what is wrong and where",
    arguments: [
      ("user.phone + 1 == 2", "'+' needs integer operands, not bool and int"),
      ("pool.mfa == 3", "cannot compare one of [off, optional, required] with int"),
      ("pool.mfa == requird", "'requird' is not one of [off, optional, required]; did you mean 'required'?"),
      ("flow.trys < 2", "unknown name 'flow.trys'; did you mean 'flow.tries'?"),
      ("user.phone &&", "expected a value, a name or '(' but found 'end of expression'"),
      (
        "flow.tries == -flow.tries",
        "expected an integer after '-' (a negative literal; write 0 - x to negate a name) but found 'flow.tries'"
      ),
      (
        "flow.tries == -",
        "expected an integer after '-' (a negative literal; write 0 - x to negate a name) but found 'end of expression'"
      ),
      (
        "flow.tries > -2147483649",
        "the integer -2147483649 is outside -2147483648...2147483647, the range of integers in a model"
      ),
      (
        "flow.tries < 2147483648",
        "the integer 2147483648 is outside -2147483648...2147483647, the range of integers in a model"
      ),
      ("offered(SMS)", "offered(SMS) is only allowed in the responses of a step that declares 'offers'"),
      ("flow.tries", "expected a bool expression but this is int"),
    ])
  func typeErrors(text: String, message: String) {
    #expect(throws: ExpressionError.self) { _ = try ExprTypeChecker(scope: scope).check(text, expecting: .bool) }
    do {
      _ = try ExprTypeChecker(scope: scope).check(text, expecting: .bool)
    } catch {
      #expect(error.message == message)
    }
  }

  @Test("an integer literal out of range is reported where it starts: a negative one at its '-'")
  func literalOffsets() {
    for (text, offset) in [("flow.tries > -2147483649", 13), ("flow.tries < 2147483648", 13)] {
      do {
        _ = try ExprTypeChecker(scope: scope).check(text, expecting: .bool)
        Issue.record("\(text) was accepted")
      } catch {
        #expect(error.offset == offset, "\(text): \(error)")
      }
    }
  }

  @Test("suggestions come from the closest name by edit distance")
  func suggestions() {
    #expect(
      Suggestions.closest(to: "confirmSignInWithSMSCode", among: ["confirmSignInWithSMSMFACode", "done"])
        == "confirmSignInWithSMSMFACode")
    #expect(Suggestions.closest(to: "zzz", among: ["confirmSignInWithSMSMFACode"]) == nil)
    #expect(Suggestions.distance("kitten", "sitting") == 3)
  }
}
