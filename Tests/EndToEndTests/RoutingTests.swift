// Routing end to end: acctl tells the daemon what the accessories do, and
// the sound server (read with pactl) shows the default and the streams
// move.

import AccessoryControl
import Foundation
import TestSupport
import Testing

@Suite("Routing, end to end")
struct RoutingTests {
  @Test(
    "Putting the buds on moves the default and the streams to them",
    arguments: SoundServerKind.allCases)
  func wornTakesTheOutput(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      try await rig.staysRouted(to: "speaker", for: .milliseconds(500))

      let updated = try await rig.json(
        ["update", budsAddress, "--placement", "inEar"])
      #expect(
        updated["registration"]?["configuration"]?["devicePlacement"]
          == "inEar")
      if kind == .pulseAudio {
        // The answer comes after the server acknowledged the route;
        // PulseAudio applies it before acknowledging. (PipeWire's session
        // manager sets the default later.)
        let right = try await rig.observe()
        #expect(
          right.isRouted(to: "buds", streams: 3),
          "not applied when acctl returned: \(right)")
      }
      try await rig.eventuallyRouted(to: "buds")

      let route = try await rig.json(["route"])
      #expect(route["output"] == "buds")
      #expect(route["pending"] == false)
      #expect(route["soundServer"] == "connected")
      let current = try await rig.json(["current", budsAddress])
      #expect(current["output"] == "buds")
      #expect(current["state"] == "authorized")
    }
  }

  @Test(
    "Taking the buds off gives the output back after the grace time",
    arguments: SoundServerKind.allCases)
  func offHeadReturnsToThePreviousOutput(_ kind: SoundServerKind) async throws {
    // A grace time that the checks within it cannot outlast however busy
    // the machine is; a policy with a short one then ends it.
    let policy = try DaemonFixture.policyText(offHeadGraceSeconds: 600)
    try await withRig(kind, policy: policy) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.eventuallyRouted(to: "buds")

      try await rig.place(budsAddress, "offHead")
      // Within the grace time nothing switches.
      let right = try await rig.observe()
      #expect(
        right.isRouted(to: "buds", streams: 3),
        "switched within the grace time: \(right)")
      let explain = try await rig.ok(["route", "--explain"])
      #expect(
        explain.stdout.contains("No change"),
        "no hold in the explanation:\n\(explain.stdout)")

      try rig.daemon.writePolicy(
        try DaemonFixture.policyText(offHeadGraceSeconds: 0.3))
      rig.daemon.signal(SIGHUP)
      try await rig.eventuallyRouted(to: "speaker", within: .seconds(10))
      let route = try await rig.json(["route"])
      #expect(route["output"] == "speaker")
    }
  }

  @Test(
    "Of two accessories, the one put on last wins",
    arguments: SoundServerKind.allCases)
  func lastPutOnWins(_ kind: SoundServerKind) async throws {
    try await withRig(kind, phones: true) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      try await rig.pairAndRegister(phonesAddress, placement: "offHead")
      try await rig.staysRouted(to: "speaker", for: .milliseconds(300))

      try await rig.place(budsAddress, "inEar")
      try await rig.eventuallyRouted(to: "buds")
      try await rig.place(phonesAddress, "onHead")
      try await rig.eventuallyRouted(to: "phones")
      // Taking off the buds, which do not have the output, changes nothing.
      try await rig.place(budsAddress, "offHead")
      try await rig.staysRouted(to: "phones", for: .milliseconds(700))
      // Putting them back on makes them the last put on.
      try await rig.place(budsAddress, "inEar")
      try await rig.eventuallyRouted(to: "buds")
      try await rig.place(phonesAddress, "offHead")
      try await rig.staysRouted(to: "buds", for: .milliseconds(700))
    }
  }

  @Test(
    "Multipoint: primary takes the output, secondary per the policy",
    arguments: SoundServerKind.allCases, [false, true])
  func multipointFollowsThePolicy(
    _ kind: SoundServerKind, takeWhenSecondary: Bool
  ) async throws {
    let policy = try DaemonFixture.policyText(
      takeWhenSecondary: takeWhenSecondary)
    try await withRig(kind, policy: policy) { rig in
      try await rig.pairAndRegister(
        budsAddress, placement: "inEar",
        extra: ["--primary-source", otherHost, "--secondary-source", thisHost])
      if takeWhenSecondary {
        try await rig.eventuallyRouted(to: "buds")
      } else {
        try await rig.staysRouted(to: "speaker", for: .milliseconds(500))
        let explain = try await rig.ok(["route", "--explain"])
        #expect(
          explain.stdout.contains(
            "this host is only its secondary audio source; \(otherHost) is "
              + "primary"),
          "\(explain.stdout)")
      }

      // This host becomes the primary source: the buds play here.
      try await rig.ok([
        "update", budsAddress, "--primary-source", thisHost,
        "--secondary-source", otherHost,
      ])
      try await rig.eventuallyRouted(to: "buds")

      // Only other hosts: never here, whatever the policy.
      try await rig.ok([
        "update", budsAddress, "--primary-source", otherHost,
        "--secondary-source", "none",
      ])
      try await rig.eventuallyRouted(to: "speaker")
      let explain = try await rig.ok(["route", "--explain"])
      #expect(
        explain.stdout.contains(
          "its audio sources are other hosts (\(otherHost))"),
        "\(explain.stdout)")
    }
  }

  @Test(
    "A stream pinned to the old output moves too, before update answers",
    arguments: SoundServerKind.allCases)
  func pinnedStreamMovesToo(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      try await rig.eventuallyRouted(to: "speaker")
      // A player that asked for the speaker by name: it does not follow
      // the default, so the default change leaves it behind.
      let pinned = try await rig.server.startStreams(1, on: "speaker")
      defer { pinned.forEach { $0.stop() } }
      try await rig.eventuallyRouted(to: "speaker", streams: 4)

      try await rig.place(budsAddress, "inEar")
      if kind == .pulseAudio {
        // The followers moved with the default; the pinned one was moved
        // once the server showed it stayed, and all before the answer.
        let right = try await rig.observe()
        #expect(
          right.isRouted(to: "buds", streams: 4),
          "not all moved when acctl returned: \(right)")
      }
      try await rig.eventuallyRouted(to: "buds", streams: 4)
      try await rig.staysRouted(to: "buds", streams: 4, for: .milliseconds(500))
    }
  }

  @Test(
    "The person's own choice of output is respected",
    arguments: SoundServerKind.allCases)
  func manualChoiceIsRespected(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.eventuallyRouted(to: "buds")

      // The person picks the speaker in their sound settings.
      try await rig.server.setDefaultSink("speaker")
      try await rig.eventuallyRouted(to: "speaker")
      try await rig.staysRouted(to: "speaker", for: .seconds(1))
      let route = try await rig.json(["route"])
      #expect(route["output"] == "speaker")
      #expect(
        route["summary"]?.stringValue?.contains("the person's own choice")
          == true, "\(route)")

      // Until an accessory changes: the buds come off and on again.
      try await rig.place(budsAddress, "offHead")
      try await rig.staysRouted(to: "speaker", for: .milliseconds(500))
      try await rig.place(budsAddress, "inEar")
      try await rig.eventuallyRouted(to: "buds")
    }
  }
}
