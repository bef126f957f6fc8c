// The router in calls, over a scripted server whose Bluetooth card has a
// music and a headset profile as PipeWire's do: the worn headset's profile
// and microphone for a call, the profile and input from before 2 s after
// it, and what never happens (a switch for a probe, the microphone of
// headphones nobody wears, the person's microphone overridden).

import AccessoryControl
import AccessoryEngine
import DaemonInputs
import DaemonLifecycle
import RoutingCore
import SoundServerModel
import Testing

@Suite("Router in calls")
struct RouterCallsTests {
  typealias Rig = RouterRig
  typealias Server = ScriptedSoundServer

  static let card = "bluez_card.buds"
  static let builtIn = "builtin-mic"
  static let budsMicrophone = "\(Rig.buds)-mic"

  /// A server with a built-in microphone, the speaker's monitor and the
  /// buds' card in `profile`, caught up with by the router.
  static func prepare(_ rig: Rig, profile: String = Server.musicProfile) async {
    await rig.server.addSource(builtIn)
    await rig.server.addSource("\(Rig.speaker).monitor", monitorOf: Rig.speaker)
    await rig.server.addBluetoothCard(
      card, sink: Rig.buds, address: Rig.budsAddress, active: profile)
    await rig.server.personChoosesDefaultInput(builtIn)
    await rig.caughtUp()
    await rig.router.reconcile(because: "a test asked")
    // Past the time a server takes to settle its defaults after devices
    // came: a default change from now on is the person's.
    rig.clock.advance(by: 1.1)
  }

  /// Starts or stops the call app's recording, and waits until the router
  /// has taken it in.
  static func record(_ rig: Rig, from source: String?) async {
    await rig.server.record(50, from: source)
    await rig.caughtUp()
    await rig.router.reconcile(because: "a test asked")
  }

  @Test("A call while worn: headset profile and microphone, then both back")
  func callWhileWorn() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      await Self.prepare(rig)
      try await rig.register(Rig.budsAddress, placement: .inEar)
      #expect(await rig.server.defaultSource == Self.builtIn)
      let before = await rig.batches.count

      await Self.record(rig, from: Self.builtIn)
      #expect(await rig.batches.count == before, "switched before the delay")
      #expect(await rig.router.report(explaining: false).call == .starting)

      rig.clock.advance(by: 0.51)
      await rig.server.waitForBatches(before + 2)
      var batches = await rig.batches
      #expect(
        batches[before].cardProfiles == [
          .init(cardName: Self.card, profileName: Server.headsetProfile)
        ])
      // Its microphone came with the profile and is now the input.
      #expect(batches[before + 1].defaultSource == Self.budsMicrophone)
      #expect(await rig.server.defaultSource == Self.budsMicrophone)
      #expect(await rig.server.defaultSink == Rig.buds)
      let report = await rig.router.report(explaining: true)
      #expect(report.call == .active)
      #expect(report.input == Self.budsMicrophone)
      #expect(
        report.callProfiles == [
          .init(
            card: Self.card, previousProfile: Server.musicProfile,
            callProfile: Server.headsetProfile)
        ])
      #expect(report.text?.contains("worn, for the call") == true)
      // Events say what changed: the profile for the call, then the input.
      let profile = await rig.events.next {
        $0["kind"] == "route" && $0["profiles"] != nil
      }
      guard case .array(let profiles)? = profile?["profiles"] else {
        Issue.record("no route event with profiles")
        return
      }
      #expect(profiles.first?["purpose"] == "call")
      #expect(profiles.first?["profile"] == "headset-head-unit")
      let input = await rig.events.next { $0["inputChanged"] != nil }
      #expect(input?["inputChanged"] == "buds-mic")

      // The call ends: profile and input stay for the end delay.
      await Self.record(rig, from: nil)
      rig.clock.advance(by: 1.9)
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.batches.count == before + 2)
      #expect(await rig.router.report(explaining: false).call == .ending)

      // Then the profile it had and the input from before, in one batch.
      rig.clock.advance(by: 0.2)
      await rig.server.waitForBatches(before + 3)
      batches = await rig.batches
      #expect(
        batches[before + 2].cardProfiles == [
          .init(cardName: Self.card, profileName: Server.musicProfile)
        ])
      #expect(batches[before + 2].defaultSource == Self.builtIn)
      #expect(await rig.server.activeProfile(of: Self.card) == "a2dp-sink-sbc")
      let after = await rig.router.report(explaining: false)
      #expect(after.call == RouteReport.CallPhase.none)
      #expect(after.callProfiles == [])
      #expect(await rig.server.defaultSink == Rig.buds)
    }
  }

  @Test(
    "A microphone the server shows already is set for the call, again if refused",
    .timeLimit(.minutes(1)))
  func microphoneShownAlready() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      await Self.prepare(rig)
      try await rig.register(Rig.budsAddress, placement: .inEar)
      // The buds' microphone becomes the default with the headset profile,
      // as WirePlumber's fallback may make it; setting it is refused.
      await rig.server.makeNewMicrophonesTheDefault()
      await rig.server.behave(.refusesDefaultInput)
      let before = await rig.batches.count
      await Self.record(rig, from: Self.builtIn)
      rig.clock.advance(by: 0.51)
      await rig.server.waitForBatches(before + 2)
      #expect(await rig.server.defaultSource == Self.budsMicrophone)
      var batches = await rig.batches
      #expect(batches[before + 1].defaultSource == Self.budsMicrophone)

      // Refused, so the next decision sets it again; then no more.
      await rig.server.behave(.applies)
      await rig.router.reconcile(because: "a test asked")
      await rig.server.waitForBatches(before + 3)
      batches = await rig.batches
      #expect(batches[before + 2].defaultSource == Self.budsMicrophone)
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.batches.count == before + 3)
      #expect(await rig.router.report(explaining: false).call == .active)
    }
  }

  @Test("A 100 ms probe of the microphone switches nothing")
  func probe() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      await Self.prepare(rig)
      try await rig.register(Rig.budsAddress, placement: .inEar)
      let before = await rig.batches.count
      await Self.record(rig, from: Self.builtIn)
      rig.clock.advance(by: 0.1)
      await Self.record(rig, from: nil)
      rig.clock.advance(by: 3)
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.batches.count == before)
      #expect(await rig.server.activeProfile(of: Self.card) == "a2dp-sink-sbc")
    }
  }

  @Test("Not worn: the built-in microphone, never the buds', and no profile")
  func notWorn() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      // The buds' card is in its headset profile already, so their
      // microphone exists, and the person made it the default.
      await Self.prepare(rig, profile: Server.headsetProfile)
      await rig.server.personChoosesDefaultInput(Self.budsMicrophone)
      await rig.caughtUp()
      try await rig.register(Rig.budsAddress, placement: .offHead)
      #expect(await rig.server.defaultSource == Self.builtIn)
      let before = await rig.batches.count

      await Self.record(rig, from: Self.builtIn)
      rig.clock.advance(by: 1)
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.batches.count == before)
      let report = await rig.router.report(explaining: true)
      #expect(report.call == .active)
      #expect(report.input == Self.builtIn)
      #expect(
        report.text?.contains("buds-mic: rejected, chosen") == true
          && report.text?.contains("Accessory 01 is not worn") == true,
        "\(report.text ?? "")")
    }
  }

  @Test("The person's own microphone is kept, and no headset profile is asked")
  func personsMicrophone() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      await Self.prepare(rig)
      await rig.server.addSource("usb-mic")
      await rig.caughtUp()
      rig.clock.advance(by: 1.1)
      try await rig.register(Rig.budsAddress, placement: .inEar)
      await rig.server.personChoosesDefaultInput("usb-mic")
      await rig.caughtUp()
      let before = await rig.batches.count

      await Self.record(rig, from: "usb-mic")
      rig.clock.advance(by: 1)
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.batches.count == before)
      #expect(await rig.server.defaultSource == "usb-mic")
      #expect(await rig.server.activeProfile(of: Self.card) == "a2dp-sink-sbc")
    }
  }
}
