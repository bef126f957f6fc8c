// The batch of commands that one routing decision becomes: card profiles,
// the default sink and stream moves, all started under one lock.

internal import CPulse

extension ContextDriver {
  /// Starts a batch's operations in order under one lock, pipelined on the
  /// connection, and returns each one's result.
  func apply(
    _ batch: PulseBatch, timeout: Duration
  ) async -> PulseBatchResult {
    typealias Start = (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
    var starts: [Start] = []
    for change in batch.cardProfiles {
      starts.append { context, userdata in
        pa_context_set_card_profile_by_name(
          context, change.cardName, change.profileName, successCallback,
          userdata)
      }
    }
    if let name = batch.defaultSink {
      starts.append { context, userdata in
        pa_context_set_default_sink(context, name, successCallback, userdata)
      }
    }
    for move in batch.moves {
      starts.append { context, userdata in
        pa_context_move_sink_input_by_name(
          context, move.sinkInput, move.sink, successCallback, userdata)
      }
    }
    let results = await performMany(timeout: timeout, starts).map { result in
      result.map { _ in () }
    }
    let movesStart = starts.count - batch.moves.count
    return PulseBatchResult(
      cardProfiles: Array(results[..<batch.cardProfiles.count]),
      defaultSink: batch.defaultSink == nil ? nil : results[movesStart - 1],
      moves: Array(results[movesStart...]))
  }
}
