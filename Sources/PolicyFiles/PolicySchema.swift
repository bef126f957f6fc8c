// The policy format as data: every setting, where it lives, what values it
// takes, what it means and its default. PolicyLoader reads the keys from
// this table; the manual page accessoryd.policy(5) and the table in
// policies/README.md are written from it, so the three cannot drift.

import RoutingCore

/// One setting of the policy format, such as `placement.offHeadGraceSeconds`.
public struct PolicySetting: Sendable {
  /// The values a setting takes.
  public enum Kind: Sendable, Hashable {
    /// `true` or `false`.
    case boolean
    /// A number of seconds from 0 to the limit.
    case seconds(upTo: Double)
    /// A whole number in the range.
    case wholeNumber(ClosedRange<Int>)
    /// Any text.
    case text
    /// One of the listed words.
    case choice([PolicyChoiceValue])
    /// A list of the named elements, such as `output matches`.
    case list(of: String)
  }

  /// The key path, such as `placement.offHeadGraceSeconds`.
  public let key: String
  /// The values it takes.
  public let kind: Kind
  /// What it does, for people.
  public let meaning: String
  /// Whether a policy must give it.
  public let isRequired: Bool
  /// The default as a policy would write it (`3`, `"either"`, `[]`), or
  /// `required`.
  public let defaultValue: String
  /// More on the default, such as `no limit` for 0.
  public let defaultNote: String?
  /// More on the values than ``kind`` says.
  public let valuesNote: String?

  let read: @Sendable (ObjectReader, inout Policy) throws(PolicyError) -> Void
  /// Reads and sets a boolean setting in a policy; nil for the other
  /// kinds.
  var boolean:
    (
      read: @Sendable (Policy) -> Bool,
      assign: @Sendable (inout Policy, Bool) -> Void
    )? = nil

  /// Sets this boolean setting in a policy, as a setting changed while the
  /// daemon runs does.
  ///
  /// - Returns: False, with the policy unchanged, when the setting is not
  ///   a boolean.
  public func assign(_ value: Bool, to policy: inout Policy) -> Bool {
    guard let boolean else { return false }
    boolean.assign(&policy, value)
    return true
  }

  /// Whether the setting is a switch (true or false), which can be
  /// changed while the daemon runs.
  public var isSwitch: Bool { boolean != nil }

  /// The setting's value in a policy, for a boolean setting.
  public func value(in policy: Policy) -> Bool? {
    boolean?.read(policy)
  }

  /// The object the setting is in, such as `placement`, or empty for the
  /// top level.
  public var section: String {
    guard let dot = key.lastIndex(of: ".") else { return "" }
    return String(key[..<dot])
  }

  /// The setting's key within its object, such as `offHeadGraceSeconds`.
  public var name: String { Self.name(of: key) }

  /// The last component of a key path.
  static func name(of key: String) -> String {
    guard let dot = key.lastIndex(of: ".") else { return key }
    return String(key[key.index(after: dot)...])
  }

  /// The kind of value in a few words, such as `number (s)`.
  public var typeText: String {
    switch kind {
    case .boolean: "boolean"
    case .seconds: "number (s)"
    case .wholeNumber: "whole number"
    case .text, .choice: "text"
    case .list(let element): "list of \(element)"
    }
  }

  /// The values allowed, with what each listed one means, or empty when
  /// the type says it all.
  public var valuesText: String {
    var parts: [String] = []
    switch kind {
    case .boolean, .text, .list: break
    case .seconds(let limit): parts.append("0 to \(formatNumber(limit))")
    case .wholeNumber(let range) where range.count == 1:
      parts.append("`\(range.lowerBound)`")
    case .wholeNumber(let range):
      parts.append("\(range.lowerBound) to \(range.upperBound)")
    case .choice(let values):
      parts.append(
        values.map { "`\"\($0.value)\"`: \($0.meaning)" }.joined(
          separator: "; "))
    }
    if let valuesNote { parts.append(valuesNote) }
    return parts.joined(separator: "; ")
  }
}

/// One word a choice setting takes, and what it means.
public struct PolicyChoiceValue: Sendable, Hashable {
  /// The word, as a policy writes it.
  public let value: String
  /// What it means.
  public let meaning: String
}

/// A key of an object inside a setting's value, such as an output match's
/// `name`, and what it means.
public struct PolicyField: Sendable, Hashable {
  /// The key.
  public let key: String
  /// What it means.
  public let meaning: String
}

/// A word of a choice setting that says what it means.
protocol PolicyChoice: RawRepresentable<String>, CaseIterable, Sendable {
  /// What choosing it does.
  var meaning: String { get }
}

/// The policy format: every setting, in the order a policy lists them.
public enum PolicySchema {
  /// Every setting.
  public static let settings: [PolicySetting] = [
    wholeNumber(
      "version", \.version, in: 1...1, required: true,
      meaning: "format version"),
    text("description", \.description, meaning: "what the policy is for"),

    boolean(
      "placement.eligibleWhenUnknown", \.eligibleWhenPlacementUnknown,
      meaning: "an accessory with the placement capability that has not "
        + "reported a placement yet may take the output"),
    seconds(
      "placement.offHeadGraceSeconds", \.offHeadGraceSeconds,
      meaning: "the accessory that has the output keeps it this long after "
        + "it is taken off; put back on within this time, nothing switches"),
    choice(
      "placement.earbudsWorn", \.earbudsWorn,
      meaning: "when earbuds whose buds accessoryd reads itself (AirPods, "
        + "Galaxy Buds) count as worn (`inEar`)",
      valuesNote: "otherwise, out of the ear or in the case, it is "
        + "`offHead`"),

    seconds(
      "connection.reappearGraceSeconds", \.reappearGraceSeconds,
      meaning: "an accessory's output that disappears and comes back within "
        + "this time (a switch between the A2DP and headset profiles) is not a "
        + "disconnect: nothing switches meanwhile"),
    seconds(
      "connection.profileSwitchSeconds", \.profileSwitchSeconds,
      meaning: "headphones' output that goes away while BlueZ does not say "
        + "whether the device is still connected is waited for this long as "
        + "a profile switch; then the players that played on it pause (the "
        + "streams stay muted until they have). When BlueZ says the device "
        + "disconnected, or a wired jack is pulled, they pause at once; when "
        + "BlueZ says it is still connected, the output is waited for "
        + "`connection.reappearGraceSeconds`"),
    seconds(
      "connection.firstReportWaitSeconds", \.firstReportWaitSeconds,
      meaning: "a just-registered accessory that has not reported its "
        + "placement yet (when it has the placement capability) or its "
        + "audio sources (when it switches audio) takes no output for this "
        + "long after registering, or until it reports: registering and "
        + "then reporting `offHead`, or \"this host is only secondary\", "
        + "never moves the output"),
    boolean(
      "connection.keepAudioWithHeadphones", \.keepAudioWithHeadphones,
      meaning: "while headphones that are worn have the output (a "
        + "registered accessory reported worn, or headphones nobody "
        + "registered), a device that connects does not take it: a "
        + "registered speaker or car kit, another headset that was not put "
        + "on, or an output the sound server itself makes the default as it "
        + "comes; putting on other headphones still moves the output to "
        + "them",
      valuesNote: "`false`: the accessory connected most recently takes the "
        + "output, and the server's own switches stand"),
    boolean(
      "connection.followUnregisteredHeadphones",
      \.followUnregisteredHeadphones,
      meaning: "headphones nobody registered (a Bluetooth headphone or "
        + "headset, wired headphones in a sound card's jack) take part in "
        + "routing as an accessory that switches audio and reports no "
        + "placement: they take the output when they connect (or are "
        + "plugged in) while accessoryd runs, keep it while they are there, "
        + "and come back from a profile switch; those already there when "
        + "accessoryd starts take part only if they have the output then, "
        + "and others once they connect again; never with "
        + "`accessories.requirePlacement`, as they report no placement",
      valuesNote: "`false`: they are plain outputs, and the sound server's "
        + "own switches stand"),

    boolean(
      "multipoint.takeWhenSecondary", \.takeWhenSecondarySource,
      meaning: "take an accessory when this host is only its secondary "
        + "audio source and another host is primary"),

    choice(
      "manualChoice.respect", \.manualChoiceRespect,
      meaning: "how the person's own choice of output or input (a default "
        + "change accessoryd did not make, or acctl output choose) is kept"),
    seconds(
      "manualChoice.holdSeconds", \.manualChoiceHoldSeconds, upTo: 86_400,
      meaning: "forget a kept choice after this long",
      defaultNote: "no limit"),

    boolean(
      "accessories.requirePlacement", \.requirePlacement,
      meaning: "leave alone accessories registered without the placement "
        + "capability"),
    choice(
      "accessories.whenTakenOff", \.whenTakenOff,
      meaning: "what happens, after the grace time, when the accessory that "
        + "has the output is taken off"),

    boolean(
      "streams.follow", \.streamsFollow,
      meaning: "move playing streams to the chosen output"),
    PolicySetting(
      key: "streams.roles", kind: .list(of: "`{ role, outputs }`"),
      meaning: "send streams with a `media.role` to a kind of output, when "
        + "one exists that may play",
      isRequired: false, defaultValue: "[]", defaultNote: nil,
      valuesNote: "`role`: text, required; `outputs`: list of output "
        + "matches, in order of preference",
      read: { (object, policy) throws(PolicyError) in
        for element in try object.array("roles") {
          let route = try ObjectReader(
            element.value, path: element.path, keys: ["role", "outputs"])
          let role = try route.string("role", required: true)!
          var matches: [Policy.OutputMatch] = []
          for match in try route.array("outputs", required: true) {
            matches.append(try readOutputMatch(match.value, path: match.path))
          }
          policy.roleRoutes.append(
            Policy.RoleRoute(role: role, outputs: matches))
        }
      }),

    PolicySetting(
      key: "outputs.exclude", kind: .list(of: "output matches"),
      meaning: "outputs never chosen automatically unless nothing else "
        + "exists",
      isRequired: false, defaultValue: "[]", defaultNote: nil,
      valuesNote: nil,
      read: { (object, policy) throws(PolicyError) in
        for element in try object.array("exclude") {
          policy.excludedOutputs.append(
            try readOutputMatch(element.value, path: element.path))
        }
      }),
    PolicySetting(
      key: "outputs.priorities", kind: .list(of: "`{ match, priority }`"),
      meaning: "priority of the outputs that match; the first matching rule "
        + "counts, others have 0; used for ties and for choosing a fallback "
        + "output",
      isRequired: false, defaultValue: "[]", defaultNote: nil,
      valuesNote: "`priority`: whole number from -1000 to 1000",
      read: { (object, policy) throws(PolicyError) in
        for element in try object.array("priorities") {
          let rule = try ObjectReader(
            element.value, path: element.path, keys: ["match", "priority"])
          guard let match = rule.fields["match"] else {
            throw PolicyError(
              keyPath: rule.path("match"),
              problem: "is missing; expected an output match")
          }
          policy.outputPriorities.append(
            Policy.OutputPriority(
              match: try readOutputMatch(match, path: rule.path("match")),
              priority: try rule.integer(
                "priority", in: -1000...1000, required: true)!))
        }
      }),

    boolean(
      "profiles.activateOutputProfile", \.activateOutputProfile,
      meaning: "when an accessory should play but its card has no output "
        + "(profile `off`, say), activate its best available output "
        + "profile"),

    boolean(
      "media.pauseWhenTakenOff", \.pauseWhenTakenOff,
      meaning: "when the accessory that has the output is taken off, pause "
        + "at once every media player (MPRIS, on the session bus) that "
        + "plays on its output, before the route changes; a player already "
        + "paused (by the headphones' own pause button, say) is left alone"
    ),
    seconds(
      "media.resumeWhenPutBackWithinSeconds", \.resumeWhenPutBackWithinSeconds,
      upTo: 86_400,
      meaning: "put back on within this time after such a pause, resume "
        + "exactly the players accessoryd paused that are still paused, "
        + "once the output is back on the accessory; a player the person "
        + "played, stopped or closed meanwhile is left alone",
      valuesNote: "0: never"),
    choice(
      "media.whenUnpausable", \.whenUnpausable,
      meaning: "what happens then to a stream on that output that no player "
        + "pauses (no MPRIS player owns it, or its player cannot pause: a "
        + "game, `pacat`, a browser tab without a media session)"),
    boolean(
      "media.pauseWhenDisconnected", \.pauseWhenDisconnected,
      meaning: "when an accessory's output goes away for good (BlueZ says "
        + "it disconnected, a jack is pulled, or it is not back within "
        + "`connection.profileSwitchSeconds`, or within "
        + "`connection.reappearGraceSeconds` while BlueZ says it is "
        + "connected), pause the players that played on it; until then (a "
        + "profile switch, say) the streams the sound server moved to "
        + "another output are muted, and unmuted when they are back on the "
        + "accessory",
      valuesNote: "`false`: once it is gone for good the streams are "
        + "unmuted where the server put them"),
    boolean(
      "media.resumeOnReconnect", \.resumeOnReconnect,
      meaning: "resume the players a disconnect paused when the accessory "
        + "connects again, is worn and has the output again, within "
        + "`media.resumeWhenPutBackWithinSeconds` of the pause"),
    seconds(
      "media.reconnectSettleSeconds", \.reconnectSettleSeconds,
      meaning: "with `media.resumeOnReconnect`, the players a disconnect "
        + "paused resume only once the accessory has been back (worn, with "
        + "the output) this long; a drop meanwhile keeps them paused, so "
        + "a link that drops and comes back again and again pauses them "
        + "once and resumes them once"),
    boolean(
      "media.guardUnregisteredHeadphones", \.guardUnregisteredHeadphones,
      meaning: "treat headphones nobody registered (an output the sound "
        + "server marks as a Bluetooth headphone, headset or hands-free "
        + "device, or a sound card's headphone jack in use) as registered "
        + "accessories are treated when their output goes away (a "
        + "disconnect, a profile switch, the jack pulled): the streams the "
        + "server moves off them, or a pulled jack's card plays on its "
        + "speakers, are muted at once, unmuted when they are back on them, "
        + "and their players paused once they are gone for good (see "
        + "`media.pauseWhenDisconnected`)",
      valuesNote: "`false`: only registered accessories are guarded; the "
        + "streams of other headphones play where the server moves them"),

    boolean(
      "calls.useHeadset", \.callsUseHeadset,
      meaning: "during a call, switch the card of the worn accessory that "
        + "has the output to its best headset profile and make its "
        + "microphone the default input; give both back after the call. "
        + "An accessory that is not worn never gets the microphone"),
    seconds(
      "calls.startDelaySeconds", \.callStartDelaySeconds, upTo: 60,
      meaning: "a capture stream makes a call once it has recorded this "
        + "long, so that an application that only probes the microphone "
        + "switches nothing"),
    seconds(
      "calls.endDelaySeconds", \.callEndDelaySeconds, upTo: 600,
      meaning: "the profile and the input are given back this long after "
        + "the last stream of the call ends; a call that starts again "
        + "meanwhile keeps them"),
    texts(
      "calls.roles", \.callRoles,
      meaning: "the `media.role` values of capture streams that make a "
        + "call, compared without regard to case"),
    texts(
      "calls.applications", \.callApplications, element: "patterns",
      meaning: "application names (`application.name`, `*` and `?` "
        + "allowed, case ignored) whose capture streams make a call, "
        + "whatever their role"),
    boolean(
      "calls.anyCapture", \.callOnAnyCapture,
      meaning: "any capture stream makes a call; monitors of outputs and "
        + "peak meters (pavucontrol's) never do"),
    texts(
      "calls.headsetProfiles", \.headsetProfiles,
      meaning: "headset profile names, best first: PipeWire's (the one "
        + "without a codec lets the server choose its best codec) and "
        + "PulseAudio's (HFP, which can carry mSBC, before HSP); a profile "
        + "that plays and records and is not listed comes after them, by "
        + "the server's priority"),

    boolean(
      "desktop.sessionBusAPI", \.serveSessionBusAPI,
      meaning: "serve the session D-Bus API (the name "
        + "`io.github.accessoryd`) that applets and the tray read; a reload "
        + "that turns it off releases the name"),
    boolean(
      "desktop.batteryToBlueZ", \.batteryToBlueZ,
      meaning: "give BlueZ the battery accessoryd reads from AirPods and "
        + "Galaxy Buds, one figure per device (the lower bud's; the case's "
        + "is left out), as a battery provider "
        + "(`org.bluez.BatteryProviderManager1`), so that GNOME, KDE and "
        + "upower show it; BlueZ 5.66 offers providers only with "
        + "`bluetoothd --experimental`"),

    boolean(
      "notifications.connected", \.notifyConnected,
      meaning: "a desktop notification when headphones connect, with their "
        + "battery once accessoryd reads it"),
    boolean(
      "notifications.pausedWhenTakenOff", \.notifyPausedWhenTakenOff,
      meaning: "a desktop notification when media is paused because the "
        + "headphones that played it came off"),
    boolean(
      "notifications.unexpectedOutput", \.notifyUnexpectedOutput,
      meaning: "a desktop notification when the output the audio was on "
        + "goes away (headphones disconnected, a USB card pulled) and does "
        + "not come back within `connection.reappearGraceSeconds`, saying "
        + "where the audio is now"),
  ]

  /// The keys of an output match; at least one must be given, and all that
  /// are given must hold.
  public static let outputMatchFields: [PolicyField] = [
    PolicyField(key: "name", meaning: "the output's (sink's) name"),
    PolicyField(key: "description", meaning: "its description"),
    PolicyField(key: "activePort", meaning: "the name of its active port"),
    PolicyField(
      key: "properties",
      meaning: "an object of property patterns, such as "
        + "`{ \"device.bus\": \"bluetooth\" }`; each property must exist "
        + "and match"),
  ]

  /// The objects of the top level, such as `placement`, in order.
  public static var sections: [String] {
    var sections: [String] = []
    for setting in settings
    where !setting.section.isEmpty && !sections.contains(setting.section) {
      sections.append(setting.section)
    }
    return sections
  }

  /// The setting with a key path, such as `media.pauseWhenTakenOff`.
  public static func setting(_ key: String) -> PolicySetting? {
    settings.first { $0.key == key }
  }

  /// The boolean settings, which can be changed while the daemon runs
  /// (`acctl policy set`).
  public static var switches: [PolicySetting] {
    settings.filter(\.isSwitch)
  }

  /// The keys allowed in an object: its settings' names, and at the top
  /// level the objects too.
  static func keys(in section: String) -> [String] {
    settings.filter { $0.section == section }.map(\.name)
      + (section.isEmpty ? sections : [])
  }

  // MARK: - Making settings

  private static func boolean(
    _ key: String, _ field: WritableKeyPath<Policy, Bool> & Sendable,
    meaning: String, valuesNote: String? = nil
  ) -> PolicySetting {
    PolicySetting(
      key: key, kind: .boolean, meaning: meaning, isRequired: false,
      defaultValue: String(Policy()[keyPath: field]), defaultNote: nil,
      valuesNote: valuesNote,
      read: { (object, policy) throws(PolicyError) in
        if let value = try object.bool(PolicySetting.name(of: key)) {
          policy[keyPath: field] = value
        }
      },
      boolean: (
        read: { $0[keyPath: field] },
        assign: { policy, value in policy[keyPath: field] = value }
      ))
  }

  private static func seconds(
    _ key: String, _ field: WritableKeyPath<Policy, Double> & Sendable,
    upTo limit: Double = 600, meaning: String, defaultNote: String? = nil,
    valuesNote: String? = nil
  ) -> PolicySetting {
    PolicySetting(
      key: key, kind: .seconds(upTo: limit), meaning: meaning,
      isRequired: false, defaultValue: formatNumber(Policy()[keyPath: field]),
      defaultNote: defaultNote, valuesNote: valuesNote,
      read: { (object, policy) throws(PolicyError) in
        if let value = try object.seconds(
          PolicySetting.name(of: key), upTo: limit)
        {
          policy[keyPath: field] = value
        }
      })
  }

  private static func wholeNumber(
    _ key: String, _ field: WritableKeyPath<Policy, Int> & Sendable,
    in range: ClosedRange<Int>, required: Bool, meaning: String
  ) -> PolicySetting {
    PolicySetting(
      key: key, kind: .wholeNumber(range), meaning: meaning,
      isRequired: required,
      defaultValue: required ? "required" : String(Policy()[keyPath: field]),
      defaultNote: nil, valuesNote: nil,
      read: { (object, policy) throws(PolicyError) in
        if let value = try object.integer(
          PolicySetting.name(of: key), in: range, required: required)
        {
          policy[keyPath: field] = value
        }
      })
  }

  private static func texts(
    _ key: String, _ field: WritableKeyPath<Policy, [String]> & Sendable,
    element: String = "text", meaning: String
  ) -> PolicySetting {
    let defaults = Policy()[keyPath: field]
    return PolicySetting(
      key: key, kind: .list(of: element), meaning: meaning, isRequired: false,
      defaultValue: "[" + defaults.map { "\"\($0)\"" }.joined(separator: ", ")
        + "]",
      defaultNote: nil, valuesNote: nil,
      read: { (object, policy) throws(PolicyError) in
        let name = PolicySetting.name(of: key)
        guard let given = object.fields[name], given != .null else { return }
        var values: [String] = []
        for element in try object.array(name) {
          guard case .string(let text) = element.value else {
            throw PolicyError(
              keyPath: element.path,
              problem: "is \(element.value.kind); expected text")
          }
          values.append(text)
        }
        policy[keyPath: field] = values
      })
  }

  private static func text(
    _ key: String, _ field: WritableKeyPath<Policy, String> & Sendable,
    meaning: String
  ) -> PolicySetting {
    PolicySetting(
      key: key, kind: .text, meaning: meaning, isRequired: false,
      defaultValue: "\"\(Policy()[keyPath: field])\"", defaultNote: nil,
      valuesNote: nil,
      read: { (object, policy) throws(PolicyError) in
        if let value = try object.string(PolicySetting.name(of: key)) {
          policy[keyPath: field] = value
        }
      })
  }

  private static func choice<Choice: PolicyChoice>(
    _ key: String, _ field: WritableKeyPath<Policy, Choice> & Sendable,
    meaning: String, valuesNote: String? = nil
  ) -> PolicySetting {
    PolicySetting(
      key: key,
      kind: .choice(
        Choice.allCases.map {
          PolicyChoiceValue(value: $0.rawValue, meaning: $0.meaning)
        }),
      meaning: meaning, isRequired: false,
      defaultValue: "\"\(Policy()[keyPath: field].rawValue)\"",
      defaultNote: nil, valuesNote: valuesNote,
      read: { (object, policy) throws(PolicyError) in
        if let value = try object.choice(
          PolicySetting.name(of: key), of: Choice.self)
        {
          policy[keyPath: field] = value
        }
      })
  }
}

// MARK: - What each choice means

extension Policy.ManualChoiceRespect: PolicyChoice {
  var meaning: String {
    switch self {
    case .untilAccessoryChange:
      "until a registered accessory is put on, taken off, connects or "
        + "disconnects"
    case .always: "while the chosen output exists"
    case .never: "the engine's choice replaces the person's at once"
    }
  }
}

extension Policy.TakenOffAction: PolicyChoice {
  var meaning: String {
    switch self {
    case .previous: "back to the output used before"
    case .stay: "leave it"
    }
  }
}

extension Policy.EarbudsWorn: PolicyChoice {
  var meaning: String {
    switch self {
    case .either: "one bud in the ear is enough"
    case .both:
      "every connected bud must be in (a bud not connected to the other "
        + "does not count)"
    }
  }
}

extension Policy.UnpausableAction: PolicyChoice {
  var meaning: String {
    switch self {
    case .mute:
      "mute the stream at once, so that it is not heard where it moves, and "
        + "unmute it when the accessory is put back on (unless the person "
        + "unmuted it meanwhile)"
    case .move: "move it audibly, as before"
    }
  }
}
