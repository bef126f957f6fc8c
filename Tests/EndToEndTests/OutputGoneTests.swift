// An accessory's output that goes, end to end, on each server as it
// behaves: PulseAudio and WirePlumber 0.4 move the streams to another
// output at once; WirePlumber 0.5 keeps them on no output for about 2 s
// before it links them to the fallback. Either way no stream is heard on
// the speaker, `route --explain` answers meanwhile, and the streams end
// where accessoryd decided. The server keeps the output that went as its
// configured default and would switch back to it by itself; accessoryd
// makes it forget, so that only accessoryd switches to headphones that
// return.

import ConcurrencyHelpers
import Foundation
import PulseAudio
import SoundServerModel
import TestSupport
import Testing

@Suite("An accessory's output that goes, end to end")
struct OutputGoneTests {
  @Test(
    "Its streams are never heard, however long the server holds them on no output, and end where accessoryd decides",
    arguments: SoundServerKind.allCases)
  func streamsHeldOnNoOutput(_ kind: SoundServerKind) async throws {
    try await withRig(kind) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.eventuallyRouted(to: "buds")
      let processes = Set(
        try await rig.server.sinkInputs().filter {
          $0.clientName?.hasPrefix(streamPrefix) ?? false
        }.compactMap { $0.properties["application.process.id"] }
          .compactMap { Int32($0) })
      #expect(processes.count == 3)
      let watch = try await AudibilityWatch.start(
        rig.server, sink: "speaker", processes: processes)
      defer { _ = watch.stop() }
      let isPipeWire1 = try await rig.server.pactl(["info"]).contains(
        "PipeWire 1.")
      let module = try #require(
        try await rig.server.sinks().first { $0.name == "buds" }?.ownerModule)
      try await rig.server.unloadModule(module)

      // Watches the server until every stream plays on the speaker; while
      // the server holds them on no output, asks accessoryd to explain.
      var heldExplanation: AcctlResult?
      let deadline = ContinuousClock.now + .seconds(45)
      var observed = try await rig.observe()
      while !observed.isRouted(to: "speaker", streams: 3) {
        guard ContinuousClock.now < deadline else {
          throw RigFailure(
            "the streams never reached the speaker: \(observed)",
            details: await rig.diagnostics())
        }
        if heldExplanation == nil,
          observed.streams.contains(where: { $0.sink == nil })
        {
          heldExplanation = try await rig.daemon.acctl(["route", "--explain"])
        }
        try await Task.sleep(for: .milliseconds(50))
        observed = try await rig.observe()
      }
      if isPipeWire1, !watch.sawAStreamOnNoSink {
        // WirePlumber 0.5's hold, as Debian 13 has it, is seen at the
        // server's events; on a machine busy with the whole suite, the
        // watch's query after the event can come after accessoryd moved
        // the streams. What accessoryd must do is checked below either way.
        print("the server's hold on no output ended before the watch saw it")
      }
      if let heldExplanation {
        #expect(heldExplanation.status == 0, "\(heldExplanation)")
        #expect(
          heldExplanation.stdout.hasPrefix("output:       speaker"),
          "\(heldExplanation.stdout)")
        #expect(
          !heldExplanation.stdout.contains("moves from buds"),
          "\(heldExplanation.stdout)")
      }
      try await rig.staysRouted(to: "speaker", streams: 3)
      // Muted as the output went, before the server could play them on
      // the speaker, and never heard there since.
      #expect(watch.neverSilenced().isEmpty, "\(watch.audibleMoments)")
      #expect(watch.audibleAfterMuted().isEmpty, "\(watch.audibleMoments)")
    }
  }
}

extension OutputGoneTests {
  @Test(
    "The person's output that goes and comes back is theirs again; the server's fallback meanwhile is no choice of theirs",
    arguments: SoundServerKind.allCases)
  func theConfiguredOutputComesBack(_ kind: SoundServerKind) async throws {
    try await withRig(kind, phones: true) { rig in
      // The person picks the phones in their sound settings: the server's
      // configured default.
      try await rig.server.setDefaultSink("phones")
      try await rig.eventuallyRouted(to: "phones")
      try await waitUntil(
        "the daemon's route on the phones", within: .seconds(30)
      ) {
        try await rig.json(["route"])["output"] == "phones"
      }
      // The phones go out of range: the server falls back to another
      // output and keeps the phones as the configured default.
      let module = try #require(
        try await rig.server.sinks().first { $0.name == "phones" }?
          .ownerModule)
      try await rig.server.unloadModule(module)
      try await rig.eventually("the default off the phones") {
        $0.defaultSink != nil && $0.defaultSink != "phones"
      }
      // Back under the same name: the person's output again.
      _ = try await rig.server.loadNullSink(
        .bluetoothHeadphones(
          name: "phones", address: phonesAddress,
          description: "Travel Phones", deviceAPI: kind.bluetoothDeviceAPI))
      try await rig.eventuallyRouted(to: "phones")
      try await rig.staysRouted(to: "phones", for: .seconds(1))
      let route = try await rig.json(["route"])
      #expect(route["output"] == "phones", "\(route)")
    }
  }
}

extension OutputGoneTests {
  @Test(
    "Headphones gone for good come back off the head without the server switching to them by itself",
    arguments: SoundServerKind.allCases)
  func theServerForgetsTheGoneHeadphones(_ kind: SoundServerKind) async throws {
    let policy = try DaemonFixture.policyText().replacingOccurrences(
      of: "reappearGraceSeconds: 5,", with: "reappearGraceSeconds: 1,")
    try await withRig(kind, policy: policy) { rig in
      try await rig.pairAndRegister(budsAddress, placement: "inEar")
      try await rig.eventuallyRouted(to: "buds")
      let module = try #require(
        try await rig.server.sinks().first { $0.name == "buds" }?.ownerModule)
      try await rig.server.unloadModule(module)
      try await rig.eventuallyRouted(to: "speaker")
      // Past the reappear grace time the buds are gone for good, and the
      // daemon keeps the speaker the server fell back to.
      // Past the reappear grace time the buds are gone for good. The
      // daemon either switches the default itself (when its connection saw
      // the default on the buds after they went, as pipewire-pulse's may),
      // or keeps the speaker the server fell back to and sets it again:
      // either replaces the server's configured default, the buds.
      try await waitUntil(
        "the daemon's own default after the buds went", within: .seconds(15)
      ) {
        if rig.daemon.log.contains(
          "Set the default again so that the server forgets")
        {
          return true
        }
        let newest = try await rig.routeChanges().first
        return newest?["output"] == "speaker"
          && newest?["defaultChanged"] == true
      }
      // Taken off while away, then back in range.
      try await rig.place(budsAddress, "offHead")
      let watch = try await DefaultWatch.start(rig.server)
      defer { watch.stop() }
      _ = try await rig.server.loadNullSink(
        .bluetoothHeadphones(
          name: "buds", address: budsAddress, description: "Studio Buds",
          deviceAPI: kind.bluetoothDeviceAPI))
      try await waitUntil("the daemon sees the buds", within: .seconds(30)) {
        try await rig.ok(["list", "--json"]).stdout.contains("\"buds\"")
      }
      try await rig.staysRouted(to: "speaker", for: .seconds(1))
      #expect(
        !watch.defaults.contains("buds"),
        "the server switched to the buds: \(watch.defaults)")
    }
  }
}

/// An independent libpulse client that records every default output the
/// server shows, at each of its changes.
final class DefaultWatch: Sendable {
  private let connection: PulseConnection
  private let seen = Mutex<[String]>([])
  private let task = Mutex<Task<Void, Never>?>(nil)

  private init(connection: PulseConnection) {
    self.connection = connection
  }

  /// Starts watching a server's default output.
  static func start(_ server: SoundServer) async throws -> DefaultWatch {
    let connection = try await PulseConnection.connect(
      .init(server: server.serverAddress, applicationName: "default-watch"))
    let watch = DefaultWatch(connection: connection)
    let events = connection.events
    let check: @Sendable () async -> Void = {
      guard let name = try? await connection.serverInfo().defaultSinkName
      else { return }
      watch.seen.withLock { $0.append(name) }
    }
    let task = await following(events, of: [.server, .sink], check)
    watch.task.withLock { $0 = task }
    return watch
  }

  /// Every default output seen, in order.
  var defaults: [String] { seen.withLock { $0 } }

  /// Stops watching.
  func stop() {
    task.withLock { $0?.cancel() }
    connection.close()
  }
}
