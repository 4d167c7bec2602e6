extension ModelLoader {
  /// The most rules (in steps and routes) a model may have to be copied for another thread by
  /// `copyForThread`: a copy of a bigger model costs more memory than the contention it saves
  /// (a 10,000-route model: 2.8 GB shared, 3.5 GB with copies, and no faster).
  public static let copyRuleLimit = 5_000

  /// `reload(model)` when the model has at most `copyRuleLimit` rules, else nil (threads then
  /// share it).
  public static func copyForThread(_ model: SignInModel) -> SignInModel? {
    let rules =
      model.steps.reduce(0) { $0 + $1.responses.reduce(0) { $0 + $1.rules.count } }
      + model.routes.reduce(0) { $0 + $1.rules.count }
    return rules <= copyRuleLimit ? reload(model) : nil
  }

  /// `model` loaded again from its file: equal to it, sharing no object with it. Threads that
  /// each read their own copy do not contend for the reference counts of shared objects (the
  /// explicit search on two threads over one model ran no faster than on one). nil when the
  /// file cannot be read or no longer holds the model (its content hash differs), and for a
  /// model that was not loaded from its file as is: only give it a model `load(file:)` returned.
  public static func reload(_ model: SignInModel) -> SignInModel? {
    guard let copy = try? load(file: model.file), copy.contentHash == model.contentHash else { return nil }
    return copy
  }
}
