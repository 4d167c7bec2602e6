import CognitoServer
import CognitoWire
import Foundation
import SimulatedCognito
import Yams

/// `serve --users FILE`: the users of the first pool (schema `schemas/serve-users.v1.schema.json`).
///
/// ```yaml
/// users:
///   - username: alice
///     password: Passw0rd!
///     set: {user.phone: true, user.smsEnabled: true}
///     totpSecret: JBSWY3DPEHPK3PXP
///     devices: [{key: "us-east-1_…", groupKey: "-…", password: "…"}]
/// ```
/// Every error names FILE:LINE.
struct UsersFile {
  struct Entry {
    var user: SimulatedUserPool.User
    var settings: [(name: String, value: String)]
    /// The line of each of `settings`.
    var settingLines: [Int]
    /// The line of the entry (for errors found later, such as a broken constraint).
    var line: Int

    /// The line to name for a problem with the entry: that of the setting the message names
    /// (`'NAME'`), else the entry's.
    func line(for message: String) -> Int {
      settings.indices.first { message.contains("'\(settings[$0].name)'") }.map { settingLines[$0] } ?? line
    }
  }

  var entries: [Entry]

  struct Problem: Error, CustomStringConvertible {
    let description: String
  }

  /// The largest users file read (16 MiB).
  static let maxBytes = 16 << 20

  static func load(_ path: String) throws(Problem) -> UsersFile {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Problem(description: "\(path): cannot read the users file")
    }
    guard data.count <= maxBytes else { throw Problem(description: "\(path): over \(maxBytes) bytes") }
    guard let text = String(data: data, encoding: .utf8) else {
      throw Problem(description: "\(path): not UTF-8 text")
    }
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch let error as YamlError {
      throw Problem(description: "\(path): not YAML: \(error)")
    } catch {
      throw Problem(description: "\(path): not YAML: \(error)")
    }
    func fail(_ node: Node?, _ message: String) -> Problem {
      Problem(description: "\(path):\(node?.mark.map { String($0.line) } ?? "1"): \(message)")
    }
    guard let root, let top = root.mapping else { throw fail(root, "the file must be a mapping with 'users:'") }
    for (key, _) in top where key.string != "users" {
      throw fail(key, "unknown key '\(key.string ?? "?")' (the file has one key, users:)")
    }
    guard let usersNode = top["users"], let list = usersNode.sequence else {
      throw fail(root, "'users:' must be a list of users")
    }
    var entries: [Entry] = []
    var seen: Set<String> = []
    for item in list {
      guard let map = item.mapping else { throw fail(item, "each user is a mapping with username: and password:") }
      let known: Set<String> = ["username", "password", "set", "totpSecret", "devices"]
      for (key, _) in map where !known.contains(key.string ?? "") {
        throw fail(key, "unknown key '\(key.string ?? "?")' (a user has \(known.sorted().joined(separator: ", ")))")
      }
      guard let username = map["username"]?.scalar?.string, !username.isEmpty, username.count <= 128 else {
        throw fail(item, "username: a string of 1 to 128 characters is required")
      }
      guard seen.insert(username).inserted else { throw fail(map["username"], "user '\(username)' is listed twice") }
      guard let password = map["password"]?.scalar?.string, !password.isEmpty else {
        throw fail(item, "password: a string is required for '\(username)'")
      }
      var user = SimulatedUserPool.User(username: username, password: password)
      var settings: [(name: String, value: String)] = []
      var settingLines: [Int] = []
      if let set = map["set"] {
        guard let pairs = set.mapping else { throw fail(set, "set: a mapping of NAME: VALUE") }
        for (key, value) in pairs {
          guard let name = key.string, let text = value.scalar?.string else {
            throw fail(key, "set: each entry is NAME: VALUE")
          }
          guard name.hasPrefix("user.") else {
            throw fail(key, "set: '\(name)' is not a user. variable (pool variables come from --set)")
          }
          if name == "user.exists" {
            throw fail(
              key, "set: user.exists is not a user's setting: every listed user exists (sign in with an unlisted name)")
          }
          settings.append((name, text))
          settingLines.append(key.mark?.line ?? item.mark?.line ?? 1)
        }
      }
      if let secret = map["totpSecret"] {
        guard case .success(let given) = UserEntry.totpSecret(secret.scalar.map { .string($0.string) }), let given
        else { throw fail(secret, "totpSecret: base32 (A-Z, 2-7), at least 16 characters") }
        user.totpSecret = given
      }
      if let devices = map["devices"] {
        guard let items = devices.sequence else { throw fail(devices, "devices: a list of {key, groupKey, password}") }
        for device in items {
          guard let d = device.mapping, let key = d["key"]?.scalar?.string, let group = d["groupKey"]?.scalar?.string,
            let pw = d["password"]?.scalar?.string, !key.isEmpty, !group.isEmpty, !pw.isEmpty
          else { throw fail(device, "a device needs key, groupKey and password (strings)") }
          user.devices.append(RememberedDeviceSecret(key: key, groupKey: group, password: pw))
        }
      }
      entries.append(Entry(user: user, settings: settings, settingLines: settingLines, line: item.mark?.line ?? 1))
    }
    return UsersFile(entries: entries)
  }
}
