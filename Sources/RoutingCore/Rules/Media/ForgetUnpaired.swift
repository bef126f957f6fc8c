// Media rule `forget-unpaired`: nothing will put an unpaired accessory
// back on.

extension MediaRun {
  /// Rule `forget-unpaired`: forget what was paused for an accessory that
  /// is unpaired, and unmute what was muted for it.
  mutating func unpaired(_ address: String) {
    memory.pausing[address] = nil
    let pause = memory.pauses.removeValue(forKey: address)
    let absence = memory.absences.removeValue(forKey: address)
    unmute(
      (pause?.muted ?? []).union(absence?.streams ?? []), address,
      reason: "the accessory was unpaired")
  }
}
