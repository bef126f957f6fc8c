// Routing end to end: acctl tells the daemon what the accessories do, and
// the sound server (read with pactl) shows the default and the streams
// move.

import AccessoryControl
import ConcurrencyHelpers
import Foundation
import SoundServerModel
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
    "Registered, then reported offHead at once: the default never moves",
    arguments: SoundServerKind.allCases)
  func registerThenOffHeadNeverMovesTheDefault(
    _ kind: SoundServerKind
  ) async throws {
    // A wait for the first report that no busy machine outlasts.
    let policy = try DaemonFixture.policyText(firstReportWaitSeconds: 60)
    try await withRig(kind, policy: policy) { rig in
      // An independent client traces every default the server reports.
      let defaults = try await DefaultTrace.start(rig.server)
      defer { defaults.stop() }

      // Apple's documented flow: register with placement, then report.
      try await rig.ok(["pair", budsAddress])
      try await rig.ok([
        "register", budsAddress, "--capabilities", "audioSwitching,placement",
      ])
      try await rig.place(budsAddress, "offHead")
      // A sink made after the updates: once the trace has seen it, it has
      // seen every default change before it.
      try await rig.server.loadNullSink(
        .speaker(name: "marker", description: "Marker"))
      try await waitUntil("the trace to reach the marker", within: .seconds(30))
      { defaults.hasMark }
      #expect(!defaults.seen.contains("buds"), "\(defaults.seen)")
      let now = try await rig.observe()
      #expect(now.isRouted(to: "speaker", streams: 3), "\(now)")
    }
  }

  @Test(
    "route --explain names the switch, not the echo; --history lists the changes",
    arguments: SoundServerKind.allCases)
  func explainAndHistory(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "offHead")
      try await rig.place(budsAddress, "inEar")
      try await rig.eventuallyRouted(to: "buds")
      // The server's events of the switch make the router decide again;
      // the explanation stays with the decision that moved the output.
      let explain = try await rig.ok(["route", "--explain"])
      #expect(
        explain.stdout.contains("because an accessory was updated"),
        "\(explain.stdout)")
      #expect(
        explain.stdout.contains("Studio Buds takes the output"),
        "\(explain.stdout)")

      try await rig.place(budsAddress, "offHead")
      try await rig.eventuallyRouted(to: "speaker")
      let history = try await rig.json(["route", "--history"])
      guard case .array(let decisions)? = history["decisions"] else {
        Issue.record("no decisions in \(history)")
        return
      }
      // Newest first: the fallback after the grace time, then the switch
      // (PipeWire may add a resent default in between, when it did not
      // report the first one).
      func position(_ output: String, _ trigger: String) -> Int? {
        decisions.firstIndex {
          $0["output"] == .string(output) && $0["trigger"] == .string(trigger)
        }
      }
      let fallback = position("speaker", "a grace time ended")
      let switched = position("buds", "an accessory was updated")
      #expect(fallback != nil && switched != nil, "\(history)")
      if let fallback, let switched {
        #expect(fallback < switched, "\(history)")
        #expect(decisions[fallback]["defaultChanged"] == true)
      }
      let text = try await rig.ok(["route", "--history", "5"])
      #expect(text.stdout.hasSuffix("\n"))
      #expect(text.stdout.contains(": speaker (default"), "\(text)")
      #expect(text.stdout.contains("trigger:  a grace time ended"), "\(text)")
      let refused = try await rig.daemon.acctl(["route", "--history", "0"])
      #expect(refused.status == 64)
      #expect(
        refused.stderr.hasPrefix(
          "Error: The value '0' is invalid for '<count>': expected a whole "
            + "number from 1 to 100"), "\(refused)")
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
      try await rig.eventuallyRouted(to: "speaker", within: .seconds(30))
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
    "A stream left on the old output moves too, before update answers; one its application pinned stays",
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
      // PipeWire shows the application's choice as the stream's
      // `target.object`: accessoryd leaves such a stream alone, and where
      // it plays is the session manager's call. WirePlumber 0.4 moves it
      // with the default anyway; 0.5 keeps it where its player asked.
      // PulseAudio shows nothing of it, and it reads as one left behind.
      let shown = try await rig.server.sinkInputs().first {
        $0.clientName == pinned[0].clientName
      }
      if shown?.properties["target.object"] != nil
        || shown?.properties["node.target"] != nil
      {
        let keepsIt = !(try await rig.server.pactl(["info"])).contains(
          "PipeWire 0.")
        try await rig.place(budsAddress, "inEar")
        try await rig.eventually("3 streams on buds, the pinned one stays") {
          $0.defaultSink == "buds"
            && $0.streams.filter { $0.sink == "buds" }.count >= 3
            && $0.streams.contains {
              $0.client == pinned[0].clientName
                && (!keepsIt || $0.sink == "speaker")
            }
        }
        let explained = try await rig.ok(["route", "--explain"]).stdout
        #expect(
          explained.contains("pinned to speaker by the application"),
          "\(explained)")
        return
      }

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
    "A stream the person moves stays where they put it, again and again",
    arguments: SoundServerKind.allCases)
  func personsMoveStaysUnderLoad(_ kind: SoundServerKind) async throws {
    try await withRig(kind, streams: 1) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.eventuallyRouted(to: "buds", streams: 1)
      let changesBefore = try await rig.routeChanges()
      let repeats = kind == .pipeWire ? 20 : 8
      var movesRepeated = 0
      for attempt in 1...repeats {
        // A player starts on the buds, and the person moves it to the
        // speaker as soon as it plays.
        let started = try await rig.server.startStreams(1)
        defer { started.forEach { $0.stop() } }
        let name = started[0].clientName
        guard
          let index = try await rig.server.sinkInputs().first(where: {
            $0.clientName == name
          })?.index
        else { throw RigFailure("\(name) is not playing") }
        // PipeWire 0.3.65 now and then drops a move of a stream that has
        // just started, with no daemon of ours running too (measured: 3 of
        // 20 with both cores busy): the person then moves it again.
        // `.ci/run` runs this again beside two busy loops, one per core
        // (scripts/test-under-load 2).
        var explained = ""
        for round in 0..<100 {
          if try await rig.observe().streams.first(where: {
            $0.client == name
          })?.sink != "speaker", round.isMultiple(of: 10) {
            if round > 0 { movesRepeated += 1 }
            _ = try await rig.server.pactl(
              ["move-sink-input", "\(index)", "speaker"])
          }
          // A new decision, once the daemon has taken the move in, keeps it.
          try await rig.place(budsAddress, "inEar")
          explained = try await rig.ok(["route", "--explain"]).stdout
          if explained.contains("pinned to speaker") { break }
          try await Task.sleep(for: .milliseconds(50))
        }
        #expect(
          explained.contains("pinned to speaker"),
          "attempt \(attempt): \(explained)")
        let observed = try await rig.observe()
        #expect(
          observed.streams.first { $0.client == name }?.sink == "speaker",
          "attempt \(attempt): the person's move was undone: \(observed)")
      }
      // The daemon moved nothing all along: it never undid a move.
      let changesAfter = try await rig.routeChanges()
      #expect(
        changesAfter == changesBefore,
        "the daemon changed the route: \(changesAfter)\n\(rig.daemon.logTail(lines: 30))"
      )
      print("moves the server dropped and the test repeated: \(movesRepeated)")
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
      // The daemon hears of the change from the server and reports it
      // when its loop has taken it in, which a loaded machine may delay
      // past the server's own view.
      var route = try await rig.json(["route"])
      let deadline = ContinuousClock.now + .seconds(30)
      while route["output"] != "speaker", ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(50))
        route = try await rig.json(["route"])
      }
      #expect(route["output"] == "speaker", "\(route)")
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
