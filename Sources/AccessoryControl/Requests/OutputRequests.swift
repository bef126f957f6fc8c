// The requests about the sound server's outputs and inputs: list them,
// choose one as the person's choice, forget that choice.

/// `output.list`: the outputs and inputs, with the default and why, and
/// the playback streams.
public struct OutputListRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = AudioDevices
  /// The method.
  public static let method = "output.list"
  /// Creates the request.
  public init() {}
  /// The params as sent.
  public var params: JSONValue? { nil }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow([])
  }
}

/// `output.choose`: takes an output or an input as the person's own
/// choice, as choosing it in the desktop's settings would be, and routes.
public struct OutputChooseRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = OutputChoiceReply
  /// The method.
  public static let method = "output.choose"
  /// The device: an output's or an input's name, or its description.
  public var device: String

  /// Creates the request.
  public init(device: String) { self.device = device }

  /// The params as sent.
  public var params: JSONValue? { .object(["device": .string(device)]) }

  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow(["device"])
    device = try params.requiredString("device")
  }
}

/// `output.forget`: forgets the person's choice of output and of input,
/// so that accessoryd decides alone again, and routes.
public struct OutputForgetRequest: DaemonRequest {
  /// What the daemon answers with.
  public typealias Reply = OutputChoiceReply
  /// The method.
  public static let method = "output.forget"
  /// Creates the request.
  public init() {}
  /// The params as sent.
  public var params: JSONValue? { nil }
  /// Reads the params the daemon received.
  public init(params: RequestParameters) throws(ControlError) {
    try params.allow([])
  }
}
