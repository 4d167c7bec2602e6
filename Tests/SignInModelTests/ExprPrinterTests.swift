import Testing

@testable import SignInModel

@Suite("Printing expressions back into the guard language")
struct ExprPrinterTests {
  static let files = ["models/2023-swift.yaml", "models/2024-flutter.yaml", "models/2026-all-platforms.yaml"]

  /// Every loaded expression of a model: constraints, option conditions, offers, rule guards and updates.
  static func expressions(_ model: SignInModel) -> [Expr] {
    var all = model.constraints.map(\.expr) + [model.canSignIn, model.mfaRequired].compactMap { $0 }
    all += model.optionSets.flatMap { $0.options.map(\.usable) }
    all += model.steps.compactMap(\.offers).flatMap { $0.conditions.map(\.when) }
    let rules = model.steps.flatMap { $0.responses.flatMap(\.rules) } + model.routes.flatMap(\.rules)
    all += rules.map(\.guardExpr)
    return all
  }

  @Test("Parsing the printed text gives the same expression again, in both operator styles", arguments: files)
  func roundTrip(file: String) throws {
    let model = try ModelLoader.load(file: file)
    let scope = ExprScope(
      variables: model.variables,
      variableIndex: Dictionary(uniqueKeysWithValues: model.variables.enumerated().map { ($1.name, $0) }))
    let checker = ExprTypeChecker(scope: scope)
    for words in [false, true] {
      let printer = ExprPrinter(model: model, words: words)
      for expr in Self.expressions(model) {
        let simplified = expr.simplified()
        let text = printer.render(simplified)
        let parsed = try checker.check(text, expecting: .bool)
        #expect(parsed == simplified, "\(text)")
      }
    }
  }

  @Test("Precedence, enumeration values, booleans and arithmetic print as the language writes them")
  func spelling() {
    let variables = [
      Variable(name: "pool.mfa", domain: .enumeration(["off", "optional", "required"]), scope: .configuration),
      Variable(name: "user.phone", domain: .bool, scope: .configuration),
      Variable(name: "flow.tries", domain: .range(0...4), scope: .flow),
    ]
    let printer = ExprPrinter(variables: variables)
    let mfa = Expr.variable(0)
    let phone = Expr.variable(1)
    let tries = Expr.variable(2)
    #expect(
      printer.render(.and([.or([phone, .equal(mfa, .constant(2))]), .not(phone)]))
        == "(user.phone || pool.mfa == required) && !user.phone")
    #expect(printer.render(.implies(.implies(phone, phone), phone)) == "(user.phone => user.phone) => user.phone")
    #expect(printer.render(.member(mfa, [0, 1])) == "pool.mfa in [off, optional]")
    #expect(printer.render(.equal(phone, .true)) == "user.phone == true")
    #expect(
      printer.render(.less(.subtract(tries, .subtract(tries, .constant(1))), .constant(4)))
        == "flow.tries - (flow.tries - 1) < 4")
    #expect(printer.render(tries, asValueOf: .range(0...4)) == "flow.tries")
    #expect(printer.render(.constant(1), asValueOf: .bool) == "true")
    #expect(printer.render(.and([])) == "true")
    #expect(
      ExprPrinter(variables: variables, words: true).render(.not(.and([phone, .or([phone, phone])])))
        == "not (user.phone and (user.phone or user.phone))")
  }
}
