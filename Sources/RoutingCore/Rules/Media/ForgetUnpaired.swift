// Media rule `forget-unpaired`: nothing will put an unpaired accessory
// back on.

extension MediaRun {
  /// Rule `forget-unpaired`: forget what was paused for an accessory that
  /// is unpaired, and unmute what was muted for it.
  mutating func unpaired(_ address: String) {
    let pausing = memory.pausing.removeValue(forKey: address)
    let pause = memory.pauses.removeValue(forKey: address)
    let absence = memory.absences.removeValue(forKey: address)
    // The streams of an output gone for good are muted while its players
    // pause; the players' answer will find nothing to record.
    let pausingMuted =
      pausing?.cause == .disconnected ? pausing?.streams ?? [] : []
    unmute(
      (pause?.muted ?? []).union(absence?.streams ?? []).union(pausingMuted),
      address, reason: "the accessory was unpaired")
  }
}
