// The policy store's reload: the file named stays the file; without one, the
// configuration directory's file is looked for afresh each time.

import DaemonLifecycle
import Foundation
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
}
