// Feeds the router what BlueZ's device classes say: which Bluetooth
// devices are headphones or a headset, for outputs whose properties do
// not say.

import DaemonInputs
import DaemonLifecycle

/// The service that tells the router, whenever BlueZ's devices change,
/// which of them BlueZ's class calls headphones
/// (``EngineLoop/useBlueZDevices(_:)``).
///
/// It follows ``DeviceDiscovery/sourceUpdates()``, which makes no source
/// scan.
public struct BlueZHeadphoneFeed: Service {
  /// The service's name.
  public let name = "headphone-classes"
  private let discovery: DeviceDiscovery
  private let router: EngineLoop

  /// Creates the service.
  ///
  /// - Parameters:
  ///   - discovery: The devices the discovery sources see.
  ///   - router: The router to tell.
  public init(discovery: DeviceDiscovery, router: EngineLoop) {
    self.discovery = discovery
    self.router = router
  }

  /// Follows BlueZ's devices until cancelled.
  public func run() async throws {
    let updates = discovery.sourceUpdates()
    await router.useBlueZDevices(await discovery.devices(seenBy: .bluez))
    for await source in updates where source == .bluez {
      await router.useBlueZDevices(await discovery.devices(seenBy: .bluez))
    }
  }
}
