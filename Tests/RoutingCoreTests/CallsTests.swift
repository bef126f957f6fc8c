// The decision core in calls: when a capture stream makes a call, which
// headset profile and microphone it gets, what comes back after it, and
// what never happens (the microphone of headphones nobody wears, a switch
// for a probe or a peak meter). The cards, sinks and sources are
// PipeWire's and PulseAudio's own, from BluetoothFixtures.swift.

import Foundation
import PolicyFiles
import RoutingCore
import Testing

@Suite("Calls: the input and the headset profile")
struct CallsTests {
  /// A call app's capture stream on the built-in microphone.
  static func callStream(
    since: Instant, role: String? = "phone", application: String = "Signal",
    input: String = BluetoothFixtures.builtInMicrophone.name
  ) -> CaptureStream {
    CaptureStream(
      id: 40, input: input, role: role, application: application,
      recordingSince: since)
  }

  @Test("Which capture streams make a call")
  func whichStreamsMakeACall() throws {
    let builtIn = BluetoothFixtures.builtInMicrophone.name
    let monitor = BluetoothFixtures.speakerMonitor.name
    let streams = [
      CaptureStream(id: 1, input: builtIn, role: "phone"),
      CaptureStream(id: 2, input: builtIn, role: "communication"),
      CaptureStream(id: 3, input: builtIn, role: "music"),
      CaptureStream(id: 4, input: builtIn),
      CaptureStream(id: 5, input: builtIn, role: "phone", isCorked: true),
      CaptureStream(
        id: 6, input: builtIn, role: "phone",
        application: "PulseAudio "
          + "Volume Control", isPeakMeter: true),
      CaptureStream(id: 7, input: monitor, role: "phone"),
      CaptureStream(id: 8, input: builtIn, application: "ZOOM VoIP"),
    ]
    let snapshot = Snapshot(
      inputs: [
        BluetoothFixtures.builtInMicrophone, BluetoothFixtures.speakerMonitor,
      ],
      captureStreams: streams, now: 0)
    var policy = Policy()
    #expect(callStreams(in: snapshot, policy: policy).map(\.id) == [1, 2])
    policy.callApplications = ["zoom*"]
    #expect(callStreams(in: snapshot, policy: policy).map(\.id) == [1, 2, 8])
    policy.callOnAnyCapture = true
    #expect(
      callStreams(in: snapshot, policy: policy).map(\.id) == [1, 2, 3, 4, 8])
  }

  @Test(
    "A call while worn: the best headset profile after the start delay",
    arguments: BluetoothFixtures.Server.allCases)
  func callWhileWorn(_ server: BluetoothFixtures.Server) throws {
    let fixture = BluetoothFixtures(server)
    // 0.3 s into the call: a probe, perhaps; nothing switches yet.
    var snapshot = fixture.snapshot(
      placement: .inEar, captureStreams: [Self.callStream(since: 99.7)],
      now: 100)
    var decision = decide(snapshot, Policy())
    #expect(decision.callPhase == .starting)
    #expect(decision.profileRequests.isEmpty)
    #expect(decision.defaultInputChange == nil)
    #expect(decision.reconsiderAt == 100.2)
    #expect(decision.callStreams == [40])

    snapshot.now = 100.2
    decision = decide(snapshot, Policy())
    #expect(decision.callPhase == .active)
    #expect(
      decision.profileRequests == [
        ProfileRequest(
          card: fixture.cardName, profile: fixture.headsetProfile,
          purpose: .call, previousProfile: fixture.musicProfile)
      ], Comment(rawValue: decision.explanation.text))
    #expect(decision.explanation.text.contains("for the call"))
    // The headset has no microphone until the profile is active.
    #expect(decision.defaultInputChange == nil)
  }

  @Test(
    "In the headset profile, its microphone is the default input, set once",
    arguments: BluetoothFixtures.Server.allCases)
  func microphoneDuringTheCall(_ server: BluetoothFixtures.Server) throws {
    let fixture = BluetoothFixtures(server)
    let snapshot = fixture.inCall(now: 103)
    let decision = decide(snapshot, Policy())
    #expect(decision.callPhase == .active)
    #expect(decision.profileRequests.isEmpty)
    #expect(decision.target == fixture.headsetSink.name)
    #expect(
      decision.defaultInputChange == fixture.headsetSource.name,
      Comment(rawValue: decision.explanation.text))
    #expect(decision.explanation.text.contains("worn, for the call"))

    // Shown as the default already (WirePlumber's fallback, or a
    // connection's stale view): set all the same, once, as the call's.
    var shown = snapshot
    shown.defaultInput = fixture.headsetSource.name
    let claim = decide(shown, Policy())
    #expect(
      claim.defaultInputChange == fixture.headsetSource.name,
      Comment(rawValue: claim.explanation.text))
    #expect(claim.explanation.text.contains("setting it keeps it"))
    shown = shown.applying(claim)
    #expect(shown.callInput == fixture.headsetSource.name)
    let again = decide(shown, Policy())
    #expect(!again.hasActions, Comment(rawValue: again.explanation.text))
  }

  @Test(
    "After the call: 2 s later the profile it had, and the input from before",
    arguments: BluetoothFixtures.Server.allCases)
  func afterTheCall(_ server: BluetoothFixtures.Server) throws {
    let fixture = BluetoothFixtures(server)
    var snapshot = fixture.inCall(now: 110)
    snapshot.defaultInput = fixture.headsetSource.name
    snapshot.callInput = fixture.headsetSource.name
    snapshot.inputHistory = [BluetoothFixtures.builtInMicrophone.name]
    snapshot.captureStreams = []
    snapshot.callEndedAt = 109
    // 1 s after: the profile and the headset's microphone stay.
    var decision = decide(snapshot, Policy())
    #expect(decision.callPhase == .ending)
    #expect(decision.profileRequests.isEmpty)
    #expect(decision.defaultInputChange == nil)
    #expect(decision.endedCallProfiles.isEmpty)
    #expect(decision.reconsiderAt == 111)

    snapshot.now = 111
    decision = decide(snapshot, Policy())
    #expect(decision.callPhase == .none)
    #expect(
      decision.profileRequests == [
        ProfileRequest(
          card: fixture.cardName, profile: fixture.musicProfile,
          purpose: .afterCall)
      ], Comment(rawValue: decision.explanation.text))
    #expect(decision.endedCallProfiles == [fixture.cardName])
    #expect(
      decision.defaultInputChange == BluetoothFixtures.builtInMicrophone.name)
    #expect(snapshot.applying(decision).callInput == nil)
  }

  @Test("Outside a call the input is left as it is, but for headphones off")
  func inputOutsideACall() throws {
    let fixture = BluetoothFixtures(.pipeWire)
    var snapshot = fixture.inCall(now: 200)
    snapshot.captureStreams = []
    snapshot.callProfiles = []
    snapshot.inputHistory = [BluetoothFixtures.builtInMicrophone.name]
    // A worn headset's microphone someone else made the default: it stays.
    snapshot.defaultInput = fixture.headsetSource.name
    var decision = decide(snapshot, Policy())
    #expect(
      decision.defaultInputChange == nil,
      Comment(rawValue: decision.explanation.text))
    // So does a monitor, and no default at all is left to the server.
    for input in [BluetoothFixtures.speakerMonitor.name, nil] {
      snapshot.defaultInput = input
      decision = decide(snapshot, Policy())
      #expect(decision.defaultInputChange == nil, "\(input ?? "none")")
    }
    // The headphones taken off: never their microphone.
    snapshot.defaultInput = fixture.headsetSource.name
    snapshot.accessories[0].placement = .offHead
    decision = decide(snapshot, Policy())
    #expect(
      decision.defaultInputChange == BluetoothFixtures.builtInMicrophone.name)
    #expect(decision.explanation.text.contains("Buds is not worn"))
  }

  @Test("A call that starts again within the end delay keeps the profile")
  func callStartsAgain() throws {
    let fixture = BluetoothFixtures(.pipeWire)
    var snapshot = fixture.inCall(now: 110)
    snapshot.defaultInput = fixture.headsetSource.name
    snapshot.captureStreams = [Self.callStream(since: 109.9)]
    snapshot.callEndedAt = 109.5
    let decision = decide(snapshot, Policy())
    #expect(decision.callPhase == .starting)
    #expect(decision.profileRequests.isEmpty)
    #expect(decision.defaultInputChange == nil)
    #expect(decision.endedCallProfiles.isEmpty)
  }

  @Test(
    "Not worn: no profile change, and the built-in microphone",
    arguments: BluetoothFixtures.Server.allCases)
  func notWorn(_ server: BluetoothFixtures.Server) throws {
    let fixture = BluetoothFixtures(server)
    // Registered and connected, on the desk: the speaker plays, and the
    // call records from the built-in microphone.
    var snapshot = fixture.snapshot(
      placement: .offHead, captureStreams: [Self.callStream(since: 90)],
      now: 100)
    snapshot.defaultOutput = BluetoothFixtures.speaker.name
    var decision = decide(snapshot, Policy())
    #expect(decision.callPhase == .active)
    #expect(decision.profileRequests.isEmpty)
    #expect(decision.target == BluetoothFixtures.speaker.name)
    #expect(decision.defaultInputChange == nil)
    #expect(decision.inputTarget == BluetoothFixtures.builtInMicrophone.name)

    // Even when its microphone exists and is the default (the person put
    // it in the headset profile), it is set aside.
    snapshot = fixture.inCall(now: 100)
    snapshot.accessories[0].placement = .offHead
    snapshot.accessories[0].placementChangedAt = 50
    snapshot.defaultOutput = BluetoothFixtures.speaker.name
    snapshot.defaultInput = fixture.headsetSource.name
    decision = decide(snapshot, Policy())
    #expect(
      decision.defaultInputChange == BluetoothFixtures.builtInMicrophone.name,
      Comment(rawValue: decision.explanation.text))
  }

  @Test("A peak meter and a monitor capture make no call")
  func peakMeterIgnored() throws {
    let fixture = BluetoothFixtures(.pulseAudio)
    let snapshot = fixture.snapshot(
      placement: .inEar,
      captureStreams: [
        CaptureStream(
          id: 41, input: BluetoothFixtures.builtInMicrophone.name,
          role: "phone", application: "PulseAudio Volume Control",
          isPeakMeter: true, recordingSince: 10),
        CaptureStream(
          id: 42, input: BluetoothFixtures.speakerMonitor.name, role: "phone",
          recordingSince: 10),
      ], now: 100)
    let decision = decide(snapshot, Policy())
    #expect(decision.callPhase == .none)
    #expect(decision.profileRequests.isEmpty)
    #expect(decision.callStreams.isEmpty)
  }

  @Test("The person's own microphone is kept, and needs no headset profile")
  func personsMicrophoneKept() throws {
    let fixture = BluetoothFixtures(.pipeWire)
    var snapshot = fixture.snapshot(
      placement: .inEar, captureStreams: [Self.callStream(since: 90)],
      now: 100)
    snapshot.inputs.append(BluetoothFixtures.usbMicrophone)
    snapshot.defaultInput = BluetoothFixtures.usbMicrophone.name
    snapshot.manualInputChoice = ManualChoice(
      output: BluetoothFixtures.usbMicrophone.name, at: 95)
    var decision = decide(snapshot, Policy())
    #expect(decision.profileRequests.isEmpty)
    #expect(decision.inputTarget == BluetoothFixtures.usbMicrophone.name)
    #expect(decision.defaultInputChange == nil)
    #expect(decision.explanation.text.contains("own choice of microphone"))

    // In the headset profile already, the choice still stands.
    snapshot = fixture.inCall(now: 100)
    snapshot.inputs.append(BluetoothFixtures.usbMicrophone)
    snapshot.defaultInput = BluetoothFixtures.usbMicrophone.name
    snapshot.manualInputChoice = ManualChoice(
      output: BluetoothFixtures.usbMicrophone.name, at: 101)
    decision = decide(snapshot, Policy())
    #expect(decision.defaultInputChange == nil)
  }

  @Test("A card moved off its call profile by someone else is left there")
  func profileChangedByTheUser() throws {
    let fixture = BluetoothFixtures(.pipeWire)
    var snapshot = fixture.inCall(now: 100)
    snapshot.cards[0].activeProfile = fixture.musicProfile
    snapshot.outputs = [BluetoothFixtures.speaker, fixture.musicSink]
    snapshot.inputs = [
      BluetoothFixtures.builtInMicrophone, BluetoothFixtures.speakerMonitor,
    ]
    var decision = decide(snapshot, Policy())
    #expect(decision.profileRequests.isEmpty)
    snapshot.captureStreams = []
    snapshot.callEndedAt = 90
    decision = decide(snapshot, Policy())
    #expect(decision.profileRequests.isEmpty)
    #expect(decision.endedCallProfiles == [fixture.cardName])
    #expect(decision.explanation.text.contains("during the call"))
  }

  @Test("calls.useHeadset false: calls change nothing")
  func callsTurnedOff() throws {
    let fixture = BluetoothFixtures(.pipeWire)
    var policy = Policy()
    policy.callsUseHeadset = false
    let snapshot = fixture.snapshot(
      placement: .inEar, captureStreams: [Self.callStream(since: 90)],
      now: 100)
    let decision = decide(snapshot, policy)
    #expect(decision.profileRequests.isEmpty)
    #expect(decision.defaultInputChange == nil)
  }

  @Test(
    "Applying a call's decisions leaves nothing more to do",
    arguments: BluetoothFixtures.Server.allCases)
  func callDecisionsSettle(_ server: BluetoothFixtures.Server) throws {
    let fixture = BluetoothFixtures(server)
    let snapshot = fixture.snapshot(
      placement: .inEar, captureStreams: [Self.callStream(since: 90)],
      now: 100)
    let first = decide(snapshot, Policy())
    let applied = snapshot.applying(first)
    #expect(applied.callProfiles.map(\.card) == [fixture.cardName])
    #expect(!decide(applied, Policy()).hasActions)
  }

  @Test("A call starts at the very instant its reminder was set for")
  func startsAtTheReminder() throws {
    let fixture = BluetoothFixtures(.pipeWire)
    // Instants whose `now - since` rounds below the delay in doubles.
    for since in [0.1, 0.3, 99.7, 1_800_000_000.3, 1_800_000_123.456] {
      var snapshot = fixture.snapshot(
        placement: .inEar, captureStreams: [Self.callStream(since: since)],
        now: since + 0.1)
      let waiting = decide(snapshot, Policy())
      #expect(waiting.callPhase == .starting)
      snapshot.now = try #require(waiting.reconsiderAt)
      #expect(decide(snapshot, Policy()).callPhase == .active, "since \(since)")
    }
  }

  @Test("Roles match without regard to case, as PipeWire's clients spell them")
  func rolesIgnoreCase() throws {
    let builtIn = BluetoothFixtures.builtInMicrophone.name
    let snapshot = Snapshot(
      inputs: [BluetoothFixtures.builtInMicrophone],
      captureStreams: [
        CaptureStream(id: 1, input: builtIn, role: "Communication"),
        CaptureStream(id: 2, input: builtIn, role: "PHONE"),
        CaptureStream(id: 3, input: builtIn, role: "Music"),
      ], now: 0)
    #expect(callStreams(in: snapshot, policy: Policy()).map(\.id) == [1, 2])
  }

  @Test("No request gives a card back the profile it already has")
  func noNoOpGiveBack() throws {
    let fixture = BluetoothFixtures(.pipeWire)
    var snapshot = fixture.inCall(now: 100)
    snapshot.captureStreams = []
    snapshot.callEndedAt = 90
    // The music profile is gone; the best output profile left is the
    // headset profile the card has.
    snapshot.cards[0].profiles.removeAll { $0.name == fixture.musicProfile }
    snapshot.cards[0].profiles.removeAll {
      $0.outputCount > 0 && $0.name != fixture.headsetProfile
    }
    let decision = decide(snapshot, Policy())
    #expect(decision.profileRequests.isEmpty, "\(decision.profileRequests)")
    #expect(decision.endedCallProfiles == [fixture.cardName])
    // Ending the record is itself something to apply.
    #expect(decision.hasActions)
    #expect(!decide(snapshot.applying(decision), Policy()).hasActions)
  }

  @Test("The microphone of an accessory left alone counts as no accessory's")
  func leftAloneMicrophone() throws {
    let fixture = BluetoothFixtures(.pipeWire)
    var snapshot = fixture.inCall(now: 100)
    snapshot.captureStreams = []
    snapshot.callProfiles = []
    snapshot.accessories[0].audioSwitching = false
    snapshot.defaultInput = fixture.headsetSource.name
    let decision = decide(snapshot, Policy())
    #expect(
      decision.defaultInputChange == nil,
      Comment(rawValue: decision.explanation.text))
    // Registered with audioSwitching, not worn: never its microphone.
    snapshot.accessories[0].audioSwitching = true
    snapshot.accessories[0].placement = .offHead
    let worn = decide(snapshot, Policy())
    #expect(worn.defaultInputChange == BluetoothFixtures.builtInMicrophone.name)
    #expect(worn.explanation.text.contains("Buds is not worn"))
  }

  @Test("The calls settings are read from a policy")
  func policyKeys() throws {
    let policy = try PolicyLoader.parse(
      Data(
        """
        { version: 1, calls: { useHeadset: true, startDelaySeconds: 1,
          endDelaySeconds: 5, roles: ["phone"], applications: ["Zoom*"],
          anyCapture: false, headsetProfiles: ["headset-head-unit-cvsd"] } }
        """.utf8))
    #expect(policy.callStartDelaySeconds == 1)
    #expect(policy.callEndDelaySeconds == 5)
    #expect(policy.callRoles == ["phone"])
    #expect(policy.callApplications == ["Zoom*"])
    #expect(policy.headsetProfiles == ["headset-head-unit-cvsd"])
    #expect {
      _ = try PolicyLoader.parse(
        Data(#"{ version: 1, calls: { roles: ["phone", 3] } }"#.utf8))
    } throws: { error in
      "\(error)".contains("calls.roles[1]")
        && "\(error)".contains("the number 3; expected text")
    }
  }
}
