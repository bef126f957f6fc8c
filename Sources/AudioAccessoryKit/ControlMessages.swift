// Linux addition: the control protocol's messages that carry a
// configuration, with this framework's configuration in them. accessoryd
// writes them, and DaemonAccessoryEngine and acctl read them.

import AccessoryControl

/// An accessory as accessoryd describes it, with its configuration.
public typealias DaemonAccessory = AccessoryRecord<
  AccessoryControlDevice.Configuration
>

/// The answer to `accessory.list`, with configurations.
public typealias DaemonAccessoryList = AccessoryList<
  AccessoryControlDevice.Configuration
>

/// One event of accessoryd's event stream, with configurations.
public typealias DaemonEvent = ControlEvent<
  AccessoryControlDevice.Configuration
>

/// The answer to `daemon.overview`, with configurations.
public typealias DaemonOverview = StatusOverview<
  AccessoryControlDevice.Configuration
>
