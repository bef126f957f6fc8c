// The router over a scripted sound server and a manual clock: one
// reconcile at a time, merged triggers, requests answered by the reconcile
// that covers them, a server lost in the middle of a batch, and each
// routing rule the end-to-end suites cover.

import AccessoryBackend
import AccessoryControl
import AccessoryEngine
import AudioAccessoryKit
import ConcurrencyHelpers
import DaemonEvents
import DaemonInputs
import DaemonLifecycle
import Foundation
import PolicyFiles
import SoundServerModel
import Testing

@Suite("Router over a scripted server")
struct RouterTests {
  typealias Rig = RouterRig

  @Test("A worn accessory takes the default and every stream in one batch")
  func wornTakesTheOutput() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      let pending = try await rig.register(Rig.budsAddress, placement: .inEar)
      #expect(!pending)
      let batches = await rig.batches
      #expect(batches.count == 1)
      #expect(batches.first?.defaultSink == Rig.buds)
      #expect(Set(batches.first?.moves.map(\.sinkInput) ?? []) == [1, 2])
      #expect(await rig.server.defaultSink == Rig.buds)
    }
  }

  @Test(
    "On PulseAudio the default carries its followers; only a pinned stream is moved"
  )
  func followersGoWithTheDefault() async throws {
    try await Rig.run { rig in
      await rig.server.startStream(
        3, on: Rig.speaker, pinnedByApplication: false)
      await rig.server.personMoves(3, to: Rig.headset)
      await rig.server.personMoves(3, to: Rig.speaker)
      await rig.caughtUp()
      try await rig.register(Rig.budsAddress, placement: .inEar)
      let batches = await rig.batches
      #expect(batches.first?.defaultSink == Rig.buds)
      #expect(batches.first?.moves.isEmpty == true)
      // Stream 3 has a target of its own: it stayed, and was moved after.
      #expect(batches.count == 2)
      #expect(batches.last?.moves.map(\.sinkInput) == [3])
      for stream: UInt32 in [1, 2, 3] {
        #expect(await rig.server.sinkOf(stream) == Rig.buds)
      }
    }
  }

  @Test("Taken off: the output stays through the grace time, then goes back")
  func graceThenBack() async throws {
    try await Rig.run { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      try await rig.place(Rig.budsAddress, .offHead)
      // The request was answered after its reconcile: nothing was sent.
      #expect(await rig.batches.count == 1)
      rig.clock.advance(by: 2.9)
      try await rig.place(Rig.budsAddress, .offHead)
      #expect(await rig.batches.count == 1)
      rig.clock.advance(by: 0.2)
      await rig.server.waitForBatches(2)
      #expect(await rig.batches.last?.defaultSink == Rig.speaker)
      let report = await rig.router.report(explaining: true)
      #expect(report.trigger == "a grace time ended")
      #expect(
        report.explanation?.steps.contains {
          $0.candidates.contains {
            $0.reason == "back to the output used before"
          }
        } == true)
    }
  }

  @Test("Put back on within the grace time: nothing moves")
  func putBackWithinGrace() async throws {
    try await Rig.run { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      try await rig.place(Rig.budsAddress, .offHead)
      rig.clock.advance(by: 1)
      try await rig.place(Rig.budsAddress, .inEar)
      rig.clock.advance(by: 5)
      // A request after the grace time's end covers every trigger before.
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.batches.count == 1)
      #expect(await rig.server.defaultSink == Rig.buds)
    }
  }

  @Test(
    "Registered and reported offHead at once: the default never moves",
    arguments: [false, true])
  func registerThenOffHead(isPipeWire: Bool) async throws {
    try await Rig.run(isPipeWire: isPipeWire) { rig in
      try await rig.register(Rig.budsAddress, placement: nil)
      try await rig.place(Rig.budsAddress, .offHead)
      rig.clock.advance(by: 10)
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.batches.isEmpty)
    }
  }

  @Test("Registered with placement and no report yet: it waits for one")
  func awaitsTheFirstReport() async throws {
    try await Rig.run { rig in
      try await rig.register(Rig.budsAddress, placement: nil)
      #expect(await rig.batches.isEmpty)
      // No report within the wait: the accessory is taken as worn.
      rig.clock.advance(by: 1.1)
      await rig.server.waitForBatches(1)
      #expect(await rig.batches.first?.defaultSink == Rig.buds)
    }
  }

  /// The queries (`route.history`, `output`, `status`, the media the rules
  /// hold) are answered from what the loop published, without entering
  /// it: here while the loop waits for the server to answer a batch, with
  /// the decision going out listed first.
  @Test(
    "Queries read what the loop published, while it waits for the server"
  )
  func queriesReadWhatTheLoopPublished() async throws {
    try await Rig.run(withPlayers: true) { rig in
      await rig.server.behave(.holds)
      let registering = Task {
        try await rig.register(Rig.budsAddress, placement: .inEar)
      }
      await rig.server.waitUntilHolding()
      let going = rig.router.board.history(limit: 10)
      #expect(going.map(\.output) == [Rig.buds])
      #expect(going.first?.defaultChanged == true)
      #expect(
        rig.router.board.outputName(for: BluetoothAddress(Rig.budsAddress)!)
          == Rig.buds)
      let devices = rig.router.board.audioDevices()
      #expect(devices.soundServer == .connected)
      #expect(
        devices.outputs.first { $0.name == Rig.buds }?.accessory
          == Rig.budsAddress)
      #expect(rig.router.board.serverInfo?.serverName == "pulseaudio")
      #expect(rig.router.board.pausedMedia(resumingWithin: 60).isEmpty)
      #expect(
        rig.router.board.headphoneOutputs().map(\.name).sorted()
          == [Rig.buds, Rig.headset])
      await rig.server.release()
      _ = try await registering.value
      // Gone out: it joins the history, once.
      #expect(rig.router.board.history(limit: 10).map(\.output) == [Rig.buds])
    }
  }

  @Test("The accessory put on last wins")
  func lastPutOnWins() async throws {
    try await Rig.run { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      rig.clock.advance(by: 1)
      try await rig.register(Rig.headsetAddress, placement: .onHead)
      #expect(await rig.server.defaultSink == Rig.headset)
      rig.clock.advance(by: 1)
      try await rig.place(Rig.budsAddress, .offHead)
      #expect(await rig.server.defaultSink == Rig.headset)
      rig.clock.advance(by: 1)
      try await rig.place(Rig.budsAddress, .inEar)
      #expect(await rig.server.defaultSink == Rig.buds)
    }
  }

  @Test("Taken off: never back to a registered accessory that is not worn")
  func fallbackSkipsAnAccessoryNotWorn() async throws {
    // The headset's output was the default before the buds took it.
    try await Rig.run(defaultSink: Rig.headset) { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      #expect(await rig.server.defaultSink == Rig.buds)
      try await rig.register(Rig.headsetAddress, placement: .offHead)
      try await rig.place(Rig.budsAddress, .offHead)
      rig.clock.advance(by: 3.1)
      await rig.server.waitForBatches(2)
      #expect(await rig.server.defaultSink == Rig.speaker)
    }
  }

  @Test(
    "Taken off: back to the headset nobody registered that had the output when the engine started"
  )
  func fallbackToAnUnregisteredOutput() async throws {
    try await Rig.run(defaultSink: Rig.headset) { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      try await rig.place(Rig.budsAddress, .offHead)
      rig.clock.advance(by: 3.1)
      await rig.server.waitForBatches(2)
      #expect(await rig.server.defaultSink == Rig.headset)
      let report = await rig.router.report(explaining: true)
      #expect(
        report.explanation?.steps.contains {
          $0.rule == "accessories.choose"
            && $0.candidates.contains {
              $0.reason.hasPrefix("connected since before accessoryd looked")
            }
        } == true, "\(report.text ?? "")")
    }
  }

  @Test(
    "Multipoint: an accessory whose primary source is another host stays away")
  func anotherHostIsPrimary() async throws {
    let host = "11:22:33:44:55:66"
    try await Rig.run(hostAddresses: [host]) { rig in
      try await rig.register(
        Rig.budsAddress, placement: .inEar, primary: "22:33:44:55:66:77")
      #expect(await rig.batches.isEmpty)
      try await rig.setPrimary(Rig.budsAddress, host: host)
      #expect(await rig.server.defaultSink == Rig.buds)
    }
  }

  @Test("A stream the person moves stays where they put it")
  func personsMoveStays() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      await rig.server.personMoves(1, to: Rig.headset)
      await rig.server.startStream(
        7, on: Rig.speaker, pinnedByApplication: true)
      await rig.caughtUp()
      // Later triggers do not undo either.
      rig.clock.advance(by: 1)
      try await rig.place(Rig.budsAddress, .inEar)
      await rig.router.reconcile(because: "a test asked")
      let moved = await rig.batches.dropFirst().flatMap(\.moves)
      #expect(!moved.contains { $0.sinkInput == 1 || $0.sinkInput == 7 })
      #expect(await rig.server.sinkOf(1) == Rig.headset)
      #expect(await rig.server.sinkOf(7) == Rig.speaker)
    }
  }

  @Test("The person's own default is respected, and announced as theirs")
  func personsDefaultChoice() async throws {
    try await Rig.run { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      await rig.server.personChoosesDefault(Rig.speaker)
      let event = await rig.events.nextPersonsChoice()
      #expect(event?["output"]?.stringValue == Rig.speaker)
      await rig.router.reconcile(because: "a test asked")
      // The streams follow the person's choice; the default stays theirs.
      let later = await rig.batches.dropFirst()
      #expect(later.allSatisfy { $0.defaultSink == nil })
      #expect(later.flatMap(\.moves).allSatisfy { $0.sink == Rig.speaker })
      #expect(await rig.server.defaultSink == Rig.speaker)
    }
  }

  @Test("Triggers that arrive during a reconcile are merged into one")
  func overlappingTriggersMerge() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      await rig.server.behave(.holds)
      let first = Task {
        try await rig.register(Rig.budsAddress, placement: .inEar)
      }
      await rig.server.waitUntilHolding()
      rig.clock.advance(by: 1)
      // While the first batch is held: the headset is registered and put
      // on, and four requests follow.
      let accessory = try await rig.engine.pair(
        BluetoothAddress(Rig.headsetAddress)!, displayName: "Headset",
        formFactor: .headphone)
      try await rig.engine.register(
        accessory, .init(deviceCapabilities: [.audioSwitching, .placement]))
      _ = try await rig.engine.update(BluetoothAddress(Rig.headsetAddress)!) {
        $0.devicePlacement = .onHead
      }
      let later = (0..<4).map { index in
        Task {
          await rig.router.reconcile(because: .other("request \(index)"))
        }
      }
      // All four wait behind the held batch.
      while rig.router.queuedTriggerCount < 4 { await Task.yield() }
      #expect(await rig.batches.count == 1)
      await rig.server.release()
      _ = try await first.value
      for task in later { #expect(await task.value == false) }
      // One reconcile covered all four: one batch, to the headset.
      let batches = await rig.batches
      #expect(batches.count == 2)
      #expect(batches.last?.defaultSink == Rig.headset)
    }
  }

  @Test("A request that arrives mid-reconcile is answered by the next one")
  func requestMidReconcile() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      await rig.server.behave(.holds)
      let order = OrderLog()
      let first = Task {
        _ = try await rig.register(Rig.budsAddress, placement: .inEar)
        order.append("first answered")
      }
      await rig.server.waitUntilHolding()
      rig.clock.advance(by: 1)
      let second = Task {
        _ = try await rig.register(Rig.headsetAddress, placement: .onHead)
        order.append("second answered")
      }
      while rig.router.queuedTriggerCount == 0 { await Task.yield() }
      order.append("released")
      await rig.server.release()
      try await first.value
      try await second.value
      // Neither was answered while the first batch was held.
      #expect(order.entries.first == "released")
      #expect(order.entries.count == 3)
      // The second request's change was routed before it was answered.
      let batches = await rig.batches
      let report = await rig.router.report(explaining: true)
      #expect(batches.last?.defaultSink == Rig.headset, "\(batches) \(report)")
    }
  }

  @Test(
    "The server lost in the middle of a batch: pending, then applied on return")
  func serverLostMidBatch() async throws {
    try await Rig.run { rig in
      await rig.server.behave(.goesAway)
      let pending = try await rig.register(Rig.budsAddress, placement: .inEar)
      #expect(pending)
      #expect(await rig.router.report(explaining: false).pending)
      await rig.server.behave(.applies)
      let restarted = ScriptedSoundServer(
        sinks: [(Rig.speaker, nil), (Rig.buds, Rig.budsAddress)],
        defaultSink: Rig.speaker, streams: [(1, Rig.speaker)])
      await rig.server.comeBack(await restarted.state!)
      await rig.server.waitForBatches(2)
      #expect(await rig.batches.last?.defaultSink == Rig.buds)
      await rig.router.reconcile(because: "a test asked")
      let report = await rig.router.report(explaining: false)
      let batches = await rig.batches
      #expect(!report.pending, "\(batches) \(report)")
    }
  }

  @Test(
    "Moves sent again because the server did not show them are one history entry",
    .timeLimit(.minutes(1)))
  func resentMovesAreOneHistoryEntry() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      await rig.server.behave(.dropsMoves)
      try await rig.register(Rig.budsAddress, placement: .inEar)
      // The router's own check finds the moves missing and sends them
      // again, twice.
      for sent in 2...3 {
        rig.clock.advance(by: EngineLoop.confirmationDelay + 0.1)
        await rig.server.waitForBatches(sent)
        await Self.waitForResends(sent - 1, rig)
      }
      let history = rig.router.board.history(limit: 10)
      let batches = await rig.batches
      #expect(batches.filter { !$0.moves.isEmpty }.count == 3, "\(batches)")
      // One entry, the person's and the engine's own change, with the two
      // re-sends counted in it.
      #expect(history.count == 1, "\(history)")
      #expect(history.first?.output == Rig.buds, "\(history)")
      #expect(history.first?.resends == 2, "\(history)")
    }
  }

  /// Waits until the history counts `count` re-sends in its newest
  /// entry: the re-send is concluded, and the loop's next check is set.
  private static func waitForResends(_ count: Int, _ rig: Rig) async {
    var history = rig.router.board.history(limit: 1)
    for _ in 0..<10_000 where history.first?.resends != count {
      await Task.yield()
      history = rig.router.board.history(limit: 1)
    }
    // Published as the loop changed it: once the loop is free, it is done
    // with the re-send.
    _ = await rig.router.decisionCount
  }

  @Test(
    "A route the server never carries out is sent again five times, then pending until something changes",
    .timeLimit(.minutes(1)))
  func resendsAreBounded() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      await rig.server.behave(.dropsMoves)
      try await rig.register(Rig.budsAddress, placement: .inEar)
      let limit = EngineLoop.resendLimit
      for sent in 2...(limit + 1) {
        rig.clock.advance(by: EngineLoop.confirmationDelay + 0.1)
        await rig.server.waitForBatches(sent)
        await Self.waitForResends(sent - 1, rig)
      }
      // The next check sends nothing and leaves the route pending; the
      // server's unchanged states decide nothing meanwhile.
      rig.clock.advance(by: EngineLoop.confirmationDelay + 0.1)
      var report = await rig.router.report(explaining: false)
      for _ in 0..<10_000 where !report.pending {
        await Task.yield()
        report = await rig.router.report(explaining: false)
      }
      #expect(report.pending)
      #expect(await rig.batches.count == limit + 1)
      // A change routes again.
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.batches.count == limit + 2)
      #expect(!(await rig.router.report(explaining: false).pending))
    }
  }

  @Test(
    "A default the server never reported makes the router load a fresh state")
  func unreportedDefaultRefreshes() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      await rig.server.behave(.appliesSilently)
      try await rig.register(Rig.budsAddress, placement: .inEar)
      #expect(await rig.server.reconnects == 0)
      await rig.server.behave(.applies)
      rig.clock.advance(by: EngineLoop.confirmationDelay + 0.1)
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.server.reconnects == 1)
      // The fresh state shows the router's own change: no person's choice,
      // and nothing sent again.
      let report = await rig.router.report(explaining: true)
      #expect(report.output == Rig.buds)
      #expect(await rig.batches.count == 1)
    }
  }

  @Test(
    "Taken off before the server reported their default, the buds keep the output through the grace time"
  )
  func takenOffBeforeTheDefaultWasReported() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      await rig.server.behave(.appliesSilently)
      try await rig.register(Rig.budsAddress, placement: .inEar)
      #expect(await rig.server.defaultSink == Rig.buds)
      // The state this router has still shows the speaker: it decides on
      // the default it sent.
      try await rig.place(Rig.budsAddress, .offHead)
      let report = await rig.router.report(explaining: true)
      #expect(report.output == Rig.buds, "\(report)")
      #expect(
        report.text?.contains("grace time in case it is put back on")
          == true, "\(report)")
      #expect(await rig.batches.count == 1)
    }
  }

  @Test(
    "route --explain keeps the switch through an output that comes, and takes the decision when headphones come"
  )
  func explanationThroughOutputsThatCome() async throws {
    try await Rig.run { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      func trigger() async -> String? {
        await rig.caughtUp()
        await rig.router.reconcile(because: .serverChanged)
        return await rig.router.report(explaining: false).trigger
      }
      #expect(await trigger() == "an accessory was registered")
      // A display's output: the switch stays the one explained.
      await rig.server.addSink("hdmi", address: nil)
      #expect(await trigger() == "an accessory was registered")
      // Headphones nobody registered connect, and do not take the output
      // from the worn buds: that decision is the one explained.
      rig.clock.advance(by: 1)
      await rig.server.addSink("phones", address: "AA:BB:CC:DD:EE:09")
      #expect(await trigger() == "the sound server changed")
      let explained = await rig.router.report(explaining: true)
      #expect(
        explained.text?.contains("does not take it") == true, "\(explained)")
      // The same headphones under another profile's output: that decision
      // stays the one explained.
      rig.clock.advance(by: 1)
      await rig.server.removeSink("phones")
      await rig.server.addSink("phones-hfp", address: "AA:BB:CC:DD:EE:09")
      await rig.caughtUp()
      await rig.router.reconcile(because: .serverChanged)
      let after = await rig.router.report(explaining: false)
      #expect(after.decidedAt == explained.decidedAt, "\(after)")
    }
  }

  @Test(
    "A default PipeWire kept from its clients is read through a new one; the streams that followed it are not pinned",
    .timeLimit(.minutes(1))
  )
  func unreportedPersonsDefault() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      await rig.server.personChoosesDefaultUnreported(Rig.speaker)
      let event = await rig.events.nextPersonsChoice()
      #expect(event?["output"]?.stringValue == Rig.speaker)
      await rig.router.reconcile(because: "a test asked")
      #expect(await rig.server.defaultChecks == 1)
      #expect(await rig.server.reconnects == 1)
      #expect(await rig.router.report(explaining: false).output == Rig.speaker)
      #expect(await rig.batches.count == 1)
      // Until an accessory changes: put on again, the buds take the
      // default and the streams that followed the person's choice.
      try await rig.place(Rig.budsAddress, .offHead)
      rig.clock.advance(by: 5)
      try await rig.place(Rig.budsAddress, .inEar)
      #expect(await rig.server.defaultSink == Rig.buds)
      let last = try #require(await rig.batches.last)
      #expect(last.defaultSink == Rig.buds)
      #expect(Set(last.moves.map(\.sinkInput)) == [1, 2])
    }
  }

  @Test(
    "A stream the person moves off the default on PipeWire stays theirs",
    .timeLimit(.minutes(1)))
  func personsMoveOffTheDefaultIsChecked() async throws {
    try await Rig.run(isPipeWire: true) { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      await rig.server.personMoves(1, to: Rig.speaker)
      await rig.caughtUp()
      await rig.router.reconcile(because: "a test asked")
      // The defaults agree: no fresh state; the move is the person's,
      // announced once checked, and the stream stays pinned.
      #expect(await rig.router.personsMoves == [1])
      #expect(await rig.server.defaultChecks == 1)
      #expect(await rig.server.reconnects == 0)
      try await rig.place(Rig.budsAddress, .offHead)
      rig.clock.advance(by: 5)
      try await rig.place(Rig.budsAddress, .inEar)
      #expect(await rig.server.sinkOf(1) == Rig.speaker)
      #expect(await rig.server.sinkOf(2) == Rig.buds)
    }
  }

  @Test("--explain names the switch, not the echo; history lists the changes")
  func explainAndHistory() async throws {
    try await Rig.run { rig in
      try await rig.register(Rig.budsAddress, placement: .inEar)
      // The server's echo of the switch decides again; explain keeps the
      // switch.
      await rig.server.change { _ in }
      await rig.router.reconcile(because: .serverChanged)
      let report = await rig.router.report(explaining: true)
      #expect(report.trigger == "an accessory was registered")
      #expect(report.output == Rig.buds)
      let history = rig.router.board.history(limit: 10)
      #expect(history.map(\.output) == [Rig.buds])
      #expect(history.first?.defaultChanged == true)
    }
  }

  @Test("History lists a change while it goes out, once after it went out")
  func historyListsTheChangeGoingOut() async throws {
    try await Rig.run { rig in
      await rig.server.behave(.holds)
      let registering = Task {
        try await rig.register(Rig.budsAddress, placement: .inEar)
      }
      await rig.server.waitUntilHolding()
      let going = rig.router.board.history(limit: 10)
      #expect(going.map(\.output) == [Rig.buds])
      #expect(going.first?.trigger == "an accessory was registered")
      #expect(going.first?.summary.isEmpty == false)
      #expect(rig.router.board.history(limit: 0).isEmpty)
      await rig.server.release()
      _ = try await registering.value
      let gone = rig.router.board.history(limit: 10)
      #expect(gone == going)
    }
  }

  @Test("A stopped router answers at once that the route is pending")
  func stoppedRouterAnswers() async throws {
    let server = ScriptedSoundServer(
      sinks: [("speaker", nil)], defaultSink: "speaker")
    let router = EngineLoop(
      engine: RegistryStore(), link: server,
      policies: try PolicyStore(path: nil), hostAddresses: [],
      events: EventHub(), logger: .init(label: "t", logLevel: .critical),
      clock: ManualEngineClock())
    let running = Task { try await router.run() }
    let waiting = Task { await router.reconcile(because: "a test asked") }
    running.cancel()
    _ = await waiting.value
    try await running.value
    #expect(await router.reconcile(because: "after the stop"))
  }
}

/// What happened, in order, from several tasks.
final class OrderLog: Sendable {
  private let log = Mutex<[String]>([])

  /// Adds an entry.
  func append(_ entry: String) { log.withLock { $0.append(entry) } }

  /// The entries so far.
  var entries: [String] { log.withLock { $0 } }
}
