// Media rule `pause-taken-off`: what plays on headphones taken off is
// paused before the route changes.

extension MediaRun {
  /// Rule `pause-taken-off`: ask the players that play on the output of
  /// an accessory taken off to pause, and wait for their answer.
  ///
  /// The daemon posts this only for an accessory that was worn and had
  /// the output, with `media.pauseWhenTakenOff` on.
  mutating func takenOff(_ address: String, output: UInt32) {
    guard let server = view.server,
      server.outputs.contains(where: { $0.index == output })
    else { return }
    let streams = Set(
      server.streams.filter { $0.output == output }.map(\.index))
    memory.pausing[address] = .init(
      cause: .takenOff, streams: streams,
      reason: "the accessory that had the output was taken off")
    effects.append(
      .pause(accessory: address, streams: streams, cause: .takenOff))
  }
}
