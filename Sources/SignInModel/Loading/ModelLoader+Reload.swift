extension ModelLoader {
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
