/// A sound server implementation that a test can run privately.
///
/// Both kinds speak the PulseAudio native protocol, so the same client code
/// (and `pactl`) talks to either of them.
public enum SoundServerKind: String, CaseIterable, Sendable,
  CustomStringConvertible
{
  /// The PulseAudio daemon, configured through a generated `default.pa`.
  case pulseAudio

  /// PipeWire with WirePlumber and the `pipewire-pulse` compatibility server.
  case pipeWire

  /// The product name of the server, such as "PulseAudio".
  public var description: String {
    switch self {
    case .pulseAudio: "PulseAudio"
    case .pipeWire: "PipeWire"
    }
  }

  /// The `device.api` value real Bluetooth outputs carry on this server.
  ///
  /// PulseAudio's bluez modules report `bluez`; PipeWire's bluez5 SPA plugin
  /// reports `bluez5`.
  public var bluetoothDeviceAPI: String {
    switch self {
    case .pulseAudio: "bluez"
    case .pipeWire: "bluez5"
    }
  }
}
