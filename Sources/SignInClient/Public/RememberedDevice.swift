/// A device Cognito remembers for a user, as the client keeps it: the keys of the
/// `AuthenticationResult.NewDeviceMetadata` that ended an earlier sign-in, and the random
/// password whose verifier the client sent in ConfirmDevice. A harness gives the client its
/// devices at init (`SignInClient.init(…devices:)`) or with `remember(_:for:)`, and reads what
/// it remembered with `rememberedDevice(for:)`; Amplify keeps the same three values in its
/// credential store, by the username the caller signed in with.
package struct RememberedDevice: Sendable, Equatable {
  /// The device key (DEVICE_KEY), e.g. `us-east-1_0b8e…`.
  package var key: String
  /// The device group key; it signs in place of the pool name in device SRP.
  package var groupKey: String
  /// The device's random password (base64 of 40 random bytes); never sent to Cognito.
  package var password: String

  package init(key: String, groupKey: String, password: String) {
    self.key = key
    self.groupKey = groupKey
    self.password = password
  }
}
