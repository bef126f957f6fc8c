// The media rules' one step: (memory, view, event, policy, now) to
// (memory, effects). Pure: the daemon carries the effects out, and feeds
// back what comes of them as later events.

/// The media rules: pause what plays on headphones taken off, resume it
/// when they are put back on, keep quiet what the server moves off an
/// output that went away.
public enum MediaRules {
  /// Takes one event.
  ///
  /// - Parameters:
  ///   - memory: What the rules remember.
  ///   - view: The world at the event.
  ///   - input: The event.
  ///   - policy: The policy in force.
  ///   - now: The time, in seconds since 1970 on the engine's clock.
  /// - Returns: The new memory and the effects, in the order to carry
  ///   them out.
  public static func step(
    _ memory: MediaMemory, _ view: MediaView, _ input: MediaInput,
    _ policy: Policy, now: Double
  ) -> (MediaMemory, [MediaEffect]) {
    var run = MediaRun(memory: memory, view: view, policy: policy, now: now)
    switch input {
    case .takenOff(let accessory, let output):
      run.takenOff(accessory, output: output)
    case .playersPaused(let accessory, let players, let streams):
      run.playersPaused(accessory, players, streams)
    case .putBack(let accessory, let window):
      run.putBack(accessory, within: window)
    case .pauseUndone(let accessory):
      run.putBack(accessory, within: .infinity)
    case .outputWentAway(let accessory, let output, let muted, let stays):
      run.outputWentAway(
        accessory, output: output, muted: muted, sinkStays: stays)
    case .jackBack(let accessory, let output):
      run.jackBack(accessory, output: output)
    case .serverChanged(let previous):
      run.serverChanged(from: previous)
    case .graceEnded(let accessory, let absence):
      run.graceEnded(accessory, absence)
    case .playerChanged(let busName, let status):
      run.playerChanged(busName, status)
    case .streamMovedByThePerson(let stream):
      run.personMoved(stream)
    case .leftOverMutes(let streams):
      run.takeOver(streams)
    case .unpaired(let accessory):
      run.unpaired(accessory)
    case .bluetoothDisconnected(let accessory):
      run.bluetoothDisconnected(accessory)
    case .backSettled(let accessory):
      run.backSettled(accessory)
    }
    return (run.memory, run.effects)
  }
}

/// One step of the media rules in progress; each rule is an extension in
/// `Rules/Media/`.
struct MediaRun {
  var memory: MediaMemory
  let view: MediaView
  let policy: Policy
  let now: Double
  var effects: [MediaEffect] = []

  /// Whether an accessory is reported off the head.
  func isOffHead(_ address: String) -> Bool {
    view.reportedOffHead.contains(address)
  }

  /// Asks the daemon to unmute streams, if there are any.
  mutating func unmute(
    _ streams: Set<UInt32>, _ address: String, reason: String
  ) {
    guard !streams.isEmpty, view.server != nil else { return }
    effects.append(
      .unmute(accessory: address, streams: streams, reason: reason))
  }
}
