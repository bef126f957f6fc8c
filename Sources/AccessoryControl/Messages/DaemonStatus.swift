// The answer to `daemon.status`.

/// The daemon's version, its sound server, the files it uses and the
/// host's Bluetooth addresses.
public struct DaemonStatus: Sendable, Hashable, Codable {
  /// The sound server accessoryd talks to.
  public struct SoundServer: Sendable, Hashable, Codable {
    /// Whether it is connected.
    public var state: SoundServerState
    /// Its name, such as `PulseAudio (on PipeWire 1.2.7)`, while
    /// connected.
    public var name: String?
    /// Its version, while connected.
    public var version: String?

    /// Creates a description of the sound server.
    public init(
      state: SoundServerState, name: String? = nil, version: String? = nil
    ) {
      self.state = state
      self.name = name
      self.version = version
    }

    private enum CodingKeys: String, CodingKey { case state, name, version }

    /// Writes the server, with `null` for what is not known.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(state, forKey: .state)
      try container.encode(name, forKey: .name)
      try container.encode(version, forKey: .version)
    }
  }

  /// accessoryd's version.
  public var version: String
  /// The sound server.
  public var soundServer: SoundServer
  /// The policy file, or `built-in default`.
  public var policyPath: String
  /// Where the daemon looks for a policy file at each reload, when none
  /// was named; nil when one was, or from a daemon that does not say.
  public var policySearchPath: String?
  /// Why the last reload was refused, while the policy read before it
  /// stays in force (the file named by ``policyPath`` may say something
  /// else now); nil when the last reload succeeded, or from a daemon that
  /// does not say.
  public var policyRefused: String?
  /// The state file.
  public var statePath: String
  /// The control socket.
  public var socketPath: String
  /// The Bluetooth addresses of the host's adapters, the audio sources
  /// that name this host.
  public var hostAddresses: [String]
  /// Whether the session's media players are followed; nil from a daemon
  /// that does not say.
  public var media: MediaStatus?
  /// Whether accessoryd can read headphones over Bluetooth itself; nil
  /// from a daemon that does not say.
  public var headphones: HeadphoneReading?
  /// BlueZ as the daemon reaches it; nil from a daemon that does not say.
  public var bluetooth: Bluetooth?

  /// BlueZ in brief: the state `bluetooth.status` gives, why it is not
  /// running, and how many adapters it has.
  public struct Bluetooth: Sendable, Hashable, Codable {
    /// Whether accessoryd reaches BlueZ.
    public var state: BluetoothStatus.State
    /// Why not, when it does not.
    public var reason: String?
    /// How many adapters BlueZ has.
    public var adapters: Int

    /// Creates the summary.
    public init(state: BluetoothStatus.State, reason: String?, adapters: Int) {
      self.state = state
      self.reason = reason
      self.adapters = adapters
    }
  }

  /// Creates a status.
  public init(
    version: String, soundServer: SoundServer, policyPath: String,
    statePath: String, socketPath: String, hostAddresses: [String],
    media: MediaStatus? = nil, headphones: HeadphoneReading? = nil
  ) {
    self.headphones = headphones
    self.version = version
    self.soundServer = soundServer
    self.policyPath = policyPath
    self.statePath = statePath
    self.socketPath = socketPath
    self.hostAddresses = hostAddresses
    self.media = media
  }
}

/// Whether accessoryd reads headphones over Bluetooth itself (AirPods,
/// Galaxy Buds), and if not, why.
public struct HeadphoneReading: Sendable, Hashable, Codable {
  /// Whether it can: BlueZ is reachable and the kernel has Bluetooth
  /// sockets.
  public var reading: Bool
  /// Why not, when it cannot; said once, not per accessory.
  public var reason: String?

  /// Creates a status.
  public init(reading: Bool, reason: String? = nil) {
    self.reading = reading
    self.reason = reason
  }
}
