// The batch of commands that one routing decision becomes: card profiles,
// the default sink and stream moves, started under one lock.

internal import CPulse

extension ContextDriver {
  /// Sends a batch's operations in order and returns each one's result.
  ///
  /// Without ``PulseBatch/movesWhatTheDefaultLeaves``, every operation is
  /// started under one lock, pipelined in one round. With it, and with a
  /// default sink and moves in the batch, there are three rounds: the card
  /// profiles and the default; once those are acknowledged, a listing of
  /// the streams and of the moves' target sinks; then only the moves of
  /// streams that are not on their target yet. The others count as
  /// succeeded.
  func apply(
    _ batch: PulseBatch, timeout: Duration
  ) async -> PulseBatchResult {
    guard batch.movesWhatTheDefaultLeaves, batch.defaultSink != nil,
      !batch.moves.isEmpty
    else {
      return await applyInOneRound(batch, timeout: timeout)
    }
    var result = await applyInOneRound(
      PulseBatch(
        cardProfiles: batch.cardProfiles, defaultSink: batch.defaultSink),
      timeout: timeout)
    let placed = await placements(of: batch.moves, timeout: timeout)
    // A stream already on its target was carried there by the default
    // change (or never left); a move would change nothing.
    let remaining = batch.moves.indices.filter { !placed.contains($0) }
    let moved = await applyInOneRound(
      PulseBatch(moves: remaining.map { batch.moves[$0] }), timeout: timeout)
    result.moves = Array(repeating: .success(()), count: batch.moves.count)
    for (position, outcome) in zip(remaining, moved.moves) {
      result.moves[position] = outcome
    }
    result.movesLeftToTheDefault = batch.moves.indices.filter {
      placed.contains($0)
    }
    return result
  }

  /// Returns the positions of the moves whose stream is on its target
  /// already.
  ///
  /// The streams and the moves' target sinks are listed in one round. A
  /// listing that fails leaves every move to be sent.
  private func placements(
    of moves: [PulseBatch.StreamMove], timeout: Duration
  ) async -> Set<Int> {
    let targets = Array(Set(moves.map(\.sink))).sorted()
    var starts: [Start] = [
      { context, userdata in
        pa_context_get_sink_input_info_list(
          context,
          { _, info, endOfList, userdata in
            listCallback(userdata, endOfList: endOfList) {
              .streamPlacement(
                stream: info!.pointee.index, sink: info!.pointee.sink)
            }
          }, userdata)
      }
    ]
    for target in targets {
      starts.append { context, userdata in
        pa_context_get_sink_info_by_name(
          context, target,
          { _, info, endOfList, userdata in
            listCallback(userdata, endOfList: endOfList) {
              .index(info!.pointee.index)
            }
          }, userdata)
      }
    }
    let results = await performMany(timeout: timeout, starts)
    var sinkOfStream: [UInt32: UInt32] = [:]
    if case .success(let items) = results[0] {
      for case .streamPlacement(let stream, let sink) in items {
        sinkOfStream[stream] = sink
      }
    }
    var indexOfTarget: [String: UInt32] = [:]
    for (target, result) in zip(targets, results.dropFirst()) {
      if case .success(let items) = result,
        case .index(let index)? = items.first
      {
        indexOfTarget[target] = index
      }
    }
    return Set(
      moves.indices.filter { position in
        let move = moves[position]
        guard let target = indexOfTarget[move.sink] else { return false }
        return sinkOfStream[move.sinkInput] == target
      })
  }

  /// Sends every operation of a batch in one pipelined round.
  private func applyInOneRound(
    _ batch: PulseBatch, timeout: Duration
  ) async -> PulseBatchResult {
    let results = await performMany(
      timeout: timeout, Self.starts(of: batch)
    ).map { result in
      result.map { _ in () }
    }
    let movesStart = results.count - batch.moves.count
    return PulseBatchResult(
      cardProfiles: Array(results[..<batch.cardProfiles.count]),
      defaultSink: batch.defaultSink == nil ? nil : results[movesStart - 1],
      moves: Array(results[movesStart...]))
  }

  private typealias Start = (OpaquePointer, UnsafeMutableRawPointer) ->
    OpaquePointer?

  /// The libpulse calls that send a batch's operations, in its order.
  private static func starts(of batch: PulseBatch) -> [Start] {
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
    return starts
  }
}
