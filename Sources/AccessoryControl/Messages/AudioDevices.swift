// The answer to `output.list`: the sound server's outputs, inputs and
// playback streams as accessoryd sees them.

/// The sound server's outputs and inputs, each with a line on why it is
/// or is not the default, and the playback streams with where they play
/// (`output.list`, and the overview of `daemon.overview`).
public struct AudioDevices: Sendable, Hashable, Codable {
  /// One output (a sink) or input (a source).
  public struct Device: Sendable, Hashable, Codable {
    /// The server's name for it, which `output.choose` takes.
    public var name: String
    /// Its description, as the desktop's settings show it.
    public var description: String
    /// Whether it is the default, as accessoryd decided it.
    public var isDefault: Bool
    /// Whether it is the person's own choice: made in the desktop's
    /// settings, with another program, or with `output.choose`.
    public var isPersonsChoice: Bool
    /// Whether it can play or record: an output whose only ports are
    /// unplugged cannot.
    public var isAvailable: Bool
    /// The identity of the accessory or headphones it belongs to (a
    /// Bluetooth address, or `jack:<sink>`), if any.
    public var accessory: String?
    /// That accessory's name.
    public var accessoryName: String?
    /// Why it is the default, or what it is, in one line.
    public var why: String

    /// Creates a device.
    public init(
      name: String, description: String, isDefault: Bool,
      isPersonsChoice: Bool, isAvailable: Bool, accessory: String?,
      accessoryName: String?, why: String
    ) {
      self.name = name
      self.description = description
      self.isDefault = isDefault
      self.isPersonsChoice = isPersonsChoice
      self.isAvailable = isAvailable
      self.accessory = accessory
      self.accessoryName = accessoryName
      self.why = why
    }
  }

  /// One playback stream and where it plays.
  public struct Stream: Sendable, Hashable, Codable {
    /// The server's index of the stream.
    public var index: UInt32
    /// The application that plays it, if it says.
    public var application: String?
    /// The output it plays on.
    public var output: String
    /// Whether the person or the application put it on that output, so
    /// that it stays there.
    public var isPinned: Bool
    /// Whether the stream is muted, as accessoryd mutes what played on
    /// headphones that went until it is paused or they are back; nil from
    /// a daemon that does not say.
    public var isMuted: Bool?

    /// Creates a stream.
    public init(
      index: UInt32, application: String?, output: String, isPinned: Bool,
      isMuted: Bool? = nil
    ) {
      self.index = index
      self.application = application
      self.output = output
      self.isPinned = isPinned
      self.isMuted = isMuted
    }
  }

  /// The connection to the sound server; with it away the lists are
  /// empty.
  public var soundServer: SoundServerState
  /// The outputs, in the server's order.
  public var outputs: [Device]
  /// The inputs, in the server's order: monitors only when one is the
  /// default or the person's choice.
  public var inputs: [Device]
  /// The playback streams, in the server's order.
  public var streams: [Stream]

  /// Creates the lists.
  public init(
    soundServer: SoundServerState, outputs: [Device], inputs: [Device],
    streams: [Stream]
  ) {
    self.soundServer = soundServer
    self.outputs = outputs
    self.inputs = inputs
    self.streams = streams
  }
}

/// What `output.choose` and `output.forget` did: the device chosen or
/// the choices forgotten, and the route that followed.
public struct OutputChoiceReply: Sendable, Hashable, Codable {
  /// The device taken as the person's choice, if one was.
  public var chosen: String?
  /// Whether it is an input (a source) rather than an output.
  public var isInput: Bool
  /// The choices forgotten, outputs' and inputs' names.
  public var forgotten: [String]
  /// The route after the decision the change asked for.
  public var route: RouteReport

  /// Creates a reply.
  public init(
    chosen: String?, isInput: Bool, forgotten: [String], route: RouteReport
  ) {
    self.chosen = chosen
    self.isInput = isInput
    self.forgotten = forgotten
    self.route = route
  }
}
