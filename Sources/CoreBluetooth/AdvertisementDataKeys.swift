// CoreBluetooth's advertisement data keys, with Apple's values, for
// ASDiscoveredAccessory.bluetoothAdvertisementData.

/// The key of the advertised local name (a `String`).
public let CBAdvertisementDataLocalNameKey = "kCBAdvDataLocalName"
/// The key of the advertised service UUIDs (`[CBUUID]`).
public let CBAdvertisementDataServiceUUIDsKey = "kCBAdvDataServiceUUIDs"
/// The key of the manufacturer data (`Data`: the company identifier, little
/// endian, then the payload).
public let CBAdvertisementDataManufacturerDataKey = "kCBAdvDataManufacturerData"
/// The key of the service data (`[CBUUID: Data]`).
public let CBAdvertisementDataServiceDataKey = "kCBAdvDataServiceData"
