// Which accessories accessoryd reads itself, and the placement the buds'
// positions stand for: the pure parts of the headphone sources.

import AccessoryBackend
import AccessorySetupKit
import AudioAccessoryKit
import CoreBluetooth
import DaemonInputs
import DaemonLifecycle
import Foundation
import HeadphoneProtocols
import HeadphoneReaders
import RoutingCore
import Testing

@Suite("Headphone sources")
struct HeadphoneSourcesTests {
  typealias Placement = AccessoryControlDevice.Placement

  @Test(arguments: [
    (
      [BudPosition.inEar, .inEar], Policy.EarbudsWorn.either, false,
      Placement.inEar
    ),
    ([.inEar, .outOfEar], .either, false, .inEar),
    ([.inEar, .outOfEar], .both, false, .offHead),
    ([.inEar, .inCase], .both, false, .offHead),
    ([.inEar, .inEar], .both, false, .inEar),
    ([.outOfEar, .outOfEar], .either, false, .offHead),
    ([.inCase, .inCase], .either, false, .offHead),
    ([.inEar, .inEar], .either, true, .onHead),
    ([.outOfEar, .outOfEar], .either, true, .offHead),
  ])
  func budsStandForAPlacement(
    _ buds: [BudPosition], _ rule: Policy.EarbudsWorn, _ overEar: Bool,
    _ placement: Placement
  ) {
    #expect(
      Placement(buds: buds, wornWhen: rule, overEar: overEar) == placement)
  }

  @Test(
    "Each brand reads a protocol of its own under a placement source of its own, and every protocol has a brand"
  )
  func everyProtocolHasOneBrand() {
    let protocols = HeadphoneSources.brands.map { $0.reads }
    let sources = HeadphoneSources.brands.map { $0.placementSource }
    #expect(Set(protocols).count == protocols.count, "\(protocols)")
    #expect(Set(sources).count == sources.count, "\(sources)")
    #expect(Set(protocols) == Set(HeadphoneProtocol.allCases))
    #expect(HeadphoneSources.readProtocols == Set(protocols))
  }

  @Test func onlyConnectedPairedAccessoriesThatSpeakAAPAreRead() throws {
    let address = try #require(BluetoothAddress("AA:BB:CC:DD:EE:01"))
    let now = Date(timeIntervalSince1970: 1_000)
    var registry = AccessoryRegistry()
    let airpods = DiscoveredDevice(
      address: address, name: "AirPods Pro",
      serviceUUIDs: [CBUUID(string: AAP.serviceUUID)], isConnected: true,
      sources: [.bluez])
    // Not paired with accessoryd: not read.
    #expect(HeadphoneSources.protocolToRead(airpods, in: registry) == nil)
    try registry.pair(address, displayName: "AirPods Pro", at: now)
    #expect(HeadphoneSources.protocolToRead(airpods, in: registry) == .aap)
    // Disconnected: not read.
    var away = airpods
    away.isConnected = false
    #expect(HeadphoneSources.protocolToRead(away, in: registry) == nil)
    // Galaxy Buds are read too; headphones with no protocol it knows not.
    var buds = airpods
    buds.serviceUUIDs = [CBUUID(string: GalaxyBuds.buds2UUID)]
    buds.name = "Galaxy Buds2 Pro (DAC1)"
    #expect(
      HeadphoneSources.protocolToRead(buds, in: registry)
        == .galaxyBuds(.buds2Pro))
    var plain = airpods
    plain.serviceUUIDs = [CBUUID(string: "110B")]
    #expect(HeadphoneSources.protocolToRead(plain, in: registry) == nil)
    // A headset with a serial port, named as no Galaxy Buds are: not read.
    var headset = airpods
    headset.name = "Bose QC35 II"
    headset.serviceUUIDs = [CBUUID(string: "110B"), CBUUID(string: "1101")]
    #expect(HeadphoneSources.protocolToRead(headset, in: registry) == nil)
    // Registered with placementSource none: a companion reports.
    try registry.register(
      registry.accessory(at: address),
      AccessoryControlDevice.Configuration(deviceCapabilities: [.placement]),
      at: now, readsHeadphones: false)
    #expect(HeadphoneSources.protocolToRead(airpods, in: registry) == nil)
    // Registered again without saying: the choice stays.
    try registry.register(
      registry.accessory(at: address),
      AccessoryControlDevice.Configuration(deviceCapabilities: [.placement]),
      at: now)
    #expect(HeadphoneSources.protocolToRead(airpods, in: registry) == nil)
    try registry.register(
      registry.accessory(at: address),
      AccessoryControlDevice.Configuration(deviceCapabilities: [.placement]),
      at: now, readsHeadphones: true)
    #expect(HeadphoneSources.protocolToRead(airpods, in: registry) == .aap)
  }

  @Test func theNewestReportNamesItsSource() throws {
    let address = try #require(BluetoothAddress("AA:BB:CC:DD:EE:01"))
    let now = Date(timeIntervalSince1970: 1_000)
    var registry = AccessoryRegistry()
    try registry.pair(address, displayName: "AirPods Pro", at: now)
    let accessory = registry.accessory(at: address)
    try registry.register(
      accessory,
      AccessoryControlDevice.Configuration(
        devicePlacement: .offHead, deviceCapabilities: [.placement]),
      at: now, by: .aap)
    #expect(registry.registrations[address]?.placementSource == .aap)
    // Each report, and who should be named for it after.
    let reports: [(Placement, PlacementSource, PlacementSource)] = [
      (.inEar, .update, .update),
      // The headphones saying the same again is their report.
      (.inEar, .aap, .aap),
      // A companion's update that does not change the placement leaves it.
      (.inEar, .update, .aap),
    ]
    for (placement, source, named) in reports {
      try registry.update(
        accessory,
        AccessoryControlDevice.Configuration(
          devicePlacement: placement, deviceCapabilities: [.placement]),
        at: now, by: source)
      #expect(registry.registrations[address]?.placementSource == named)
    }
  }

  @Test func anOlderStateFileReadsAndANewerSourceIsKept() throws {
    let older = #"""
      {"address":"AA:BB:CC:DD:EE:01","configuration":{"deviceCapabilities":
      ["placement"]},"isInvalidated":false,"registeredAt":0,
      "placementChangedAt":0,"sourcesChangedAt":0}
      """#
    let registration = try JSONDecoder().decode(
      AccessoryRegistry.Registration.self, from: Data(older.utf8))
    #expect(registration.placementSource == nil)
    #expect(registration.readsHeadphones == nil)
    var newer = registration
    newer.placementSource = PlacementSource(rawValue: "someNewerSource")
    let again = try JSONDecoder().decode(
      AccessoryRegistry.Registration.self,
      from: JSONEncoder().encode(newer))
    #expect(again.placementSource?.rawValue == "someNewerSource")
  }
}
