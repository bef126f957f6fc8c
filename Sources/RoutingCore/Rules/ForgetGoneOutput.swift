// Rule `forget-gone`: the server forgets an accessory's output that went.

extension DecisionRun {
  /// Rule `forget-gone`: set the default the server shows again, when the
  /// server still keeps an accessory's output that went as its configured
  /// default.
  ///
  /// When the default stays where the server put it after an accessory's
  /// output went, the server would make that output the default again by
  /// itself the moment it comes back, before this engine has decided (for
  /// headphones that come back off the head, or no longer registered).
  /// Setting the default the server shows again replaces the configured
  /// one, so that only this engine switches to the accessory.
  ///
  /// Clearing the configured default instead (`@NONE@`, which PulseAudio
  /// 17 accepts) would not do: without one, the server takes the output
  /// of the highest priority, and Bluetooth headphones outrank a built-in
  /// speaker.
  ///
  /// - Parameter target: The output the decision keeps or sets.
  /// - Returns: Whether the service should set the target again.
  mutating func forgetGoneOutput(target: Int?) -> Bool {
    guard let gone = snapshot.goneConfiguredOutput,
      outputIndex[gone.name] == nil,
      let address = gone.accessory.map(normalizedAddress),
      accessories.contains(where: { $0.address == address })
    else { return false }
    guard let target, outputs[target].name == snapshot.defaultOutput else {
      // A new default replaces the configured one by itself; without a
      // target, nothing is decided yet (a grace time holds).
      return false
    }
    if explaining {
      step(
        "forget-gone",
        "set \(label(target)) as the default again, so that the server "
          + "forgets \(gone.name), which it keeps as its configured default "
          + "and would switch to by itself when it comes back",
        [.init(subject: gone.name, verdict: .rejected, reason: "gone")])
    }
    return true
  }
}
