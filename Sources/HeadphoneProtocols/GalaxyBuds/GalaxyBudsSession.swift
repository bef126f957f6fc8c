// One Galaxy Buds session, without the socket: the bytes that come, cut
// into frames, read, and turned into events when something changed.

/// The state of one session with a pair of Galaxy Buds.
///
/// The buds send their full status as the host connects and a status
/// update at every change; the host sends nothing to get them.
public struct GalaxyBudsSession: Sendable {
  /// What one read gave.
  public struct Step: Sendable, Hashable {
    /// The events, in order.
    public var events: [HeadphoneEvent] = []
    /// Why bytes or frames were skipped, for the debug log.
    public var skipped: [String] = []
  }

  /// The buds' model, which decides the framing and the layouts.
  public let model: GalaxyBudsModel
  private var reader: GalaxyBudsFrameReader
  private var lastWear: [BudPosition]?
  private var lastBattery: [BatteryLevel]?
  /// The revision of the last full status, which says what the status
  /// updates carry.
  private var fullStatusRevision: Int?

  /// Creates a session that has received nothing.
  ///
  /// - Parameter model: The buds' model (``GalaxyBudsModel/init(_:)``).
  public init(model: GalaxyBudsModel) {
    self.model = model
    reader = GalaxyBudsFrameReader(framing: model.framing)
  }

  /// Takes in bytes read from the socket.
  public mutating func receive(_ bytes: some Sequence<UInt8>) -> Step {
    var step = Step()
    for result in reader.append(bytes) {
      let frame: GalaxyBudsFrame
      switch result {
      case .success(let read): frame = read
      case .failure(let error):
        step.skipped.append(error.description)
        continue
      }
      let status: GalaxyBudsStatus?
      do {
        status = try GalaxyBudsStatus(
          frame, model: model, fullStatusRevision: fullStatusRevision)
      } catch {
        step.skipped.append(error.description)
        continue
      }
      guard let status else { continue }
      if let revision = status.fullStatusRevision {
        fullStatusRevision = revision
      }
      let wear = [status.left, status.right]
      if wear != lastWear {
        lastWear = wear
        step.events.append(.wear(wear))
      }
      if !status.battery.isEmpty, status.battery != lastBattery {
        lastBattery = status.battery
        step.events.append(.battery(status.battery))
      }
    }
    return step
  }
}
