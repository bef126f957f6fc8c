// accessoryd's settings: flags over a config file over XDG defaults.

import AccessoryBackend
import AccessoryControl
import AudioAccessoryKit
import CommandLineKit
import FoundationEssentials
import Glibc
import Logging
import PolicyFiles
import RoutingCore

/// The settings of the daemon.
public struct DaemonConfiguration: Sendable, Equatable, CommandDescription {
  /// The sound server, as libpulse names it; nil lets libpulse resolve it.
  public var server: String?
  /// The policy file; nil uses the built-in default policy.
  public var policyPath: String?
  /// Where a policy file is looked for afresh at each reload.
  ///
  /// It is the configuration directory's `policy.json5` when no file was
  /// named (`--policy`, or the config file's `policy`); nil when one was.
  public var policySearchPath: String?
  /// The directory of the state file.
  public var stateDirectory: String
  /// The control socket's path.
  public var socketPath: String
  /// The runtime directory the socket's place fell back on because neither
  /// `--socket`, `ACCESSORYD_SOCKET` nor `XDG_RUNTIME_DIR` named one
  /// (``ControlSocketPath/fallbackRuntimeDirectory(environment:)``).
  public var fallbackRuntimeDirectory: String? = nil
  /// This host's Bluetooth addresses, for multipoint decisions.
  public var hostAddresses: [String]
  /// The least severe level logged.
  public var logLevel: Logger.Level
  /// How long an answer from the sound server is waited for before the
  /// operation fails (a route then stays pending).
  public var serverTimeout: Duration = Self.defaultTimeout
  /// How long each part may take to stop before the daemon exits anyway.
  public var stopTimeout: Duration = Self.defaultTimeout

  /// The default of ``serverTimeout`` and ``stopTimeout``.
  public static let defaultTimeout = Duration.seconds(5)
  /// The longest timeout either flag takes, in seconds: an hour.
  static let longestTimeout = 3600.0

  /// The state file in the state directory.
  public var stateFilePath: String { stateDirectory + "/state.json" }
  /// The switches of the policy changed while the daemon runs
  /// (`acctl policy set`, the tray), kept over restarts.
  public var settingsFilePath: String { stateDirectory + "/settings.json" }

  /// The command line accessoryd takes, split by CommandLineKit; its help
  /// and manual page are written from it.
  public static let signature: [ArgumentDefinition] = [
    .option(
      "server",
      abstract: "The sound server (default: libpulse's own choice, "
        + "$PULSE_SERVER, then the session's server)."),
    .option(
      "policy", valueName: "file",
      abstract: "The routing policy (default: "
        + "$XDG_CONFIG_HOME/accessoryd/policy.json5 if it exists, else the "
        + "built-in default policy)."
    ).completing(.file),
    .option(
      "state-dir", valueName: "dir",
      abstract: "Where state.json is kept (default: "
        + "$XDG_STATE_HOME/accessoryd)."
    ).completing(.directory),
    .option(
      "socket", valueName: "path",
      abstract: "The control socket (default: $ACCESSORYD_SOCKET, else "
        + "$XDG_RUNTIME_DIR/accessoryd/control.sock)."
    ).completing(.file),
    .option(
      "host-address", valueName: "address",
      abstract: "This host's Bluetooth address; repeat for each adapter "
        + "(default: the adapters BlueZ reports)."),
    .option(
      "log-level", valueName: "level",
      abstract: "The least severe level logged: trace, debug, info, notice, "
        + "warning, error or critical (default: notice)."
    ).completing(.values(Logger.Level.allCases.map(\.rawValue))),
    .option(
      "server-timeout", valueName: "seconds",
      abstract: "How long an answer from the sound server is waited for "
        + "before the operation fails and the route stays pending "
        + "(default: 5)."),
    .option(
      "stop-timeout", valueName: "seconds",
      abstract: "How long each part may take to stop, a batch the sound "
        + "server has not answered included, before accessoryd exits anyway "
        + "(default: 5)."),
    .option(
      "config", valueName: "file",
      abstract: "A JSON5 file with the same settings: server, policy, "
        + "stateDirectory, socket, hostAddresses, logLevel (default: "
        + "$XDG_CONFIG_HOME/accessoryd/accessoryd.json5 if it exists). "
        + "Flags win over it."
    ).completing(.file),
  ]

  /// The usage line.
  public static var usage: String { usageText() }

  /// The help text, ending with a newline.
  public static var help: String { helpText() + "\n" }

  /// The manual page, accessoryd(8).
  public static var manualPage: String { ManualPage(root: Self.self).text }

  /// The version number the daemon reports; `--version` prints
  /// ``ProjectVersion/line``, as acctl does.
  public static let version = ProjectVersion.number

  /// accessoryd's name, help text, exit statuses and manual sections.
  public static let configuration = CommandConfiguration(
    commandName: "accessoryd",
    abstract: "Switch audio output to the accessories people wear.",
    discussion: """
      accessoryd keeps the default output and the playing streams where the \
      registered accessories say they should be, on PulseAudio or PipeWire. \
      It is a user service: acctl(1) talks to it on its control socket, and \
      accessoryd.policy(5) says how it decides.

      SIGTERM or SIGINT stop it gracefully; a second one while it stops ends \
      it at once. SIGHUP (or acctl policy reload) reads the policy again: \
      the file named, or, without --policy (or a policy in the config \
      file), \
      $XDG_CONFIG_HOME/accessoryd/policy.json5 if it exists now, else the \
      built-in default; the log names the file in use, and a bad policy is \
      refused while the old one stays. SIGUSR1, SIGUSR2, SIGALRM and SIGPIPE are ignored. \
      Under systemd (Type=notify) it reports READY=1 once its \
      socket listens, RELOADING=1 and READY=1 around a reload, and \
      STOPPING=1 on the way out.
      """,
    version: ProjectVersion.line,
    exitStatuses: [
      ExitStatusMeaning(.success, "stopped by SIGTERM or SIGINT"),
      ExitStatusMeaning(
        .failure,
        "a part did not stop within the stop timeout (5 s, --stop-timeout), "
          + "or failed while running"),
      ExitStatusMeaning(.usage, "a bad flag or value"),
      ExitStatusMeaning(.dataError, "the state file is of a newer version"),
      ExitStatusMeaning(
        .cannotCreate,
        "the state directory or file cannot be used (read-only, not a "
          + "directory, a symbolic link, a file it cannot read), or the "
          + "control socket's place cannot (see FILES)"),
      ExitStatusMeaning(
        .temporaryFailure,
        "another accessoryd uses the state directory or serves the socket"),
      ExitStatusMeaning(
        .configuration, "a bad config file, policy or NOTIFY_SOCKET"),
      ExitStatusMeaning(
        .signal(SIGTERM),
        "a second SIGTERM while it stopped (128 + the signal: 130 for "
          + "SIGINT)"),
    ],
    manualSection: 8,
    manualSections: [
      ManualSection(
        "HEADPHONES",
        entries: [
          .init(
            "Bluetooth headphones nobody registered",
            "A sink of a headphone, headset or hands-free device. It takes "
              + "the output when it connects, as a registered accessory "
              + "without placement does "
              + "(connection.followUnregisteredHeadphones); headphones "
              + "already there when accessoryd starts keep the output if "
              + "they have it, and take it once they connect again. When it goes, what played on it is muted at "
              + "once and never heard on the speakers; the players pause if "
              + "it is not back within connection.reappearGraceSeconds; "
              + "through a profile switch the output follows it and the "
              + "music plays on (media.guardUnregisteredHeadphones)."),
          .init(
            "Registered accessories",
            "acctl pair, then register with audioSwitching and placement, "
              + "or a companion through AccessoryControlDevice: the output "
              + "follows where they are worn, and taking them off pauses "
              + "what plays (media.pauseWhenTakenOff)."),
          .init(
            "AirPods, Galaxy Buds",
            "acctl pair: accessoryd reads their ear detection and battery "
              + "itself (AirPods need BlueZ's DeviceID set to Apple's; acctl "
              + "doctor checks it)."),
          .init(
            "Wired headphones",
            "A sound card's active port that is a headphone jack known to "
              + "be plugged in. Plugged in, the headphones take the output "
              + "as a Bluetooth headset that connects does. Pulled, "
              + "the card plays on its speakers: what played is muted at "
              + "once, and the players pause unless the jack is plugged back "
              + "within the grace time; plugged back, it is unmuted, and "
              + "what was paused resumes if media.resumeOnReconnect."),
          .init(
            "Keeping audio with worn headphones",
            "While worn headphones have the output, a speaker, car kit or "
              + "headphones not reported worn that connect do not take it, "
              + "and a default the server gives to a device as it comes goes "
              + "back (connection.keepAudioWithHeadphones)."),
        ]),
      ManualSection(
        "ENVIRONMENT",
        entries: [
          .init("PULSE_SERVER", "The sound server, unless --server says."),
          .init(
            "ACCESSORYD_SOCKET",
            "The control socket, unless --socket or the config file says."),
          .init(
            "XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_RUNTIME_DIR",
            "Where the config file, the policy, the state and the socket "
              + "are looked for."),
          .init(
            "NOTIFY_SOCKET",
            "Set by systemd for a Type=notify unit: where readiness, "
              + "reloads and the stop are reported."),
          .init(
            "DBUS_SYSTEM_BUS_ADDRESS, DBUS_SESSION_BUS_ADDRESS",
            "The buses of BlueZ and of the media players."),
        ]),
      ManualSection(
        "FILES",
        entries: [
          .init(
            "$XDG_CONFIG_HOME/accessoryd/accessoryd.json5",
            "The settings, as JSON5."),
          .init(
            "$XDG_CONFIG_HOME/accessoryd/policy.json5",
            "The policy, if present; see accessoryd.policy(5)."),
          .init(
            "/usr/share/accessoryd/policies/",
            "The shipped policies, to copy and change."),
          .init(
            "$XDG_STATE_HOME/accessoryd/state.json",
            "The paired accessories and their registrations; "
              + "accessoryd.lock beside it is held while the daemon runs."),
          .init(
            "$XDG_STATE_HOME/accessoryd/muted-streams.json",
            "The streams accessoryd holds muted, while it does: a daemon "
              + "that starts gives back what one that died left muted."),
          .init(
            "$XDG_RUNTIME_DIR/accessoryd/control.sock",
            "The control socket, mode 0600. Its directory is made (mode "
              + "0700) if missing; else it must be the daemon user's and "
              + "writable by no one else, or a sticky directory of root's "
              + "such as /tmp, and not a symbolic link. The mode of a "
              + "directory the daemon did not make is never changed. A "
              + "socket file there is replaced only if it is the user's own "
              + "and nothing listens on it. Clients of another user are "
              + "refused, and acctl refuses a socket another user serves."),
          .init(
            "/usr/lib/systemd/user/accessoryd.service",
            "The user unit: systemctl --user enable --now accessoryd."),
        ]),
      ManualSection(
        "SEE ALSO",
        paragraphs: [
          "acctl(1), accessoryd.policy(5), systemctl(1), pactl(1), "
            + "wireplumber(1)"
        ]),
    ])

  /// The error for bad arguments or a bad config file.
  public struct UsageError: Error, CustomStringConvertible {
    /// Where the bad value came from.
    public enum Source: Sendable, Hashable {
      /// The command line: the usage line helps.
      case commandLine
      /// A config file, named in the message.
      case configFile
    }

    /// What is wrong, quoting the value.
    public var description: String
    /// Where the bad value came from.
    public var source: Source

    /// The exit status for the error: ``ProcessExitCode/usage`` for the
    /// command line, ``ProcessExitCode/configuration`` for a config file.
    public var exitStatus: ProcessExitCode {
      switch source {
      case .commandLine: .usage
      case .configFile: .configuration
      }
    }

    init(description: String, source: Source = .commandLine) {
      self.description = description
      self.source = source
    }
  }

  /// What parsing the command line asks for.
  public enum Request: Sendable, Equatable {
    /// Run with this configuration.
    case run(DaemonConfiguration)
    /// Print the help text.
    case help
    /// Print the version.
    case version
    /// Print the manual page.
    case manual
    /// Print the manual page of the policy format.
    case policyManual
  }

  /// Parses the command line, reading the config file it names or the
  /// default one.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - environment: The environment, for XDG defaults.
  /// - Throws: ``UsageError`` naming the bad argument or setting.
  public static func parse(
    _ arguments: [String], environment: [String: String]
  ) throws(UsageError) -> Request {
    let cursor: ArgumentCursor
    do {
      // The help lists `--version` itself; the manual pages are for
      // packaging, and not in the help.
      cursor = try ArgumentCursor(
        arguments,
        signature: signature + [
          .flag("version", abstract: ""),
          .flag("generate-manual", abstract: ""),
          .flag("generate-policy-manual", abstract: ""),
        ])
    } catch is CleanExit {
      return .help
    } catch {
      throw UsageError(description: argumentErrorMessage(for: error))
    }
    if cursor.flag("version") { return .version }
    if cursor.flag("generate-manual") { return .manual }
    if cursor.flag("generate-policy-manual") { return .policyManual }
    let hosts = cursor.values("host-address")

    let configHome = UserDirectories.configHome(environment: environment)
    var file = FileSettings()
    if let path = cursor.value("config") {
      file = try FileSettings.load(path)
    } else {
      let path = configHome + "/accessoryd/accessoryd.json5"
      if FileManager.default.fileExists(atPath: path) {
        file = try FileSettings.load(path)
      }
    }
    var policy = cursor.value("policy") ?? file.policy
    var policySearchPath: String?
    if policy == nil {
      let path = configHome + "/accessoryd/policy.json5"
      policySearchPath = path
      if FileManager.default.fileExists(atPath: path) { policy = path }
    }
    let levelText = cursor.value("log-level") ?? file.logLevel ?? "notice"
    guard let level = Logger.Level(rawValue: levelText) else {
      throw UsageError(
        description:
          "The value '\(levelText)' is invalid for '--log-level': expected "
          + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
    }
    let addresses = hosts.isEmpty ? (file.hostAddresses ?? []) : hosts
    for address in addresses where BluetoothAddress(address) == nil {
      throw UsageError(
        description:
          "The value '\(address)' is invalid for '--host-address': expected "
          + "a Bluetooth address such as 'AA:BB:CC:DD:EE:FF'")
    }
    let serverTimeout = try timeout(
      cursor.value("server-timeout"), "server-timeout")
    let stopTimeout = try timeout(cursor.value("stop-timeout"), "stop-timeout")
    var socketEnvironment = environment
    if let socket = cursor.value("socket") ?? file.socket {
      socketEnvironment[ControlSocketPath.environmentVariable] = socket
    }
    return .run(
      DaemonConfiguration(
        server: cursor.value("server") ?? file.server,
        policyPath: policy,
        policySearchPath: policySearchPath,
        stateDirectory: cursor.value("state-dir") ?? file.stateDirectory
          ?? StateFile.defaultURL(environment: environment)
          .deletingLastPathComponent().path,
        socketPath: ControlSocketPath.resolve(environment: socketEnvironment),
        fallbackRuntimeDirectory: ControlSocketPath.fallbackRuntimeDirectory(
          environment: socketEnvironment),
        hostAddresses: addresses.compactMap {
          BluetoothAddress($0)?.description
        },
        logLevel: level, serverTimeout: serverTimeout,
        stopTimeout: stopTimeout))
  }

  /// A timeout flag's value: a number of seconds from a millisecond to an
  /// hour, or the default when the flag is not given.
  static func timeout(
    _ text: String?, _ flag: String
  ) throws(UsageError) -> Duration {
    guard let text else { return defaultTimeout }
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0.001,
      seconds <= longestTimeout
    else {
      throw UsageError(
        description:
          "The value '\(text)' is invalid for '--\(flag)': expected a number "
          + "of seconds from 0.001 to \(Int(longestTimeout)), such as 5 or 0.5")
    }
    return .milliseconds(Int64((seconds * 1000).rounded()))
  }

  /// The settings a config file may hold.
  package struct FileSettings: Decodable {
    var server: String?
    var policy: String?
    var stateDirectory: String?
    var socket: String?
    var hostAddresses: [String]?
    var logLevel: String?

    init() {}

    private enum CodingKeys: String, CodingKey, CaseIterable {
      case server, policy, stateDirectory, socket, hostAddresses, logLevel
    }

    /// Refuses a value of the wrong type, naming the setting and the
    /// value.
    private static func checkType(
      of value: JSONValue, key: String, path: String
    ) throws(UsageError) {
      let expected: String
      switch (key, value) {
      case ("hostAddresses", .array(let items)):
        guard
          let index = items.firstIndex(where: {
            if case .string = $0 { false } else { true }
          })
        else { return }
        throw UsageError(
          description:
            "\(path): hostAddresses[\(index)]: is "
            + "\(describe(items[index])); expected a Bluetooth address such "
            + "as 'AA:BB:CC:DD:EE:FF'",
          source: .configFile)
      case ("hostAddresses", _):
        expected = "a list of Bluetooth addresses"
      case (_, .string):
        return
      default:
        expected = "a string"
      }
      throw UsageError(
        description: "\(path): \(key): is \(describe(value)); expected "
          + expected,
        source: .configFile)
    }

    /// A JSON value as a message quotes it.
    private static func describe(_ value: JSONValue) -> String {
      switch value {
      case .string(let text): "'\(text)'"
      case .number(let number):
        "the number "
          + (number.rounded() == number && abs(number) < 1e15
            ? String(Int(number)) : String(number))
      case .bool(let flag): "\(flag)"
      case .null: "null"
      case .array: "a list"
      case .object: "an object"
      }
    }

    /// Refuses a value a flag would refuse, naming the setting, not the
    /// flag.
    private func checkValues(path: String) throws(UsageError) {
      if let logLevel, Logger.Level(rawValue: logLevel) == nil {
        throw UsageError(
          description:
            "\(path): logLevel: is '\(logLevel)'; expected one of "
            + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "),
          source: .configFile)
      }
      for (index, address) in (hostAddresses ?? []).enumerated()
      where BluetoothAddress(address) == nil {
        throw UsageError(
          description:
            "\(path): hostAddresses[\(index)]: is '\(address)'; expected a "
            + "Bluetooth address such as 'AA:BB:CC:DD:EE:FF'",
          source: .configFile)
      }
    }

    static func load(_ path: String) throws(UsageError) -> FileSettings {
      let data: Data
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
      } catch {
        throw UsageError(
          description: "\(path): cannot be read: \(systemReason(error))",
          source: .configFile)
      }
      return try decode(data, path: path)
    }

    /// Reads a config file's text; `path` names it in errors.
    ///
    /// - Throws: ``UsageError`` naming the file, and the setting when one
    ///   is unknown or has the wrong type.
    package static func decode(
      _ data: Data, path: String
    ) throws(UsageError) -> FileSettings {
      do {
        try JSON5Reader.check(data)
      } catch {
        throw UsageError(
          description: "\(path): \(error.description)", source: .configFile)
      }
      let decoder = JSONDecoder()
      decoder.allowsJSON5 = true
      do {
        let values = try decoder.decode([String: JSONValue].self, from: data)
        let known = CodingKeys.allCases.map(\.rawValue)
        for key in values.keys.sorted() where !known.contains(key) {
          throw UsageError(
            description:
              "\(path): \(key): is not a known setting; expected one of "
              + known.map { "'\($0)'" }.joined(separator: ", "),
            source: .configFile)
        }
        for key in values.keys.sorted() {
          try checkType(of: values[key]!, key: key, path: path)
        }
        let settings = try decoder.decode(FileSettings.self, from: data)
        try settings.checkValues(path: path)
        return settings
      } catch let error as UsageError {
        throw error
      } catch let error as DecodingError {
        guard case .typeMismatch = error else {
          throw UsageError(
            description: "\(path): is not valid JSON5: \(error)",
            source: .configFile)
        }
        throw UsageError(
          description: "\(path): \(error.explained)", source: .configFile)
      } catch {
        throw UsageError(
          description: "\(path): is not valid JSON5: \(error)",
          source: .configFile)
      }
    }
  }
}

extension ExitStatusMeaning {
  /// Creates the meaning of one of the statuses in the table both tools
  /// share.
  init(_ code: ProcessExitCode, _ meaning: String) {
    self.init(code.rawValue, meaning)
  }
}
