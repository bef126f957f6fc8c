/// A sink as `pactl list sinks` reports it.
public struct ObservedSink: Sendable, Hashable {
  /// The sink index on the server (`Sink #…`).
  public var index: Int

  /// The sink name.
  public var name: String

  /// The human-readable name.
  public var description: String

  /// The index of the module that created the sink, if any.
  public var ownerModule: Int?

  /// All sink properties, such as `device.bus`.
  public var properties: [String: String]

  /// Creates an observed sink.
  ///
  /// - Parameters:
  ///   - index: The sink index.
  ///   - name: The sink name.
  ///   - description: The human-readable name.
  ///   - ownerModule: The index of the module that created the sink.
  ///   - properties: The sink properties.
  public init(
    index: Int,
    name: String,
    description: String,
    ownerModule: Int? = nil,
    properties: [String: String] = [:]
  ) {
    self.index = index
    self.name = name
    self.description = description
    self.ownerModule = ownerModule
    self.properties = properties
  }
}

/// A playing stream (sink input) as `pactl list sink-inputs` reports it.
public struct ObservedSinkInput: Sendable, Hashable {
  /// The sink input index on the server (`Sink Input #…`).
  public var index: Int

  /// The index of the sink it plays on, or `nil` if it is not linked.
  public var sinkIndex: Int?

  /// The name of the sink it plays on, or `nil` if it is not linked.
  public var sinkName: String?

  /// The client's application name (`application.name`).
  public var clientName: String?

  /// All sink input properties.
  public var properties: [String: String]

  /// Creates an observed sink input.
  ///
  /// - Parameters:
  ///   - index: The sink input index.
  ///   - sinkIndex: The index of its sink.
  ///   - sinkName: The name of its sink.
  ///   - clientName: The client's application name.
  ///   - properties: The sink input properties.
  public init(
    index: Int,
    sinkIndex: Int?,
    sinkName: String?,
    clientName: String?,
    properties: [String: String] = [:]
  ) {
    self.index = index
    self.sinkIndex = sinkIndex
    self.sinkName = sinkName
    self.clientName = clientName
    self.properties = properties
  }
}
