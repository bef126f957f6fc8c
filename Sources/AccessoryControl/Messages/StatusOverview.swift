// The answer to `daemon.overview`: the daemon's status with the outputs,
// inputs, streams, accessories and players, for `acctl status`.

/// Everything `acctl status` shows on one screen: the daemon's status,
/// the outputs and inputs with the default and why, the streams and where
/// they play, the accessories with wear, battery and link, and the media
/// players.
///
/// On the wire the status's members are at the top level, as
/// `daemon.status` gives them, beside `outputs`, `inputs`, `streams`,
/// `accessories` and `players`.
public struct StatusOverview<Configuration: WireConfiguration>: Sendable,
  Hashable, Codable
{
  /// The daemon's version, sound server, files and host addresses.
  public var status: DaemonStatus
  /// The outputs, inputs and streams.
  public var devices: AudioDevices
  /// The accessories, headphones nobody registered included.
  public var accessories: [AccessoryRecord<Configuration>]
  /// The media players, or why they are not followed.
  public var players: MediaPlayerList

  /// Creates an overview.
  public init(
    status: DaemonStatus, devices: AudioDevices,
    accessories: [AccessoryRecord<Configuration>], players: MediaPlayerList
  ) {
    self.status = status
    self.devices = devices
    self.accessories = accessories
    self.players = players
  }

  private enum CodingKeys: String, CodingKey {
    case outputs, inputs, streams, accessories, players
  }

  /// Reads an overview: the status's members and the lists beside them.
  public init(from decoder: any Decoder) throws {
    status = try DaemonStatus(from: decoder)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    devices = AudioDevices(
      soundServer: status.soundServer.state,
      outputs: try container.decode(
        [AudioDevices.Device].self, forKey: .outputs),
      inputs: try container.decode([AudioDevices.Device].self, forKey: .inputs),
      streams: try container.decode(
        [AudioDevices.Stream].self, forKey: .streams))
    accessories = try container.decode(
      [AccessoryRecord<Configuration>].self, forKey: .accessories)
    players = try container.decode(MediaPlayerList.self, forKey: .players)
  }

  /// Writes the status's members and the lists beside them.
  public func encode(to encoder: any Encoder) throws {
    try status.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(devices.outputs, forKey: .outputs)
    try container.encode(devices.inputs, forKey: .inputs)
    try container.encode(devices.streams, forKey: .streams)
    try container.encode(accessories, forKey: .accessories)
    try container.encode(players, forKey: .players)
  }
}

/// `daemon.overview`: the daemon's status with the outputs, inputs,
/// streams, accessories and players.
public struct StatusOverviewRequest<Configuration: WireConfiguration>:
  DaemonRequest
{
  /// What the daemon answers with.
  public typealias Reply = StatusOverview<Configuration>
  /// The method.
  public static var method: String { "daemon.overview" }
  /// Creates the request.
  public init() {}
  /// The params as sent.
  public var params: JSONValue? { nil }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow([])
  }
}
