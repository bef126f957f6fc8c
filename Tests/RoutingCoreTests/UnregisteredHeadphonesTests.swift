// The router's bookkeeping of headphones nobody registered: which take
// part in routing, since when they are connected, and how a profile
// switch, a disconnect and a registration change that.

import RoutingCore
import SoundServerModel
import Testing

private func headset(_ index: UInt32, _ name: String, _ address: String) -> Sink
{
  Sink(
    index: index, name: name, description: "Headset",
    properties: [
      "api.bluez5.address": address, "device.bus": "bluetooth",
      "device.form_factor": "headset",
    ], ports: [], activePortName: nil, state: .running, isMuted: false,
    cardIndex: nil, ownerModuleIndex: nil, driver: nil)
}

private func card(_ name: String, jackPlugged: Bool) -> Sink {
  Sink(
    index: 9, name: name, description: "Built-in Audio", properties: [:],
    ports: [
      SinkPort(
        name: "analog-output-speaker", description: "Speakers", priority: 100,
        availability: .unknown, kind: .speaker),
      SinkPort(
        name: "analog-output-headphones", description: "Headphones",
        priority: 90, availability: jackPlugged ? .available : .unavailable,
        kind: .headphones),
    ],
    activePortName: jackPlugged
      ? "analog-output-headphones" : "analog-output-speaker",
    state: .running, isMuted: false, cardIndex: nil, ownerModuleIndex: nil,
    driver: nil)
}

@Suite("Headphones nobody registered")
struct UnregisteredHeadphonesTests {
  let address = "AA:BB:CC:DD:EE:07"

  @Test(
    "There before the first look: only the default then takes part, as connected long ago"
  )
  func firstLook() {
    var known = UnregisteredHeadphones()
    known.note(
      sinks: [headset(1, "a2dp", address), card("laptop", jackPlugged: true)],
      registered: [], defaultOutput: "laptop", isFirstLook: true,
      reappearGrace: 5, now: 100)
    #expect(known.accessories.map(\.address) == ["jack:laptop"])
    #expect(known.accessories.first?.connectionChangedAt == 0)
    #expect(known.accessories.first?.isRegistered == false)
    #expect(known.accessories.first?.reportsPlacement == false)
    #expect(!known.takesPart(address))
    // Made the default later (by the person, or the server's fallback),
    // it is still a plain output: the person's choice is kept as such.
    known.note(
      sinks: [headset(1, "a2dp", address)], registered: [],
      defaultOutput: "a2dp", isFirstLook: false, reappearGrace: 5, now: 110)
    #expect(!known.takesPart(address))
  }

  @Test(
    "Connected while watched: takes part from then; a flip keeps the time, a disconnect ends it"
  )
  func connectFlipDisconnect() {
    var known = UnregisteredHeadphones()
    known.note(
      sinks: [], registered: [], defaultOutput: nil, isFirstLook: true,
      reappearGrace: 5, now: 100)
    known.note(
      sinks: [headset(1, "a2dp", address)], registered: [],
      defaultOutput: nil, isFirstLook: false, reappearGrace: 5, now: 101)
    #expect(known.entries[address]?.connectedAt == 101)
    #expect(known.takesPart(address))
    // The profile switch: gone, and back under another name in time.
    known.note(
      sinks: [], registered: [], defaultOutput: nil, isFirstLook: false,
      reappearGrace: 5, now: 110)
    #expect(known.accessories.first?.outputMissingSince == 110)
    known.note(
      sinks: [headset(2, "hfp", address)], registered: [],
      defaultOutput: nil, isFirstLook: false, reappearGrace: 5, now: 111)
    #expect(known.entries[address]?.connectedAt == 101)
    #expect(known.entries[address]?.missingSince == nil)
    // Gone for longer than the grace time: forgotten.
    known.note(
      sinks: [], registered: [], defaultOutput: nil, isFirstLook: false,
      reappearGrace: 5, now: 120)
    known.note(
      sinks: [], registered: [], defaultOutput: nil, isFirstLook: false,
      reappearGrace: 5, now: 125)
    #expect(known.entries.isEmpty)
  }

  @Test(
    "A registered accessory is not among them; one unregistered while there did not just connect"
  )
  func registration() {
    var known = UnregisteredHeadphones()
    known.note(
      sinks: [], registered: [], defaultOutput: nil, isFirstLook: true,
      reappearGrace: 5, now: 100)
    known.note(
      sinks: [headset(1, "a2dp", address)], registered: [address],
      defaultOutput: nil, isFirstLook: false, reappearGrace: 5, now: 101)
    #expect(known.entries.isEmpty)
    known.note(
      sinks: [headset(1, "a2dp", address)], registered: [],
      defaultOutput: nil, isFirstLook: false, reappearGrace: 5, now: 102)
    #expect(!known.takesPart(address))
    #expect(known.entries[address]?.connectedAt == 0)
  }

  @Test(
    "A jack pulled is gone; plugged back after the grace time, it connects anew"
  )
  func jack() {
    var known = UnregisteredHeadphones()
    known.note(
      sinks: [card("laptop", jackPlugged: true)], registered: [],
      defaultOutput: "laptop", isFirstLook: true, reappearGrace: 5, now: 100)
    known.note(
      sinks: [card("laptop", jackPlugged: false)], registered: [],
      defaultOutput: "laptop", isFirstLook: false, reappearGrace: 5, now: 101)
    #expect(known.entries["jack:laptop"]?.missingSince == 101)
    known.note(
      sinks: [card("laptop", jackPlugged: true)], registered: [],
      defaultOutput: "laptop", isFirstLook: false, reappearGrace: 5, now: 107)
    #expect(known.entries["jack:laptop"]?.connectedAt == 107)
    #expect(known.entries["jack:laptop"]?.missingSince == nil)
  }
}

extension UnregisteredHeadphonesTests {
  @Test(
    "An output known as headphones only once BlueZ's class comes did not just connect"
  )
  func classLearnedLater() {
    var unclassified = headset(1, "a2dp", address)
    unclassified.properties["device.form_factor"] = "unknown"
    var known = UnregisteredHeadphones()
    known.note(
      sinks: [unclassified], registered: [], defaultOutput: nil,
      isFirstLook: true, reappearGrace: 5, now: 100)
    #expect(known.entries.isEmpty)
    known.note(
      sinks: [unclassified], registered: [], byBlueZ: [address],
      defaultOutput: nil, isFirstLook: false, reappearGrace: 5, now: 101)
    #expect(!known.takesPart(address))
    #expect(known.entries[address]?.connectedAt == 0)
  }
}
