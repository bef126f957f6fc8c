// The headphones' own protocols: AAP packets (L2CAP keeps their bounds)
// and the Galaxy Buds' RFCOMM byte stream, cut into reads anywhere.

import HeadphoneProtocols

extension FuzzTarget {
  /// AirPods' packets: an ear detection names two buds, a battery level
  /// is a percentage.
  static let aapPackets = FuzzTarget(
    name: "aap-packets",
    summary: "AirPods' AAP packets, each after a length byte"
  ) { bytes in
    var session = AAPSession()
    for packet in bytes.lengthPrefixedPieces() {
      guard case .success(let events) = session.receive(packet) else {
        continue
      }
      for event in events {
        switch event {
        case .wear(let buds) where buds.count != 2:
          return "an ear detection packet gave \(buds.count) buds"
        case .battery(let levels)
        where levels.contains(where: { !(0...100).contains($0.percent) }):
          return "a battery level out of 0 to 100: \(levels)"
        default:
          continue
        }
      }
    }
    return nil
  }

  /// Galaxy Buds' byte stream, as the model the first byte picks frames
  /// and lays it out.
  static let galaxyBudsStream = FuzzTarget(
    name: "galaxy-buds-stream",
    summary:
      "Galaxy Buds' RFCOMM stream: a byte that picks the model, then reads "
      + "each after a length byte"
  ) { bytes in
    let models = GalaxyBudsModel.allCases
    let model = models[Int(bytes.first ?? 0) % models.count]
    var session = GalaxyBudsSession(model: model)
    var reader = GalaxyBudsFrameReader(framing: model.framing)
    for read in Array(bytes.dropFirst()).lengthPrefixedPieces() {
      _ = session.receive(read)
      // Each frame read must read back the same once encoded again.
      for case .success(let frame) in reader.append(read) {
        var again = GalaxyBudsFrameReader(framing: model.framing)
        let encoded = frame.encoded(as: model.framing)
        let results = again.append(encoded)
        guard results.count == 1, case .success(let copy) = results[0],
          copy == frame
        else {
          return "a frame of the \(model.rawValue) that does not read back "
            + "once encoded: \(encoded.hexDescription)"
        }
      }
    }
    return nil
  }
}
