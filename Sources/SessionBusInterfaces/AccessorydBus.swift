// The session D-Bus API's names and interfaces, in the project's own
// reverse-DNS namespace, io.github.accessoryd: what the daemon serves
// (DaemonDesktop) and the installed interface files describe
// (contrib/dbus/io.github.accessoryd.*.xml, written from these).

import DBus

/// The names, paths and interfaces of accessoryd's session D-Bus API.
package enum AccessorydBus {
  /// The well-known name the daemon owns on the session bus.
  package static let busName = "io.github.accessoryd"
  /// The daemon's object, root of the object manager.
  package static let daemonPath = "/io/github/accessoryd"
  /// The route's object.
  package static let routePath = "/io/github/accessoryd/route"
  /// Where the accessories' objects are.
  package static let accessoriesPath = "/io/github/accessoryd/accessories"
  /// The prefix of the API's error names.
  package static let errorPrefix = "io.github.accessoryd.Error."

  /// The object path of an accessory: its address with `_` for `:`, as
  /// BlueZ names devices.
  package static func accessoryPath(_ address: String) -> String {
    let element = String(
      address.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    return accessoriesPath + "/" + (element.isEmpty ? "_" : element)
  }

  /// The daemon: its version, sound server and policy, what the outputs
  /// are, and choosing one.
  package static let daemon = DBusInterface(
    name: "io.github.accessoryd.Daemon1",
    methods: [
      .init(
        "ListOutputs",
        outputs: [.init("outputs", "a(ssbbbss)")],
        summary:
          "The outputs, as acctl output lists them: name, description, "
          + "whether it is the default, the person's choice and available, "
          + "the accessory's address (or empty), and why (output.list)."),
      .init(
        "ChooseOutput", inputs: [.init("device", "s")],
        outputs: [.init("chosen", "s"), .init("summary", "s")],
        summary:
          "Takes an output (or input) by name or description as the "
          + "person's own choice, and routes (output.choose)."),
      .init(
        "ForgetOutputChoices", outputs: [.init("forgotten", "as")],
        summary:
          "Forgets the person's choices of output and input, and routes "
          + "(output.forget)."),
      .init(
        "ReloadPolicy", outputs: [.init("path", "s")],
        summary:
          "Reads the policy again; a bad one is refused and the old one "
          + "stays (policy.reload)."),
    ],
    properties: [
      .init("Version", "s", summary: "accessoryd's version."),
      .init(
        "SoundServer", "s",
        summary: "The sound server's name and version, or empty."),
      .init(
        "SoundServerState", "s",
        summary: "connected or disconnected."),
      .init(
        "PolicyPath", "s",
        summary: "The policy file in force, or 'built-in default'."),
      .init(
        "FollowsMediaPlayers", "b",
        summary: "Whether media players are followed (to pause them)."),
      .init(
        "ReadsHeadphones", "b",
        summary: "Whether accessoryd reads AirPods and Galaxy Buds itself."),
      .init(
        "PauseWhenTakenOff", "b", isWritable: true,
        summary:
          "Whether taking off the headphones that play pauses what plays "
          + "(media.pauseWhenTakenOff); setting it changes the setting "
          + "while accessoryd runs, kept over restarts (policy.set)."),
    ],
    signals: [
      .init(
        "MediaEvent",
        arguments: [
          .init("event_type", "s"), .init("accessory", "s"),
          .init("players", "as"), .init("streams", "au"),
          .init("reason", "s"),
        ],
        summary:
          "Media was paused, resumed, muted or unmuted (mediaPaused, "
          + "mediaResumed, streamMuted, streamUnmuted), for this accessory, "
          + "these players and streams, and why.")
    ])

  /// The route: where the audio is, and why.
  package static let route = DBusInterface(
    name: "io.github.accessoryd.Route1",
    methods: [
      .init(
        "Explain", outputs: [.init("text", "s")],
        summary:
          "Why the audio is where it is, rule by rule, as acctl explains "
          + "it (route.get with explain).")
    ],
    properties: [
      .init("Output", "s", summary: "The output's name, or empty."),
      .init(
        "OutputDescription", "s",
        summary: "The output's description, or empty."),
      .init("Input", "s", summary: "The input's name, or empty."),
      .init(
        "InputDescription", "s",
        summary: "The input's description, or empty."),
      .init("Summary", "s", summary: "The decision in one sentence."),
      .init("Trigger", "s", summary: "What the decision followed."),
      .init(
        "Pending", "b",
        summary: "Whether the route waits for the sound server."),
      .init(
        "DecidedAt", "x",
        summary: "When it was decided, in microseconds since 1970, or 0."),
    ],
    signals: [
      .init(
        "Changed",
        arguments: [
          .init("output", "s"), .init("summary", "s"),
          .init("chosen_by", "s"), .init("moves", "u"),
          .init("default_changed", "b"),
        ],
        summary:
          "A decision: the output, why, who chose it (accessoryd or "
          + "person), how many streams moved, and whether the default "
          + "changed.")
    ])

  /// One accessory: paired, registered, or headphones accessoryd knows
  /// without either.
  package static let accessory = DBusInterface(
    name: "io.github.accessoryd.Accessory1",
    methods: [
      .init(
        "Register", inputs: [.init("configuration", "a{sv}")],
        summary:
          "Registers it with a configuration, as AudioAccessoryKit's "
          + "register: deviceCapabilities (as), devicePlacement (s), "
          + "primaryAudioSourceDeviceIdentifier and "
          + "secondaryAudioSourceDeviceIdentifier (s) (accessory.register)."),
      .init(
        "Update", inputs: [.init("changes", "a{sv}")],
        summary:
          "Changes these fields of its configuration, as "
          + "AudioAccessoryKit's update (accessory.update)."),
    ],
    properties: [
      .init("Address", "s", summary: "Its Bluetooth address."),
      .init("Name", "s", summary: "Its display name."),
      .init(
        "FormFactor", "s",
        summary: "headphones, headset, earbuds, speaker, or empty."),
      .init(
        "State", "s",
        summary:
          "authorized, unauthorized, or headphones (known, not paired)."),
      .init("Registered", "b", summary: "Whether it is registered."),
      .init(
        "Capabilities", "as",
        summary: "audioSwitching and placement, as registered."),
      .init(
        "Placement", "s",
        summary: "inEar, onHead, overTheEar, offHead, or empty."),
      .init(
        "Output", "s", summary: "The name of its output, or empty."),
      .init(
        "Link", "s",
        summary:
          "The state of accessoryd's own link to it (connected, ...), or "
          + "empty."),
      .init(
        "Buds", "as", summary: "What the headphones say of each bud."),
      .init(
        "Battery", "a(sib)",
        summary:
          "Each part's battery: left, right, case or single, percent, and "
          + "whether it charges."),
    ])

  /// Every interface of the API.
  package static let interfaces = [daemon, route, accessory]

  /// The interface file the package installs for an interface, as
  /// `/usr/share/dbus-1/interfaces/NAME.xml`.
  package static func interfaceFile(for interface: DBusInterface) -> String {
    [
      DBusInterface.doctype,
      "<!-- accessoryd's session D-Bus API, on the name \(busName):",
      "     Daemon1 at \(daemonPath) (the ObjectManager of the accessories",
      "     too), Route1 at \(routePath), Accessory1 at",
      "     \(accessoriesPath)/<address, _ for :>.",
      "     Written from Sources/SessionBusInterfaces; docs/desktop.md",
      "     describes it. -->",
      "<node>",
      interface.introspectionElement(withSummaries: true),
      "</node>",
    ].joined(separator: "\n") + "\n"
  }
}
