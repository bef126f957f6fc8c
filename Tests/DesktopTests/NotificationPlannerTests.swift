// Which notifications the daemon's changes call for, without a bus:
// headphones that connect (a profile switch is not a connection), the
// battery added once it is read, media paused because headphones came
// off, and the output moved when the one it was on went away and stayed
// away for the grace time.

import AccessoryControl
import AudioAccessoryKit
import Foundation
import RoutingCore
import Testing

@testable import DaemonDesktop

private let buds = "AA:BB:CC:DD:EE:01"

/// A reading with these accessories (address, output, battery) and
/// outputs (name, description), the route on `route`.
private func state(
  accessories: [(String, String?, [HeadphoneLink.Battery])],
  outputs: [(String, String)], route: String?,
  paused: [PausedMedia]? = nil
) -> DesktopState {
  var report = RouteReport(
    output: route, description: nil, pending: false, soundServer: .connected,
    summary: "")
  report.paused = paused
  return DesktopState(
    overview: DaemonOverview(
      status: DaemonStatus(
        version: "0", soundServer: .init(state: .connected), policyPath: "",
        statePath: "", socketPath: "", hostAddresses: []),
      devices: AudioDevices(
        soundServer: .connected,
        outputs: outputs.map {
          .init(
            name: $0.0, description: $0.1, isDefault: $0.0 == route,
            isPersonsChoice: false, isAvailable: true, accessory: nil,
            accessoryName: nil, why: "")
        }, inputs: [], streams: []),
      accessories: accessories.map { address, output, battery in
        AccessoryRecord(
          address: address, displayName: "Studio Buds", state: .headphones,
          output: output,
          headphones: battery.isEmpty
            ? nil
            : HeadphoneLink(
              protocolName: "aap", state: .connected, battery: battery))
      },
      players: MediaPlayerList(media: .init(following: true), players: [])),
    route: report)
}

/// The buds connected, the audio on `route`.
private func budsThere(
  route: String, battery: [HeadphoneLink.Battery] = []
)
  -> DesktopState
{
  state(
    accessories: [(buds, "buds", battery)], outputs: [speaker, budsSink],
    route: route)
}

/// The buds' output gone, the audio on `route`.
private func budsGone(route: String) -> DesktopState {
  state(accessories: [(buds, nil, [])], outputs: [speaker], route: route)
}

private let speaker = ("speaker", "Built-in Speaker")
private let budsSink = ("buds", "Studio Buds")
private let level: [HeadphoneLink.Battery] = [
  .init(part: "case", percent: 40, charging: true),
  .init(part: "left", percent: 80), .init(part: "right", percent: 75),
]

@Suite("Desktop notifications: what calls for one")
struct NotificationPlannerTests {
  @Test("Headphones that connect; their battery added once read")
  func connected() {
    var planner = NotificationPlanner()
    let policy = Policy()
    #expect(
      planner.take(
        state(accessories: [], outputs: [speaker], route: "speaker"), at: 0,
        policy: policy
      ).isEmpty, "the first reading is where it starts")
    let came = planner.take(
      budsThere(route: "buds"), at: 1, policy: policy)
    #expect(
      came == [
        DesktopNotification(
          kind: .connected, key: "connected \(buds)",
          summary: "Studio Buds connected",
          body: "", icon: "audio-headphones")
      ])
    let read = planner.take(
      budsThere(route: "buds", battery: level), at: 3, policy: policy)
    #expect(
      read.map(\.body) == ["Left 80% · Right 75% · Case 40% (charging)"])
    #expect(read.first?.key == came.first?.key, "it replaces the first")
    // Read again: nothing more.
    #expect(
      planner.take(
        budsThere(route: "buds", battery: level), at: 4, policy: policy
      ).isEmpty)
  }

  @Test("A profile switch within the grace time is not a connection")
  func profileSwitch() {
    var planner = NotificationPlanner()
    let policy = Policy()
    let worn = budsThere(route: "buds", battery: level)
    _ = planner.take(worn, at: 0, policy: policy)
    _ = planner.take(
      state(
        accessories: [(buds, nil, level)], outputs: [speaker], route: "buds"),
      at: 1, policy: policy)
    #expect(
      planner.take(
        state(
          accessories: [(buds, "buds-hfp", level)],
          outputs: [speaker, ("buds-hfp", "Studio Buds")], route: "buds-hfp"),
        at: 2, policy: policy
      ).isEmpty)
    // After the grace time, it is.
    _ = planner.take(
      state(
        accessories: [(buds, nil, level)], outputs: [speaker], route: "speaker"),
      at: 3, policy: policy)
    #expect(
      planner.take(
        worn, at: 3 + policy.reappearGraceSeconds + 1, policy: policy
      )
      .map(\.summary) == ["Studio Buds connected"])
  }

  @Test("The output moved: said only if it stays away for the grace time")
  func outputMoved() {
    var planner = NotificationPlanner()
    let policy = Policy()
    _ = planner.take(
      budsThere(route: "buds"), at: 0, policy: policy)
    _ = planner.take(
      budsGone(route: "speaker"),
      at: 1, policy: policy)
    #expect(planner.nextCheck == 1 + policy.reappearGraceSeconds)
    #expect(planner.due(at: 2).isEmpty)
    #expect(
      planner.due(at: 1 + policy.reappearGraceSeconds) == [
        DesktopNotification(
          kind: .unexpectedOutput, key: "unexpectedOutput",
          summary: "Audio moved to Built-in Speaker",
          body: "Studio Buds went away.", icon: "audio-speakers")
      ])

    // Back within the grace time, under another sink: nothing.
    var again = NotificationPlanner()
    _ = again.take(
      budsThere(route: "buds"), at: 0, policy: policy)
    _ = again.take(
      budsGone(route: "speaker"),
      at: 1, policy: policy)
    _ = again.take(
      state(
        accessories: [(buds, "buds-hfp", [])],
        outputs: [speaker, ("buds-hfp", "Studio Buds")], route: "buds-hfp"),
      at: 2, policy: policy)
    #expect(again.due(at: 10).isEmpty)
  }

  @Test("The output goes first and the route follows after the grace time")
  func routeFollowsLater() {
    var planner = NotificationPlanner()
    let policy = Policy()
    _ = planner.take(
      budsThere(route: "buds"), at: 0, policy: policy)
    // Gone, the route held for the grace time.
    _ = planner.take(
      budsGone(route: "buds"),
      at: 1, policy: policy)
    _ = planner.take(
      budsGone(route: "speaker"),
      at: 1 + policy.reappearGraceSeconds, policy: policy)
    #expect(
      planner.due(at: 1 + policy.reappearGraceSeconds).map(\.body) == [
        "Studio Buds went away."
      ])
  }

  @Test(
    "The route still names the gone output at the check: each reading looks again, however late"
  )
  func routeLeavesAfterTheCheck() {
    var planner = NotificationPlanner()
    let policy = Policy()
    let grace = policy.reappearGraceSeconds
    _ = planner.take(budsThere(route: "buds"), at: 0, policy: policy)
    _ = planner.take(budsGone(route: "buds"), at: 1, policy: policy)
    #expect(planner.due(at: 1 + grace).isEmpty)
    // No timer: the next reading decides.
    #expect(planner.nextCheck == nil)
    #expect(
      planner.take(budsGone(route: "buds"), at: 30, policy: policy).isEmpty)
    #expect(
      planner.take(budsGone(route: "speaker"), at: 60, policy: policy).map(
        \.summary) == ["Audio moved to Built-in Speaker"])
    #expect(planner.gone.isEmpty)

    // A route that leaves it only after the limit is another move.
    var late = NotificationPlanner()
    _ = late.take(budsThere(route: "buds"), at: 0, policy: policy)
    _ = late.take(budsGone(route: "buds"), at: 1, policy: policy)
    #expect(late.due(at: 1 + grace).isEmpty)
    let afterTheLimit = 1 + NotificationPlanner.routeWaitLimit + 1
    #expect(
      late.take(budsGone(route: "buds"), at: afterTheLimit, policy: policy)
        .isEmpty)
    #expect(late.gone.isEmpty)
    #expect(
      late.take(
        budsGone(route: "speaker"), at: afterTheLimit + 1, policy: policy
      ).isEmpty)

    // Back while the route still named it: connected again, nothing
    // moved, and nothing waits.
    var back = NotificationPlanner()
    _ = back.take(budsThere(route: "buds"), at: 0, policy: policy)
    _ = back.take(budsGone(route: "buds"), at: 1, policy: policy)
    #expect(back.due(at: 1 + grace).isEmpty)
    #expect(
      back.take(budsThere(route: "buds"), at: 9, policy: policy).map(\.kind)
        == [.connected])
    #expect(back.gone.isEmpty)
  }

  @Test(
    "The route leaves, and the next reading, however late, sees the output gone"
  )
  func outputSeenGoingInTheNextReading() {
    var planner = NotificationPlanner()
    let policy = Policy()
    _ = planner.take(budsThere(route: "buds"), at: 0, policy: policy)
    _ = planner.take(budsThere(route: "speaker"), at: 1, policy: policy)
    _ = planner.take(budsGone(route: "speaker"), at: 8, policy: policy)
    #expect(
      planner.due(at: 8 + policy.reappearGraceSeconds).map(\.summary) == [
        "Audio moved to Built-in Speaker"
      ])
  }

  @Test("The route leaves first, and the output is seen to go a moment later")
  func outputSeenGoingLater() {
    var planner = NotificationPlanner()
    let policy = Policy()
    _ = planner.take(
      budsThere(route: "buds"), at: 0, policy: policy)
    _ = planner.take(
      budsThere(route: "speaker"), at: 1, policy: policy)
    _ = planner.take(
      budsGone(route: "speaker"),
      at: 1.1, policy: policy)
    #expect(
      planner.due(at: 1.1 + policy.reappearGraceSeconds).map(\.summary) == [
        "Audio moved to Built-in Speaker"
      ])
    // An output the route left long before is not where the audio was.
    var later = NotificationPlanner()
    _ = later.take(
      budsThere(route: "speaker"), at: 0, policy: policy)
    _ = later.take(
      budsGone(route: "speaker"),
      at: 10, policy: policy)
    #expect(later.nextCheck == nil)
  }

  @Test(
    "Outputs that come with the sound server are not headphones that connect")
  func serverComesBack() {
    var planner = NotificationPlanner()
    let policy = Policy()
    var away = state(accessories: [], outputs: [], route: nil)
    away.overview.status.soundServer = .init(state: .disconnected)
    _ = planner.take(away, at: 0, policy: policy)
    #expect(
      planner.take(
        budsThere(route: "buds", battery: level), at: 1, policy: policy
      ).isEmpty)
    #expect(planner.nextCheck == nil)
  }

  @Test("Paused because they came off, with the players and the time to resume")
  func paused() {
    var planner = NotificationPlanner()
    let players: [MediaEvent.Player] = [
      .init(busName: "org.mpris.MediaPlayer2.mpv.a", name: "mpv"),
      .init(busName: "org.mpris.MediaPlayer2.mpv.b", name: "mpv"),
      .init(busName: "org.mpris.MediaPlayer2.firefox", name: "Firefox"),
    ]
    let taken = PausedMedia(
      accessory: buds, players: players, pausedAt: 100, resumeUntil: 160)
    let reading = state(
      accessories: [(buds, "buds", [])], outputs: [speaker, budsSink],
      route: "buds", paused: [taken])
    _ = planner.take(reading, at: 0, policy: Policy())
    let event = MediaEvent(
      eventType: .mediaPaused, accessory: buds, players: players,
      reason: "the accessory that had the output was taken off")
    #expect(
      planner.paused(event, route: reading.route)
        == DesktopNotification(
          kind: .pausedWhenTakenOff, key: "pausedWhenTakenOff \(buds)",
          summary: "Paused: Studio Buds came off",
          body: "mpv (2) and Firefox. Put them back on within 60 s and they "
            + "play on.",
          icon: "media-playback-pause"))
    var gone = taken
    gone.cause = .disconnected
    #expect(
      planner.paused(
        event,
        route: state(
          accessories: [], outputs: [], route: nil, paused: [gone]
        ).route) == nil)
  }

  @Test("Each kind is turned off by its own setting")
  func settings() {
    var policy = Policy()
    let kinds: [DesktopNotification.Kind] = [
      .connected, .pausedWhenTakenOff, .unexpectedOutput,
    ]
    let notifications = kinds.map {
      DesktopNotification(kind: $0, key: "", summary: "", body: "", icon: "")
    }
    #expect(notifications.allSatisfy { $0.isShown(under: policy) })
    policy.notifyConnected = false
    policy.notifyUnexpectedOutput = false
    #expect(
      notifications.filter { $0.isShown(under: policy) }.map(\.kind) == [
        .pausedWhenTakenOff
      ])
    policy.notifyPausedWhenTakenOff = false
    #expect(!notifications.contains { $0.isShown(under: policy) })
  }
}
