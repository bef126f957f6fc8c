// Rule `accessories.eligibility`: which accessories (registered ones, and
// headphones nobody registered) may take the output, and multipoint:
// whether this host is the accessory's.

extension DecisionRun {
  /// Rule `accessories.eligibility`: which accessories may take the output
  /// now, and since when.
  mutating func checkAccessories() -> [AccessoryStatus] {
    let statuses = accessories.indices.map { eligibility(of: $0) }
    for case .awaitingFirstReport(let until, _) in statuses {
      remind(at: until)
    }
    guard explaining else { return statuses }
    var candidates: [Explanation.Candidate] = []
    for (position, entry) in accessories.enumerated() {
      let status = statuses[position]
      candidates.append(
        .init(
          subject: entry.accessory.isRegistered
            ? "\(entry.accessory.name) (\(entry.address))"
            : "\(entry.accessory.name) (\(entry.address), not registered)",
          verdict: verdict(of: status), reason: describe(status)))
    }
    let eligible = statuses.filter(\.isEligible).count
    let unregistered = accessories.count { !$0.accessory.isRegistered }
    step(
      "accessories.eligibility",
      unregistered == 0
        ? "\(eligible) of \(accessories.count) registered accessories may "
          + "take the output"
        : "\(eligible) of \(accessories.count) accessories may take the "
          + "output (\(unregistered) of them headphones nobody registered)",
      candidates)
    return statuses
  }

  func eligibility(of index: Int) -> AccessoryStatus {
    let accessory = accessories[index].accessory
    // An accessory that is off the head must not play, whatever else holds.
    if accessory.reportsPlacement, accessory.placement == .offHead {
      return .takenOff(at: accessory.placementChangedAt)
    }
    guard accessory.audioSwitching else { return .leftAlone(.noAudioSwitching) }
    if policy.requirePlacement, !accessory.reportsPlacement {
      return .leftAlone(.placementRequired)
    }
    if let refusal = multipointRefusal(accessory) {
      return .ineligible(refusal)
    }
    if let awaiting = awaitingFirstReport(accessory) { return awaiting }
    var since = accessory.connectionChangedAt
    let basis: Basis
    if accessory.reportsPlacement {
      if let placement = accessory.placement {
        since = max(since, accessory.placementChangedAt)
        basis = .worn(placement)
      } else {
        guard policy.eligibleWhenPlacementUnknown else {
          return .leftAlone(.placementUnknown)
        }
        basis = .placementUnknown
      }
    } else {
      basis = .connected
    }
    let owned = outputsOfAccessory[index]
    if let output = owned.first(where: { usable[$0] }) {
      return .eligible(output: output, since: since, basis: basis)
    }
    if let first = owned.first {
      return .ineligible(.outputUnavailable(outputs[first].name))
    }
    if let missing = accessory.outputMissingSince,
      snapshot.now - missing < policy.reappearGraceSeconds
    {
      return .waitingForOutput(
        until: missing + policy.reappearGraceSeconds, since: since,
        basis: basis)
    }
    if let card = cardOfAccessory[index], let profile = outputProfile(for: card)
    {
      return .needsProfile(
        card: card.name, profile: profile, since: since, basis: basis)
    }
    return .ineligible(.notConnected)
  }

  /// Returns why multipoint rules keep an accessory from this host, or nil
  /// when it is this host's to use.
  func multipointRefusal(
    _ accessory: Accessory
  ) -> AccessoryStatus.IneligibleReason? {
    var primary = accessory.primarySource.map(normalizedAddress)
    var secondary = accessory.secondarySource.map(normalizedAddress)
    if primary == nil, secondary == nil { return nil }
    // The primary cleared while a secondary stays (the primary host
    // dropped off a multipoint headset): the remaining host is the one
    // connected, as a primary is.
    if primary == nil {
      primary = secondary
      secondary = nil
    }
    if hostAddresses.isEmpty { return nil }
    if let primary, hostAddresses.contains(primary) { return nil }
    if let secondary, hostAddresses.contains(secondary) {
      if policy.takeWhenSecondarySource { return nil }
      return .secondarySourceOnly(primary: primary)
    }
    return .otherHosts(primary, secondary)
  }
}
