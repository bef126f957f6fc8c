// One AAP session, without the socket: what to send once connected, and
// what each packet that comes means.

/// The state of one AAP session with a pair of AirPods.
///
/// The caller owns the socket: it sends ``opening``, passes every packet
/// it receives to ``receive(_:)``, and, if ``hasAnswered`` is still false
/// ``answerTimeout`` after connecting, reports ``noAnswerMessage``.
public struct AAPSession: Sendable {
  /// How long the headphones may take to send anything after the opening.
  public static let answerTimeout = Duration.seconds(2)

  /// What to tell a person whose AirPods never answer: BlueZ must present
  /// this host as an Apple device for them to speak AAP.
  public static let noAnswerMessage =
    "the AirPods did not answer; BlueZ may need "
    + "`DeviceID = bluetooth:004C:0000:0000` in /etc/bluetooth/main.conf "
    + "(then re-pair)"

  /// The packets to send once connected, in order.
  public let opening = AAP.opening

  /// Whether the headphones sent anything yet.
  public private(set) var hasAnswered = false

  private var lastWear: [BudPosition]?
  private var lastBattery: [BatteryLevel]?

  /// Creates a session that has received nothing.
  public init() {}

  /// Takes in one packet from the headphones.
  ///
  /// A wear report comes out only when the set of positions changed (a
  /// role swap resends the same set in the other order), a battery report
  /// only when a level changed.
  ///
  /// - Returns: The events, or why the packet was not read (the session
  ///   goes on; log it and skip it).
  public mutating func receive(
    _ packet: some Collection<UInt8>
  ) -> Result<[HeadphoneEvent], AAPDecodingError> {
    hasAnswered = true
    let message: AAPMessage
    do {
      message = try AAPMessage(packet)
    } catch {
      return .failure(error)
    }
    switch message {
    case .earDetection(let primary, let secondary):
      let wear = [primary, secondary]
      guard
        lastWear.map({ $0.sorted(by: order) != wear.sorted(by: order) })
          ?? true
      else { return .success([]) }
      lastWear = wear
      return .success([.wear(wear)])
    case .battery(let levels):
      guard !levels.isEmpty, levels != lastBattery else { return .success([]) }
      lastBattery = levels
      return .success([.battery(levels)])
    case .other, .connectionAnswer:
      return .success([])
    }
  }

  private func order(_ a: BudPosition, _ b: BudPosition) -> Bool {
    a.rawValue < b.rawValue
  }
}
