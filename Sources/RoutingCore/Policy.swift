// A routing policy: the settings that tune the decision rules. Policies are
// data, read from JSON5 files in policies/ by PolicyFiles' PolicyLoader; the schema is in
// policies/README.md.

/// The settings that tune the decision rules.
public struct Policy: Sendable, Hashable {
  /// How the person's own choice of output is respected.
  public enum ManualChoiceRespect: String, Sendable, Hashable, CaseIterable {
    /// Until a registered accessory is put on, taken off, connects or
    /// disconnects.
    case untilAccessoryChange
    /// Always: automatic switching waits until the chosen output is gone.
    case always
    /// Never: the engine's choice replaces the person's at once.
    case never
  }

  /// What happens when the accessory that has the output is taken off.
  public enum TakenOffAction: String, Sendable, Hashable, CaseIterable {
    /// Return to the output used before the accessory took it.
    case previous
    /// Leave the output where it is.
    case stay
  }

  /// When earbuds whose buds accessoryd reads itself count as worn.
  public enum EarbudsWorn: String, Sendable, Hashable, CaseIterable {
    /// Either bud in the ear: worn (`inEar`).
    case either
    /// Only both buds in the ear (one bud alone counts as both).
    case both
  }

  /// What happens to a stream no media player can pause when the
  /// accessory it plays on is taken off.
  public enum UnpausableAction: String, Sendable, Hashable, CaseIterable {
    /// Mute it, so that it is not heard where it moves; unmute it when the
    /// accessory is put back on.
    case mute
    /// Move it with the rest, audibly.
    case move
  }

  /// A set of conditions on an output; all that are given must hold.
  ///
  /// Text is compared case-insensitively, with `*` matching any run of
  /// characters and `?` any one character.
  public struct OutputMatch: Sendable, Hashable {
    /// A pattern for the output's name.
    public var name: String?
    /// A pattern for the output's description.
    public var description: String?
    /// A pattern for the output's active port.
    public var activePort: String?
    /// Patterns for properties, by property name.
    public var properties: [String: String]

    /// Creates a match.
    public init(
      name: String? = nil, description: String? = nil,
      activePort: String? = nil, properties: [String: String] = [:]
    ) {
      self.name = name
      self.description = description
      self.activePort = activePort
      self.properties = properties
    }

    /// Returns whether an output meets every condition.
    public func matches(_ output: Output) -> Bool {
      if let name, !globMatches(name, output.name) { return false }
      if let description, !globMatches(description, output.description) {
        return false
      }
      if let activePort {
        guard let port = output.activePort, globMatches(activePort, port)
        else { return false }
      }
      for (key, pattern) in properties {
        guard let value = output.properties[key], globMatches(pattern, value)
        else { return false }
      }
      return true
    }
  }

  /// A priority given to the outputs that match.
  public struct OutputPriority: Sendable, Hashable {
    /// Which outputs get the priority.
    public var match: OutputMatch
    /// The priority: higher is preferred.
    public var priority: Int

    /// Creates a priority for the outputs that match.
    public init(match: OutputMatch, priority: Int) {
      self.match = match
      self.priority = priority
    }
  }

  /// A rule that sends streams with a role to a kind of output.
  public struct RoleRoute: Sendable, Hashable {
    /// The `media.role` the rule applies to, such as `phone`.
    public var role: String
    /// The outputs the streams go to, in order of preference.
    public var outputs: [OutputMatch]

    /// Creates a rule that sends streams with `role` to `outputs`.
    public init(role: String, outputs: [OutputMatch]) {
      self.role = role
      self.outputs = outputs
    }
  }

  /// The version of the policy format.
  public var version: Int = 1
  /// What the policy is for, for people.
  public var description: String = ""

  /// Whether an accessory with the placement capability that has reported
  /// no placement yet may take the output.
  public var eligibleWhenPlacementUnknown = true
  /// How long an accessory may be off before the output leaves it.
  public var offHeadGraceSeconds: Double = 3
  /// When earbuds that accessoryd reads itself count as worn.
  public var earbudsWorn: EarbudsWorn = .either
  /// How long an accessory's output may be gone (a profile switch) before it
  /// counts as a disconnect.
  public var reappearGraceSeconds: Double = 5
  /// How long an output that went away is waited for as a profile switch
  /// before its players pause, when BlueZ does not say whether the device
  /// is still connected.
  public var profileSwitchSeconds: Double = 0.3
  /// How long a just-registered accessory waits for a report it needs (its
  /// placement, or its audio sources) before it may take the output.
  public var firstReportWaitSeconds: Double = 1
  /// Whether worn headphones that have the output keep it when another
  /// device connects.
  public var keepAudioWithHeadphones = true
  /// Whether headphones nobody registered take the output when they
  /// connect, as a registered accessory that reports no placement does.
  public var followUnregisteredHeadphones = true
  /// Whether accessories without the placement capability are left alone.
  public var requirePlacement = false
  /// What happens when the accessory with the output is taken off.
  public var whenTakenOff: TakenOffAction = .previous
  /// Whether to take an accessory when this host is only its secondary
  /// audio source.
  public var takeWhenSecondarySource = false
  /// How the person's own choice is respected.
  public var manualChoiceRespect: ManualChoiceRespect = .untilAccessoryChange
  /// How long a respected manual choice holds; 0 means no limit.
  public var manualChoiceHoldSeconds: Double = 0
  /// Whether streams follow the chosen output.
  public var streamsFollow = true
  /// Streams routed by role, checked in order.
  public var roleRoutes: [RoleRoute] = []
  /// Outputs never chosen automatically unless nothing else exists.
  public var excludedOutputs: [OutputMatch] = []
  /// Priorities of outputs; the first match counts; unmatched outputs
  /// have priority 0.
  public var outputPriorities: [OutputPriority] = []
  /// Whether to switch an accessory's card to an output profile when the
  /// accessory should play but its card has no output.
  public var activateOutputProfile = true
  /// Whether taking off the accessory that has the output pauses the media
  /// players that play on it, at once, before the route changes.
  public var pauseWhenTakenOff = true
  /// How long after such a pause putting the accessory back on resumes the
  /// players accessoryd paused; 0 never resumes.
  public var resumeWhenPutBackWithinSeconds: Double = 60
  /// What happens to the streams on it that no player can pause.
  public var whenUnpausable: UnpausableAction = .mute
  /// Whether an accessory's output that goes away for good (BlueZ says it
  /// disconnected, a jack is pulled, or it is not back in time) pauses
  /// the players that played on it.
  public var pauseWhenDisconnected = true
  /// Whether the players such a disconnect paused resume when the
  /// accessory connects again and the output is back on it (within
  /// ``resumeWhenPutBackWithinSeconds`` of the pause).
  public var resumeOnReconnect = false
  /// How long headphones a disconnect paused must be back before their
  /// players resume (with ``resumeOnReconnect``).
  public var reconnectSettleSeconds: Double = 2
  /// Whether headphones nobody registered (a Bluetooth headphone, headset
  /// or hands-free output) are guarded as registered accessories are when
  /// their output goes away: what the server moves off them muted, their
  /// players paused if they do not come back.
  public var guardUnregisteredHeadphones = true
  /// Whether a call switches the worn accessory that has the output to its
  /// headset profile and makes its microphone the default input.
  public var callsUseHeadset = true
  /// How long a capture stream must record before it makes a call, so
  /// that an application that only probes the microphone switches nothing.
  public var callStartDelaySeconds: Double = 0.5
  /// How long after the last stream of a call ends the card's profile and
  /// the input are given back.
  public var callEndDelaySeconds: Double = 2
  /// The `media.role` values of capture streams that make a call.
  public var callRoles: [String] = ["phone", "communication"]
  /// Patterns of application names whose capture streams make a call,
  /// whatever their role.
  public var callApplications: [String] = []
  /// Whether any capture stream makes a call.
  public var callOnAnyCapture = false
  /// Headset profile names, best first; a duplex profile not listed comes
  /// after them, by the server's priority.
  public var headsetProfiles: [String] = [
    "headset-head-unit", "headset-head-unit-msbc", "headset-head-unit-cvsd",
    "handsfree_head_unit", "headset_head_unit",
  ]

  /// Whether the daemon serves its session D-Bus API.
  public var serveSessionBusAPI = true
  /// Whether the battery the daemon reads from headphones goes to BlueZ.
  public var batteryToBlueZ = true
  /// Whether headphones that connect are announced with their battery.
  public var notifyConnected = true
  /// Whether media paused because headphones came off is announced.
  public var notifyPausedWhenTakenOff = true
  /// Whether an output the person did not expect is announced.
  public var notifyUnexpectedOutput = true

  /// Creates a policy with every setting at its default.
  public init() {}

  /// Returns whether a policy rule excludes an output.
  public func excludes(_ output: Output) -> Bool {
    excludedOutputs.contains { $0.matches(output) }
  }

  /// Returns an output's priority under the policy.
  public func priority(of output: Output) -> Int {
    outputPriorities.first { $0.match.matches(output) }?.priority ?? 0
  }
}

/// Returns whether text matches a pattern with `*` and `?`, ignoring the
/// case of ASCII letters.
///
/// It works on the UTF-8 bytes in place: policies match every output on
/// every decision, so this must not allocate.
func globMatches(_ pattern: String, _ text: String) -> Bool {
  var pattern = pattern
  var text = text
  return pattern.withUTF8 { p in
    text.withUTF8 { t in globMatches(p, t) }
  }
}

private func globMatches(
  _ p: UnsafeBufferPointer<UInt8>, _ t: UnsafeBufferPointer<UInt8>
) -> Bool {
  @inline(__always) func folded(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
  }
  let star = UInt8(ascii: "*")
  let question = UInt8(ascii: "?")
  var pi = 0
  var ti = 0
  var starPattern = -1
  var starText = 0
  while ti < t.count {
    if pi < p.count, p[pi] == question || folded(p[pi]) == folded(t[ti]) {
      pi += 1
      ti += 1
    } else if pi < p.count, p[pi] == star {
      starPattern = pi
      starText = ti
      pi += 1
    } else if starPattern >= 0 {
      pi = starPattern + 1
      starText += 1
      ti = starText
    } else {
      return false
    }
  }
  while pi < p.count, p[pi] == star { pi += 1 }
  return pi == p.count
}
