// Reload means reload: a daemon started without a policy file of its own
// looks afresh, at each reload, for $XDG_CONFIG_HOME/accessoryd/policy.json5,
// as the README's recipe (copy default.json5 there, edit, reload) expects;
// it says which file is now in use, and acctl doctor names a file there the
// daemon has not read.

import AccessoryControl
import Foundation
import TestSupport
import Testing

@Suite("Reloading the policy, end to end")
struct PolicyReloadTests {
  @Test(
    "A policy file made after the start is read at reload; gone, the built-in default is back"
  )
  func reloadLooksAfresh() async throws {
    let server = try await SoundServer.start(
      .pulseAudio, sinks: sinks(.pulseAudio, phones: false))
    defer { server.stop() }
    let daemon = try await DaemonFixture.start(
      on: server, policyInConfigHome: true)
    defer { daemon.shutDown() }
    let before = try decodeJSON(
      try await daemon.acctl(["policy", "show", "--json"]).stdout)
    #expect(before["path"] == .null, "\(before)")

    // The person copies the default and edits it.
    let edited = try DaemonFixture.policyText().replacingOccurrences(
      of: "offHeadGraceSeconds: 0.3,", with: "offHeadGraceSeconds: 7,"
    ).replacingOccurrences(
      of: "description: \"", with: "description: \"Edited: ")
    try daemon.writePolicy(edited)

    // The doctor names the file the daemon has not read.
    let unread = try await daemon.acctl(["doctor", "--json"])
    let checks = try decodeJSON(unread.stdout)["checks"]
    guard case .array(let list)? = checks else {
      throw RigFailure("doctor printed no checks:\n\(unread)")
    }
    let policy = list.first { $0["check"] == "policy" }
    #expect(policy?["result"] == "problem", "\(unread)")
    #expect(
      policy?["detail"]?.stringValue?.contains(daemon.policyPath) == true,
      "\(unread)")
    #expect(
      policy?["fix"]?.stringValue?.contains("acctl policy reload") == true,
      "\(unread)")

    // acctl policy reload reads it and says so.
    let reloaded = try await daemon.acctl(["policy", "reload"])
    #expect(reloaded.status == 0, "\(reloaded)")
    #expect(
      reloaded.stdout.contains(
        "Policy reloaded: the daemon uses '\(daemon.policyPath)': Edited: "),
      "\(reloaded)")
    let shown = try decodeJSON(
      try await daemon.acctl(["policy", "show", "--json"]).stdout)
    #expect(shown["path"]?.stringValue == daemon.policyPath)
    #expect(
      shown["text"]?.stringValue?.contains("offHeadGraceSeconds: 7,") == true)
    let status = try decodeJSON(
      try await daemon.acctl(["status", "--json"]).stdout)
    #expect(status["policyPath"]?.stringValue == daemon.policyPath, "\(status)")

    // A bad edit is refused with exit 78; the daemon keeps the policy.
    try daemon.writePolicy("{ version: 1, placement: { earbudsWorn: 3 } }")
    let refused = try await daemon.acctl(["policy", "reload"])
    #expect(refused.status == 78, "\(refused)")
    #expect(refused.stderr.contains("earbudsWorn"), "\(refused)")
    // It says which policy stays, and status no longer names the file as
    // if its text now were in use, until a reload succeeds.
    #expect(
      refused.stderr.contains(
        "the daemon keeps the policy in force: '\(daemon.policyPath)' as "
          + "read before"), "\(refused)")
    #expect(
      try decodeJSON(
        try await daemon.acctl(["policy", "show", "--json"]).stdout)["path"]?
        .stringValue == daemon.policyPath)
    let statusText = try await daemon.acctl(["status"]).stdout
    #expect(
      statusText.contains(
        "\(daemon.policyPath) (as read before its last reload, which was "
          + "refused: "), "\(statusText)")
    let refusedStatus = try decodeJSON(
      try await daemon.acctl(["status", "--json"]).stdout)
    #expect(
      refusedStatus["policyRefused"]?.stringValue?.contains("earbudsWorn")
        == true, "\(refusedStatus)")

    // The file removed, SIGHUP: the built-in default, and the log says so.
    try FileManager.default.removeItem(atPath: daemon.policyPath)
    daemon.signal(SIGHUP)
    try await waitUntil("the built-in default in use", within: .seconds(30)) {
      try decodeJSON(
        try await daemon.acctl(["policy", "show", "--json"]).stdout)["path"]
        == .null
    }
    #expect(
      daemon.log.contains("policy.path=built-in"), "\(daemon.logTail())")
    let afterReload = try decodeJSON(
      try await daemon.acctl(["status", "--json"]).stdout)
    #expect(afterReload["policyRefused"] == nil, "\(afterReload)")

    // A bad file there, unread: the doctor gives its error, not a reload.
    try daemon.writePolicy("{ version: 1, placement: { earbudsWorn: 3 } }")
    let bad = try await daemon.acctl(["doctor", "--json"])
    guard case .array(let badChecks)? = try decodeJSON(bad.stdout)["checks"]
    else { throw RigFailure("doctor printed no checks:\n\(bad)") }
    let badPolicy = badChecks.first { $0["check"] == "policy" }
    #expect(
      badPolicy?["detail"]?.stringValue?.contains("is not valid") == true,
      "\(bad)")
    #expect(
      badPolicy?["detail"]?.stringValue?.contains("earbudsWorn") == true,
      "\(bad)")
    #expect(await daemon.stop() == 0)
  }
}
