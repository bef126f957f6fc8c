// Media rule `take-over`: streams an earlier daemon left muted are kept
// muted under these rules, or given back.

extension MediaRun {
  /// Rule `take-over`: of the streams a daemon that died left muted,
  /// those the rules would keep muted now stay so (an accessory off the
  /// head, an output expected back), and the next state settles them; the
  /// others (gone, unmuted meanwhile, corked, or of an accessory no longer
  /// registered) are given back at once.
  mutating func takeOver(_ leftOver: [UInt32: String]) {
    guard let server = view.server else { return }
    var giveBack: [String: Set<UInt32>] = [:]
    for (stream, address) in leftOver.sorted(by: { $0.key < $1.key }) {
      guard let input = server.stream(stream), input.isMuted else { continue }
      // The link muted only guarded outputs' streams: a registered
      // accessory's, or, as the policy says, any headphones'.
      let guarded =
        view.registered.contains(address) || policy.guardUnregisteredHeadphones
      if !guarded || input.isCorked {
        giveBack[address, default: []].insert(stream)
      } else if isOffHead(address) {
        // Taken off: silent until it is put back on, as before.
        memory.pauses[address, default: .init(players: [:], at: now)].muted
          .insert(stream)
      } else {
        // Its output went away: muted while it is expected back.
        startAbsence(of: address)
        memory.absences[address]?.streams.insert(stream)
        memory.absences[address]?.played.insert(stream)
      }
    }
    for (address, streams) in giveBack.sorted(by: { $0.key < $1.key }) {
      unmute(
        streams, address,
        reason: "an earlier accessoryd left them muted, and nothing keeps "
          + "them muted now")
    }
  }
}
