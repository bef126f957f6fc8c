// The policy store's reload: the file named stays the file; without one, the
// configuration directory's file is looked for afresh each time.

import Foundation
import PolicyFiles
import RoutingCore
import Testing

@Suite("The policy store")
struct PolicyStoreTests {
  private func temporaryPath() -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("policy-store-\(UUID().uuidString).json5").path
  }

  @Test("Without a file named, each reload looks for one afresh")
  func looksAfresh() throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try PolicyStore(path: nil, searchPath: path)
    #expect(store.loaded.path == nil)
    try "{ version: 1, description: \"mine\" }".write(
      toFile: path, atomically: true, encoding: .utf8)
    let loaded = try store.reload()
    #expect(loaded.path == path)
    #expect(store.policy.description == "mine")
    try FileManager.default.removeItem(atPath: path)
    #expect(try store.reload().path == nil)
  }

  @Test("A file named is read again; a bad one is refused and the old stays")
  func namedFile() throws {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    try "{ version: 1, description: \"first\" }".write(
      toFile: path, atomically: true, encoding: .utf8)
    let store = try PolicyStore(path: path)
    try "{ version: 1, description: \"second\" }".write(
      toFile: path, atomically: true, encoding: .utf8)
    #expect(try store.reload().policy.description == "second")
    try "{ version: 1, placement: { earbudsWorn: 3 } }".write(
      toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: PolicyError.self) { try store.reload() }
    #expect(store.policy.description == "second")
  }

  @Test("A switch set while running is kept, outlasts a reload and a restart")
  func switchesAreKept() async throws {
    let policy = temporaryPath()
    let settings = temporaryPath() + ".settings.json"
    defer {
      try? FileManager.default.removeItem(atPath: policy)
      try? FileManager.default.removeItem(atPath: settings)
    }
    try "{ version: 1, media: { pauseWhenTakenOff: true } }".write(
      toFile: policy, atomically: true, encoding: .utf8)
    let store = try PolicyStore(path: policy, settingsPath: settings)
    let policies = store.policies()
    var iterator = policies.makeAsyncIterator()
    _ = await iterator.next()
    let set = try store.set("media.pauseWhenTakenOff", to: false)
    #expect(set.settings == ["media.pauseWhenTakenOff": false])
    #expect(store.policy.pauseWhenTakenOff == false)
    #expect(await iterator.next()?.pauseWhenTakenOff == false)
    #expect(try store.reload().policy.pauseWhenTakenOff == false)

    // A new daemon reads it back; "default" goes back to the file's.
    let restarted = try PolicyStore(path: policy, settingsPath: settings)
    #expect(restarted.settingsProblem == nil)
    #expect(restarted.policy.pauseWhenTakenOff == false)
    try restarted.set("media.pauseWhenTakenOff", to: nil)
    #expect(restarted.policy.pauseWhenTakenOff == true)
    #expect(
      try PolicyStore(path: policy, settingsPath: settings).loaded.settings
        == [:])
  }

  @Test("Only switches can be set; a refused one changes nothing")
  func onlySwitches() throws {
    let settings = temporaryPath() + ".settings.json"
    defer { try? FileManager.default.removeItem(atPath: settings) }
    let store = try PolicyStore(path: nil, settingsPath: settings)
    #expect(
      throws: PolicySettingError.notASwitch(
        "placement.offHeadGraceSeconds", isSetting: true),
      performing: { try store.set("placement.offHeadGraceSeconds", to: true) })
    do {
      try store.set("media.pauseWhenTakenOf", to: false)
      Issue.record("a key that is no setting was taken")
    } catch {
      #expect(error == .notASwitch("media.pauseWhenTakenOf", isSetting: false))
      #expect(error.description.contains("media.pauseWhenTakenOff"), "\(error)")
    }
    #expect(store.loaded.settings.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: settings))
  }

  @Test("A settings file that cannot be written refuses the change")
  func unwritable() throws {
    let directory = temporaryPath()
    try "not a directory".write(
      toFile: directory, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try PolicyStore(
      path: nil, settingsPath: directory + "/settings.json")
    #expect(throws: PolicySettingError.self) {
      try store.set("media.pauseWhenTakenOff", to: false)
    }
    #expect(store.policy.pauseWhenTakenOff == true)
  }

  @Test("A damaged settings file is left as it is, and said")
  func damaged() throws {
    let settings = temporaryPath() + ".settings.json"
    defer { try? FileManager.default.removeItem(atPath: settings) }
    try "{ \"media.pauseWhenTakenOff\": ".write(
      toFile: settings, atomically: true, encoding: .utf8)
    let store = try PolicyStore(path: nil, settingsPath: settings)
    #expect(store.settingsProblem?.contains(settings) == true)
    #expect(store.policy.pauseWhenTakenOff == true)
    #expect(
      try String(contentsOfFile: settings, encoding: .utf8)
        == "{ \"media.pauseWhenTakenOff\": ")
    // The first change keeps the damaged file aside, then writes.
    try store.set("media.pauseWhenTakenOff", to: false)
    #expect(store.settingsProblem == nil)
    let directory = (settings as NSString).deletingLastPathComponent
    let name = (settings as NSString).lastPathComponent
    let aside = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix(name + ".corrupt-") }
    defer {
      for file in aside {
        try? FileManager.default.removeItem(atPath: directory + "/" + file)
      }
    }
    #expect(aside.count == 1)
    #expect(
      try aside.first.map {
        try String(contentsOfFile: directory + "/" + $0, encoding: .utf8)
      } == "{ \"media.pauseWhenTakenOff\": ")
  }

  @Test("Setting the file's own value drops the change; unknown keys are kept")
  func fileValueAndUnknownKeys() throws {
    let settings = temporaryPath() + ".settings.json"
    defer { try? FileManager.default.removeItem(atPath: settings) }
    try #"{"media.someFutureSwitch": true, "media.pauseWhenTakenOff": false}"#
      .write(toFile: settings, atomically: true, encoding: .utf8)
    let store = try PolicyStore(path: nil, settingsPath: settings)
    #expect(store.loaded.settings == ["media.pauseWhenTakenOff": false])
    try store.set("media.pauseWhenTakenOff", to: true)  // the file's value
    #expect(store.loaded.settings.isEmpty)
    #expect(store.policy.pauseWhenTakenOff)
    let written = try JSONDecoder().decode(
      [String: Bool].self,
      from: Data(contentsOf: URL(fileURLWithPath: settings)))
    #expect(written == ["media.someFutureSwitch": true])
  }

  @Test("A set does not read the policy file again")
  func setKeepsTheFileRead() throws {
    let policy = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: policy) }
    try "{ version: 1, description: \"first\" }".write(
      toFile: policy, atomically: true, encoding: .utf8)
    let store = try PolicyStore(path: policy)
    try "{ version: 1, description: \"second\" }".write(
      toFile: policy, atomically: true, encoding: .utf8)
    try store.set("media.pauseWhenTakenOff", to: false)
    #expect(store.policy.description == "first")
    #expect(store.policy.pauseWhenTakenOff == false)
  }
}
