// Rule `hold`: nothing switches while an accessory is within a grace time.

extension DecisionRun {
  /// Rule `hold`: do nothing while an accessory is within a grace time, so
  /// that quick changes do not flap the output.
  ///
  /// The accessory that has the output keeps it through its off-head grace
  /// time unless another accessory was put on after it was taken off (a
  /// real handover). An accessory whose output is coming back holds only
  /// when no accessory won.
  mutating func holdForGrace(
    _ statuses: [AccessoryStatus], winnerSince: Instant?
  ) -> (() -> String)? {
    var reasons: [() -> String] = []
    let defaultOwner = snapshot.defaultOutput.flatMap { outputIndex[$0] }
      .flatMap { owner[$0] }
    for (position, status) in statuses.enumerated() {
      let name = accessories[position].accessory.name
      switch status {
      case .waitingForOutput(let until, _, _) where winnerSince == nil:
        remind(at: until)
        let remaining = until - snapshot.now
        reasons.append {
          "\(name)'s output is expected back within "
            + "\(formatSeconds(remaining)) s"
        }
      case .takenOff(let at) where defaultOwner == position:
        if let winnerSince, winnerSince > at { continue }
        // Only an accessory that was worn is expected back: one reported
        // off from the start hands the output back at once.
        guard accessories[position].accessory.reportedWorn else { continue }
        let grace = policy.offHeadGraceSeconds
        if snapshot.now < at + grace {
          remind(at: at + grace)
          let when = ago(at)
          reasons.append {
            "\(name) was taken off \(when); the output stays for the "
              + "\(formatSeconds(grace)) s grace time in case it is put back on"
          }
        } else if policy.whenTakenOff == .stay, winnerSince == nil {
          reasons.append {
            "\(name) was taken off, and the policy leaves the output where "
              + "it is"
          }
        }
      default:
        continue
      }
    }
    guard !reasons.isEmpty else { return nil }
    let reason = { reasons.map { $0() }.joined(separator: "; ") }
    if explaining { step("hold", reason()) }
    return reason
  }
}
