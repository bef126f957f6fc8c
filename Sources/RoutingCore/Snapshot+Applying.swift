// The state a decision produces, for checking decisions against themselves
// (idempotence) and for simulating a sequence of changes.

extension Snapshot {
  /// Returns the snapshot as it is after the decision is applied.
  ///
  /// The default becomes the target (the old default goes to the front of
  /// the history), the streams are moved, and requested card profiles
  /// become active. Outputs that a profile would create are not invented.
  ///
  /// - Parameter decision: A decision made on this snapshot.
  public func applying(_ decision: Decision) -> Snapshot {
    var result = self
    if let change = decision.defaultChange {
      if let old = defaultOutput, old != change {
        result.outputHistory.removeAll { $0 == old || $0 == change }
        result.outputHistory.insert(old, at: 0)
      }
      result.defaultOutput = change
    }
    let destinations = Dictionary(
      decision.moves.map { ($0.stream, $0.to) }, uniquingKeysWith: { $1 })
    for index in result.streams.indices {
      if let destination = destinations[result.streams[index].id] {
        result.streams[index].output = destination
      }
    }
    for request in decision.profileRequests {
      for index in result.cards.indices
      where result.cards[index].name == request.card {
        result.cards[index].activeProfile = request.profile
      }
    }
    return result
  }
}
