// acctl's text output: accessories, the route and its history, devices,
// events, headphone links, players and the daemon's status.

import AccessoryControl
import AudioAccessoryKit
import FoundationEssentials
import RoutingCore

extension Rendering {
  // MARK: - Text

  /// Returns an accessory as a block of labelled lines.
  static func accessory(_ accessory: DaemonAccessory) -> String {
    var lines = [
      "\(accessory.displayName) (\(canonicalAddress(accessory.address)))"
    ]
    func add(_ label: String, _ value: String) {
      lines.append(labelled(label, value, width: 19))
    }
    add("form factor", accessory.formFactor ?? "unknown")
    add("state", accessory.state.rawValue)
    add("output", accessory.output ?? "none")
    if let registration = accessory.registration {
      add(
        "registration",
        registration.invalidated ? "invalidated" : "registered")
      let configuration = registration.configuration
      add("capabilities", configuration.deviceCapabilities.description)
      add(
        "placement",
        configuration.devicePlacement.map(\.rawValue) ?? "none")
      if let source = accessory.placementSource {
        add("placement from", placementSource(source))
      }
      add(
        "primary source",
        configuration.primaryAudioSourceDeviceIdentifier.map(hexBytes)
          ?? "none")
      add(
        "secondary source",
        configuration.secondaryAudioSourceDeviceIdentifier.map(hexBytes)
          ?? "none")
    } else {
      add("registration", "none")
    }
    if accessory.placementSourceChoice == "none" {
      add("headphones", "not read (registered with --placement-source none)")
    } else if let link = accessory.headphones {
      add("headphones", headphoneLink(link))
    }
    add(
      "battery",
      accessory.headphones.flatMap {
        $0.battery.isEmpty ? nil : battery($0.battery)
      } ?? "unknown: " + whyNoBattery(accessory))
    if accessory.routePending == true {
      add("route", "pending until the sound server is back")
    }
    if let known = accessory.knownFrom {
      add("known from", knownFrom(known))
    }
    return lines.joined(separator: "\n")
  }

  /// Returns a newly paired accessory, and, if nothing registered it yet,
  /// what accessoryd does with it now and what registering adds.
  static func paired(_ accessory: DaemonAccessory) -> String {
    var block = self.accessory(accessory)
    if let namesakes = accessory.sharesNameWith, !namesakes.isEmpty {
      let others = namesakes.map(canonicalAddress).joined(separator: ", ")
      block +=
        "\n\nNote: \(others) \(namesakes.count == 1 ? "is" : "are") named "
        + "'\(accessory.displayName)' too, in any case; commands that take a "
        + "name need the address to tell them apart. To give this one its "
        + "own name: acctl rename \(canonicalAddress(accessory.address)) "
        + "NEW-NAME"
    }
    guard accessory.registration == nil else { return block }
    let address = canonicalAddress(accessory.address)
    return block + "\n\n" + """
      Authorized for accessoryd (Bluetooth pairing itself is BlueZ's or your \
      desktop's). What happens now:
        AirPods and Galaxy Buds: accessoryd reads where they are from the \
      headphones and registers them once BlueZ connects them.
        Any headphones, registered or not: when they go away, what they \
      played is muted at once and paused, never heard on the speakers.
        For the output to follow other headphones as you put them on and take \
      them off, something must say where they are: register them \
      (acctl register \(address) --capabilities audioSwitching,placement \
      --placement inEar), then a companion, or acctl update \(address) \
      --placement offHead, reports each change.
      """
  }

  /// Where the knowledge of an accessory comes from, in the words
  /// `--json`'s `knownFrom` uses (`registration`, `pairing`, `headphones`,
  /// `bluez`, `soundServer`), so that one reading serves both.
  static func knownFrom(_ sources: [String]?) -> String {
    let known = sources ?? []
    return known.isEmpty ? "-" : known.joined(separator: ",")
  }

  /// Returns accessories as a table, one row each.
  static func accessoryList(_ accessories: [DaemonAccessory]) -> String {
    guard !accessories.isEmpty else { return "No accessories are paired." }
    // The sources, when the daemon says them.
    let saysSources = accessories.contains { $0.knownFrom != nil }
    var rows = [
      ["ADDRESS", "NAME", "CAPABILITIES", "PLACEMENT", "BATTERY", "OUTPUT"]
        + (saysSources ? ["KNOWN FROM"] : [])
    ]
    for accessory in accessories {
      let registration = accessory.registration
      let capabilitiesCell =
        if let registration {
          registration.invalidated
            ? "invalidated"
            : registration.configuration.deviceCapabilities.description
        } else {
          "-"
        }
      let capabilitiesOrState =
        accessory.state == .headphones ? "guarded" : capabilitiesCell
      rows.append(
        [
          canonicalAddress(accessory.address),
          accessory.displayName,
          capabilitiesOrState,
          registration?.configuration.devicePlacement?.rawValue ?? "-",
          accessory.headphones.flatMap {
            $0.battery.isEmpty ? nil : battery($0.battery, short: true)
          } ?? noBatteryCell(accessory),
          accessory.output ?? "-",
        ] + (saysSources ? [knownFrom(accessory.knownFrom)] : []))
    }
    return table(rows)
  }

  /// Returns the route: the output, whether it waits for the sound server,
  /// and with `explain` the daemon's explanation.
  static func route(_ route: RouteReport, explain: Bool) -> String {
    var output = route.output ?? "none"
    if let description = route.description, !description.isEmpty {
      output += " (\(description))"
    }
    // The last output seen is no current one while the server is away.
    if route.soundServer == .disconnected {
      output =
        "unknown: the sound server is away"
        + (route.output == nil ? "" : " (last seen: \(output))")
    }
    var lines = [
      labelled("output", output, width: 14, indent: 0),
      labelled(
        "pending",
        route.pending ? "yes, until the sound server is back" : "no",
        width: 14, indent: 0),
      labelled(
        "sound server", route.soundServer.rawValue, width: 14, indent: 0),
    ]
    if let input = route.input {
      var text = input
      if let description = route.inputDescription, !description.isEmpty {
        text += " (\(description))"
      }
      lines.insert(labelled("input", text, width: 14, indent: 0), at: 1)
    }
    if let call = route.call, call != .none {
      var text = call.rawValue
      for record in route.callProfiles ?? [] {
        text +=
          "; \(record.card) in '\(record.callProfile)', "
          + "'\(record.previousProfile)' back after the call"
      }
      lines.append(labelled("call", text, width: 14, indent: 0))
    }
    if let decidedAt = route.decidedAt, let trigger = route.trigger {
      lines.append(
        labelled(
          "decided", "\(ago(decidedAt)), because \(trigger)", width: 14,
          indent: 0))
    }
    // The explanation begins with the summary: print it once.
    if !explain, !route.summary.isEmpty {
      lines.append(labelled("summary", route.summary, width: 14, indent: 0))
    }
    var result = lines.joined(separator: "\n")
    if explain {
      let explanation = trimmingTrailingNewlines(route.text ?? "")
      result += "\n\n" + (explanation.isEmpty ? "No explanation." : explanation)
      for pause in route.paused ?? [] {
        result += "\n\n" + pausedMedia(pause)
      }
    }
    return result
  }

  /// Says what accessoryd paused and muted for one accessory, and why.
  static func pausedMedia(_ pause: PausedMedia) -> String {
    let accessory = canonicalAddress(pause.accessory)
    let when = ago(Date(timeIntervalSince1970: pause.pausedAt))
    let why =
      switch pause.cause {
      case .takenOff: "when \(accessory) was taken off"
      case .disconnected:
        "when \(accessory)'s output went away and did not come back"
      case .outputAway:
        "when \(accessory)'s output went away; it is expected back"
      default: "when \(accessory) changed (\(pause.cause.rawValue))"
      }
    var lines: [String] = []
    if !pause.players.isEmpty {
      let names = pause.players.map(\.name).joined(separator: ", ")
      var line = "Paused \(names), \(when), \(why)"
      if let resumesAt = pause.resumesAt {
        let left = max(resumesAt - Date().timeIntervalSince1970, 0)
        line +=
          "; back, they resume in \(ElapsedTime.span(left)) unless it drops "
          + "again"
      } else if let until = pause.resumeUntil {
        let left = Int((until - Date().timeIntervalSince1970).rounded())
        let back = pause.cause == .disconnected ? "back" : "put back on"
        line +=
          left > 0
          ? "; \(back) within \(span(left)), they resume"
          : "; too long ago to resume"
      } else if pause.cause == .disconnected {
        line += "; they are not resumed (media.resumeOnReconnect is false)"
      } else {
        line +=
          "; they are not resumed (media.resumeWhenPutBackWithinSeconds is 0)"
      }
      lines.append(line)
    }
    if !pause.mutedStreams.isEmpty {
      let streams = pause.mutedStreams.map { "#\($0)" }.joined(separator: ", ")
      let until =
        pause.cause == .outputAway
        ? "until they play on it again or the grace time ends"
        : "until it is worn and plays again, or you unmute or move them"
      lines.append(
        "Muted stream\(pause.mutedStreams.count == 1 ? "" : "s") \(streams), "
          + "\(when), \(why); \(until)")
    }
    return lines.joined(separator: "\n")
  }

  /// Returns the decisions that changed the route, newest first: when, the
  /// output, what triggered it and why, one block each.
  static func routeHistory(_ history: RouteHistory) -> String {
    guard !history.decisions.isEmpty else {
      return "No decision has changed the route yet."
    }
    return history.decisions.map { decision in
      var changed: [String] = []
      if decision.defaultChanged { changed.append("default") }
      let moves = decision.moves
      if moves > 0 { changed.append("\(moves) stream\(moves == 1 ? "" : "s")") }
      if decision.resends > 0 {
        changed.append(
          "sent again \(decision.resends) time\(decision.resends == 1 ? "" : "s")"
            + " as the server did not carry it out")
      }
      return [
        "\(ago(decision.decidedAt)): \(decision.output ?? "none") "
          + "(\(changed.joined(separator: ", ")))",
        labelled("trigger", decision.trigger, width: 10),
        labelled("why", decision.summary, width: 10),
      ].joined(separator: "\n")
    }.joined(separator: "\n\n")
  }

  /// How long ago an instant was, as the daemon says it
  /// (``ElapsedTime/ago(_:)``): "0.4 s ago", "2 min ago", "just now"; an
  /// instant ahead of this clock is "just now" too, never "in 0 s".
  static func ago(_ instant: Date) -> String {
    ElapsedTime.ago(Date().timeIntervalSince(instant))
  }

  /// A length of time in the unit a person reads it in: "45 s", "2 min",
  /// "3 h".
  static func span(_ seconds: Int) -> String {
    switch seconds {
    case ..<90: "\(max(seconds, 0)) s"
    case ..<7200: "\((seconds + 30) / 60) min"
    default: "\((seconds + 1800) / 3600) h"
    }
  }

  /// Returns discovered devices as a numbered table: name, address, form
  /// factor, signal and state; with `explainMismatches`, each device that
  /// does not match says why.
  ///
  /// - Parameters:
  ///   - numbers: The number of each device; nil to count from 1.
  ///   - header: Whether a first line names the columns.
  static func devices(
    _ devices: [JSONValue], explainMismatches: Bool, numbers: [Int]? = nil,
    header: Bool = false
  ) -> String {
    guard !devices.isEmpty else { return "No matching devices." }
    let rows = devices.map(deviceColumns)
    let names = ["NAME", "ADDRESS", "FORM", "SIGNAL", "STATE"]
    let widths = (0..<4).map { column in
      ((header ? [names] : []) + rows).map { $0[column].count }.max() ?? 0
    }
    func line(_ number: String, _ columns: [String]) -> String {
      var line = number.leftPadded(to: 3) + "  "
      for column in 0..<4 {
        line += columns[column].padding(to: widths[column]) + "  "
      }
      return trimmingTrailingSpaces(line + columns[4])
    }
    var lines = header ? [line("#", names)] : []
    for (index, (device, row)) in zip(devices, rows).enumerated() {
      var text = line("\(numbers?[index] ?? index + 1)", row)
      if explainMismatches, let mismatch = Self.text(device["mismatch"]) {
        text += "  (no match: \(mismatch))"
      }
      lines.append(text)
    }
    return lines.joined(separator: "\n")
  }

  /// The columns of one device: name, address, form factor, signal, state.
  static func deviceColumns(_ device: JSONValue) -> [String] {
    var state: [String] = []
    if bool(device["authorized"]) == true { state.append("authorized") }
    if bool(device["paired"]) == true { state.append("paired") }
    if bool(device["connected"]) == true { state.append("connected") }
    if text(device["audioOutput"]) != nil { state.append("audio output") }
    return [
      text(device["displayName"]) ?? "unnamed",
      text(device["address"]).map(canonicalAddress) ?? "?",
      text(device["formFactor"]) ?? "-",
      number(device["rssi"]).map { "\(Int($0)) dBm" } ?? "-",
      state.joined(separator: ", "),
    ]
  }

  /// Returns one event as one line; one this version does not know, as
  /// its JSON.
  static func event(_ json: JSONValue) -> String {
    guard let event = try? json.decode(as: DaemonEvent.self) else {
      return compactJSON(json)
    }
    switch event {
    case .accessory(let event):
      let accessory = event.accessory
      let line =
        "accessory \(event.change.rawValue): \(accessory.displayName) "
        + "(\(canonicalAddress(accessory.address)))"
      guard let eventType = event.change.eventType else { return line }
      return "\(eventType): " + line
    case .route(let event):
      var line = "route \(event.output ?? "none")"
      if !event.summary.isEmpty { line += ": " + event.summary }
      var notes: [String] = []
      if event.moves > 0 {
        notes.append(
          "\(event.moves) stream\(event.moves == 1 ? "" : "s") moved")
      }
      if event.defaultChanged { notes.append("default changed") }
      if let input = event.inputChanged { notes.append("input \(input)") }
      for profile in event.profiles {
        let purpose =
          switch profile.purpose {
          case .call: " for the call"
          case .afterCall: " after the call"
          case .output: ""
          default: " (\(profile.purpose.rawValue))"
          }
        notes.append("\(profile.card) to '\(profile.profile)'\(purpose)")
      }
      if event.pending { notes.append("pending") }
      if event.chosenBy == .person { notes.append("your choice") }
      if !notes.isEmpty { line += " [" + notes.joined(separator: ", ") + "]" }
      return line
    case .soundServer(let event):
      return "sound server \(event.state.rawValue)"
    case .session(let event):
      var line = event.eventType
      var details: [String] = []
      if let picker = event.pickerID { details.append("picker \(picker)") }
      if let count = event.count {
        details.append("\(count) accessor\(count == 1 ? "y" : "ies")")
      }
      if let session = event.session { details.append("session \(session)") }
      if !details.isEmpty {
        line += " (" + details.joined(separator: ", ") + ")"
      }
      if let error = event.error { line += ": " + error }
      return line
    case .discovery(let event):
      let address = text(event.device["address"]).map(canonicalAddress) ?? "?"
      guard let name = text(event.device["displayName"]) else {
        return "device \(event.change.rawValue): \(address)"
      }
      return "device \(event.change.rawValue): \(name) (\(address))"
    case .media(let event):
      let names =
        event.streams.isEmpty
        ? event.players.map(\.name).joined(separator: ", ")
        : "streams " + event.streams.map { "#\($0)" }.joined(separator: ", ")
      return "\(event.eventType.rawValue): \(names): \(event.reason)"
    case .headphones(let event):
      let address = canonicalAddress(event.address)
      guard let link = event.link else {
        return "headphones \(address): no longer read"
      }
      var line = "headphones \(address): " + headphoneLink(link)
      if !link.battery.isEmpty { line += "; battery " + battery(link.battery) }
      return line
    case .other(let value):
      return compactJSON(value)
    }
  }

  /// Says who reported a placement.
  static func placementSource(_ source: String) -> String {
    switch source {
    case "update": "an update (a companion app or acctl update)"
    case "aap": "the AirPods themselves (AAP over Bluetooth)"
    case "galaxyBuds": "the Galaxy Buds themselves (over Bluetooth)"
    default: source
    }
  }

  /// Describes accessoryd's link to headphones: protocol, state, buds.
  static func headphoneLink(_ link: HeadphoneLink) -> String {
    let family =
      switch link.protocolName {
      case "aap": "AirPods (AAP)"
      case "galaxyBuds": "Galaxy Buds"
      default: link.protocolName
      }
    var line = "\(family), \(link.state)"
    if !link.buds.isEmpty {
      line += ", buds " + link.buds.joined(separator: " and ")
    }
    if let message = link.message { line += ": " + message }
    return line
  }

  /// Why accessoryd knows no battery level of an accessory, in a sentence.
  static func whyNoBattery(_ accessory: DaemonAccessory) -> String {
    if accessory.placementSourceChoice == "none" {
      return "accessoryd does not read these headphones (registered with "
        + "--placement-source none)"
    }
    guard let link = accessory.headphones else {
      return "accessoryd reads the battery of AirPods and Galaxy Buds over "
        + "Bluetooth; it has no link to these"
    }
    guard link.state == .connected else {
      return "the link to the headphones is \(link.state)"
        + (link.message.map { ": \($0)" } ?? "")
    }
    return "the headphones have not reported it yet"
  }

  /// The battery cell of an accessory without a level: why, in a word or
  /// two (``whyNoBattery(_:)`` says it in full).
  static func noBatteryCell(_ accessory: DaemonAccessory) -> String {
    guard accessory.placementSourceChoice != "none",
      let link = accessory.headphones
    else { return "not read" }
    return link.state == .connected ? "not yet" : "no link"
  }

  /// Describes battery levels, such as `left 80%, right 75% charging`;
  /// `short` leaves out the charging state and uses `L`, `R`, `C`.
  static func battery(
    _ levels: [HeadphoneLink.Battery], short: Bool = false
  ) -> String {
    guard !levels.isEmpty else { return "-" }
    return levels.map { level in
      guard !short else {
        let letter =
          switch level.part {
          case "left": "L"
          case "right": "R"
          case "case": "C"
          default: ""
          }
        return "\(letter)\(level.percent)%"
      }
      let part = level.part == "single" ? "" : level.part + " "
      return "\(part)\(level.percent)%"
        + (level.charging == true ? " charging" : "")
    }.joined(separator: short ? " " : ", ")
  }

  /// Returns the media players as a table: name, status, process, streams
  /// and the outputs they play on; or why there are none.
  static func players(_ list: MediaPlayerList) -> String {
    guard list.media.following else {
      return "Media players are not followed: "
        + (list.media.reason ?? "no reason given")
        + ". Pausing when the headphones come off is off."
    }
    guard !list.players.isEmpty else {
      return "No media player is on the session bus."
    }
    var rows = [["NAME", "STATUS", "PROCESS", "STREAMS", "OUTPUT"]]
    for player in list.players {
      let process = [
        player.processName, player.processID.map { "\($0)" },
      ].compactMap { $0 }.joined(separator: " ")
      let outputs = Set(player.streams.compactMap(\.output)).sorted()
      rows.append([
        player.name,
        player.playbackStatus
          + (player.pausedByAccessoryd ? " (by accessoryd)" : "")
          + (player.canPause ? "" : " (cannot pause)"),
        process.isEmpty ? "-" : process,
        player.streams.isEmpty
          ? "-" : player.streams.map { "#\($0.index)" }.joined(separator: ","),
        outputs.isEmpty ? "-" : outputs.joined(separator: ","),
      ])
    }
    // Why accessoryd holds them, from the same words as route --explain.
    let held = list.paused.filter { !$0.players.isEmpty }.map(pausedMedia)
    return ([table(rows)] + held).joined(separator: "\n")
  }

  /// Returns the daemon's status: its version, the sound server, its
  /// paths and the host's addresses.
  static func status(_ status: DaemonStatus) -> String {
    var lines = ["accessoryd \(status.version)"]
    func add(_ label: String, _ value: String) {
      lines.append(labelled(label, value, width: 16))
    }
    var server = status.soundServer.state.rawValue
    let product = [status.soundServer.name, status.soundServer.version]
      .compactMap { $0 }.filter { !$0.isEmpty }
    if !product.isEmpty {
      server += " (" + product.joined(separator: " ") + ")"
    }
    add("sound server", server)
    add(
      "policy",
      status.policyPath
        + (status.policyRefused.map {
          " (as read before its last reload, which was refused: \($0))"
        } ?? ""))
    add("state", status.statePath)
    add("socket", status.socketPath)
    if let media = status.media {
      add(
        "media players",
        media.following
          ? "followed on the session bus"
          : "not followed (\(media.reason ?? "no reason given")); pausing is off"
      )
    }
    if let headphones = status.headphones {
      add(
        "headphones",
        headphones.reading
          ? "read over Bluetooth when paired and connected (AirPods, Galaxy Buds)"
          : "not read: \(headphones.reason ?? "no reason given")")
    }
    if let bluetooth = status.bluetooth {
      var text = bluetooth.state.rawValue
      if bluetooth.state == .running {
        text +=
          " (\(bluetooth.adapters) adapter\(bluetooth.adapters == 1 ? "" : "s"))"
      } else if let reason = bluetooth.reason {
        text += ": " + reason
      }
      add("bluez", text)
    }
    let bluezAnswers = status.bluetooth.map { $0.state == .running } ?? true
    add(
      "host addresses",
      !status.hostAddresses.isEmpty
        ? status.hostAddresses.map(canonicalAddress).joined(separator: ", ")
        : bluezAnswers
          ? "none: no Bluetooth adapter, and no --host-address; multipoint "
            + "reports cannot name this host"
          : "none known: BlueZ does not answer, and no --host-address was "
            + "given")
    return lines.joined(separator: "\n")
  }
}
