// Which desktop notifications the daemon's changes call for, decided from
// one reading of its state to the next, without a bus: headphones that
// connected (their battery added once it is read), media paused because
// headphones came off, and the output moved because the one it was on
// went away and did not come back.

import AccessoryControl
import AudioAccessoryKit
import RoutingCore
import SessionBusInterfaces

/// A notification to show.
struct DesktopNotification: Sendable, Hashable {
  /// What it tells; each can be turned off in the policy.
  enum Kind: String, Sendable, Hashable {
    /// Headphones connected (`notifications.connected`).
    case connected
    /// Media paused because headphones came off
    /// (`notifications.pausedWhenTakenOff`).
    case pausedWhenTakenOff
    /// The output moved to something the person did not choose
    /// (`notifications.unexpectedOutput`).
    case unexpectedOutput
  }

  /// What it tells.
  var kind: Kind
  /// What a later notification of the same key replaces: the kind and
  /// the accessory's address, or the kind alone.
  var key: String
  /// The title.
  var summary: String
  /// The text below it.
  var body: String
  /// A freedesktop icon name.
  var icon: String

  /// Whether the policy lets it be shown.
  func isShown(under policy: Policy) -> Bool {
    switch kind {
    case .connected: policy.notifyConnected
    case .pausedWhenTakenOff: policy.notifyPausedWhenTakenOff
    case .unexpectedOutput: policy.notifyUnexpectedOutput
    }
  }
}

/// Decides the notifications from the daemon's readings.
struct NotificationPlanner: Sendable {
  /// An output that went away, waited on for the reappear grace time.
  struct OutputGone: Sendable, Hashable {
    var output: String
    var description: String
    var accessory: String?
    /// When the grace time is over; nil once it is, while the route still
    /// names the output: each new reading then looks again.
    var checkAt: Double?
    /// When it was seen to go.
    var wentAt: Double
  }

  /// How long after an output went the route may still leave it for the
  /// move to be told: on a machine so busy that the router takes longer,
  /// a later move is not this one.
  static let routeWaitLimit = 120.0

  /// How long after connecting a battery read for the first time is
  /// added to the notification.
  static let batteryWait = 60.0

  /// The last reading.
  private(set) var last: DesktopState?
  /// When each accessory's output last went away, by address.
  private var outputWentAt: [String: Double] = [:]
  /// The accessories announced without a battery, until when one is
  /// added.
  private var awaitingBattery: [String: Double] = [:]
  /// The outputs the route left lately: until when each counts as where
  /// the audio was, and the reading that saw it left.
  private var recentRoutes: [String: (until: Double, reading: Int)] = [:]
  /// How long an output the route left counts as where the audio was; it
  /// counts in the next reading too, however late that comes.
  static let routeMemory = 2.0
  /// How many readings were taken.
  private var readings = 0
  /// Outputs that went away while the audio was on them.
  private(set) var gone: [OutputGone] = []

  /// The next time ``due(at:policy:)`` has something to decide.
  var nextCheck: Double? { gone.compactMap(\.checkAt).min() }

  /// What each output seen was: its description and its accessory's
  /// address, kept after it goes.
  private var known: [String: (description: String, accessory: String?)] = [:]

  /// Takes a new reading: the headphones that connected, and the output
  /// the audio was on if it went away.
  ///
  /// A reading with the sound server away, and the first after it, only
  /// set where things are: outputs that come with a server are not
  /// headphones that connect.
  mutating func take(
    _ state: DesktopState, at now: Double, policy: Policy
  ) -> [DesktopNotification] {
    for output in state.overview.devices.outputs {
      known[output.name] = (output.description, output.accessory)
    }
    for accessory in state.overview.accessories {
      if let output = accessory.output {
        known[output, default: (output, nil)].accessory = accessory.address
      }
    }
    defer { last = state }
    readings += 1
    guard let last, Self.isConnected(last), Self.isConnected(state) else {
      // Outputs that come and go with the server are not headphones that
      // went away.
      if !Self.isConnected(state) { gone = [] }
      return []
    }
    // The gone outputs whose grace time is over, the route still naming
    // them at the check: the route may have left them since.
    var notifications = settle(
      gone.filter { $0.checkAt == nil }, in: state, at: now)
    let before = Dictionary(
      last.overview.accessories.map { ($0.address, $0) }
    ) { first, _ in first }
    for accessory in state.overview.accessories {
      let previous = before[accessory.address]
      let address = accessory.address
      if accessory.output != nil, previous?.output == nil {
        // Back within the grace time is a profile switch, not a connection.
        if let went = outputWentAt[address],
          now - went <= policy.reappearGraceSeconds
        {
          continue
        }
        let battery = Self.battery(accessory)
        notifications.append(Self.connected(accessory, battery: battery))
        if battery.isEmpty { awaitingBattery[address] = now + Self.batteryWait }
      } else if accessory.output == nil, previous?.output != nil {
        outputWentAt[address] = now
      } else if let until = awaitingBattery[address] {
        let battery = Self.battery(accessory)
        if now > until || accessory.output == nil {
          awaitingBattery[address] = nil
        } else if !battery.isEmpty {
          awaitingBattery[address] = nil
          notifications.append(Self.connected(accessory, battery: battery))
        }
      }
    }
    for previous in last.overview.accessories
    where previous.output != nil
      && !state.overview.accessories.contains(where: {
        $0.address == previous.address
      })
    {
      outputWentAt[previous.address] = now
    }
    // The route may leave an output a moment before the output is seen
    // to go (the server moves its default first).
    if let output = last.route.output, state.route.output != output {
      recentRoutes[output] = (now + Self.routeMemory, readings)
    }
    recentRoutes = recentRoutes.filter {
      $0.value.until >= now || $0.value.reading >= readings - 1
    }
    // The audio's output went away: wait for the grace time before saying
    // where it is now.
    for output in last.overview.devices.outputs.map(\.name)
    where !state.overview.devices.outputs.contains(where: { $0.name == output })
      && (output == last.route.output || recentRoutes[output] != nil)
    {
      recentRoutes[output] = nil
      gone.append(
        OutputGone(
          output: output, description: known[output]?.description ?? output,
          accessory: known[output]?.accessory,
          checkAt: now + policy.reappearGraceSeconds, wentAt: now))
    }
    return notifications
  }

  static func isConnected(_ state: DesktopState) -> Bool {
    state.overview.status.soundServer.state == .connected
  }

  /// Says where the audio is now for each output that went away and did
  /// not come back within the grace time.
  mutating func due(at now: Double) -> [DesktopNotification] {
    guard let state = last else { return [] }
    let ready = gone.filter { $0.checkAt.map { $0 <= now } ?? false }
    gone.removeAll { $0.checkAt.map { $0 <= now } ?? false }
    return settle(ready, in: state, at: now)
  }

  /// Decides each gone output whose grace time is over, from one reading.
  ///
  /// The route that still names it has not left it yet (the router waits
  /// out the grace time from when the output went, which was a little
  /// earlier, and a busy machine makes that later still): it is kept, and
  /// decided again by the next reading, until the route leaves it, it
  /// comes back, or ``routeWaitLimit`` has passed.
  private mutating func settle(
    _ outputs: [OutputGone], in state: DesktopState, at now: Double
  ) -> [DesktopNotification] {
    var notifications: [DesktopNotification] = []
    for went in outputs {
      gone.removeAll { $0 == went }
      let isBack = state.overview.devices.outputs.contains {
        $0.name == went.output
      }
      guard let current = state.route.output, current != went.output else {
        if !isBack, now - went.wentAt <= Self.routeWaitLimit {
          var waiting = went
          waiting.checkAt = nil
          gone.append(waiting)
        }
        continue
      }
      // Its accessory has the audio again, under another output.
      if let address = went.accessory,
        state.overview.accessories.contains(where: {
          $0.address == address && $0.output == current
        })
      {
        continue
      }
      notifications.append(
        DesktopNotification(
          kind: .unexpectedOutput, key: "unexpectedOutput",
          summary: "Audio moved to \(known[current]?.description ?? current)",
          body: "\(went.description) went away.",
          icon: "audio-speakers"))
    }
    return notifications
  }

  /// The notification for media paused because headphones came off, or
  /// nil when it was paused for another reason.
  func paused(_ event: MediaEvent, route: RouteReport) -> DesktopNotification? {
    guard event.eventType == .mediaPaused,
      let pause = route.paused?.first(where: {
        $0.accessory == event.accessory
      }), pause.cause == .takenOff
    else { return nil }
    let name =
      last?.overview.accessories.first { $0.address == event.accessory }?
      .displayName ?? event.accessory
    var body = ListFormat.sentence(
      ListFormat.counted(event.players.map(\.name)))
    if let until = pause.resumeUntil {
      let seconds = Int((until - pause.pausedAt).rounded())
      body +=
        (body.isEmpty ? "" : ". ")
        + "Put them back on within \(seconds) s and they play on."
    }
    return DesktopNotification(
      kind: .pausedWhenTakenOff, key: "pausedWhenTakenOff \(event.accessory)",
      summary: "Paused: \(name) came off", body: body,
      icon: "media-playback-pause")
  }

  // MARK: - Wording

  /// The battery read from the headphones, while the link to them is up.
  static func battery(
    _ accessory: AccessoryRecord<AccessoryControlDevice.Configuration>
  ) -> [HeadphoneLink.Battery] {
    guard let link = accessory.headphones, link.state == .connected else {
      return []
    }
    return link.battery
  }

  static func connected(
    _ accessory: AccessoryRecord<AccessoryControlDevice.Configuration>,
    battery: [HeadphoneLink.Battery]
  ) -> DesktopNotification {
    DesktopNotification(
      kind: .connected, key: "connected \(accessory.address)",
      summary: "\(accessory.displayName) connected",
      body: batteryText(battery), icon: "audio-headphones")
  }

  /// Each part's charge, as a phone shows it: `Left 80% · Right 75% ·
  /// Case 40% (charging)`.
  static func batteryText(_ battery: [HeadphoneLink.Battery]) -> String {
    BatteryText.line(
      battery.map {
        BatteryPart(
          part: $0.part, percent: $0.percent, isCharging: $0.charging == true)
      })
  }
}

/// Lists for people.
enum ListFormat {
  /// Each name once, in order, with how many times it came when more
  /// than once: `mpv (2)`.
  static func counted(_ names: [String]) -> [String] {
    var counts: [String: Int] = [:]
    var order: [String] = []
    for name in names {
      if counts[name] == nil { order.append(name) }
      counts[name, default: 0] += 1
    }
    return order.map { counts[$0]! > 1 ? "\($0) (\(counts[$0]!))" : $0 }
  }

  /// `a`, `a and b`, `a, b and c`.
  static func sentence(_ items: [String]) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + items.last!
  }
}
