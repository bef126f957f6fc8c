// Turning libpulse's structs into the package's Swift values. Each runs in
// a callback, while the C data is valid.

internal import CPulse
import SoundServerModel

/// Returns a C string as a Swift string, or nil for NULL.
func cString(_ text: UnsafePointer<CChar>?) -> String? {
  text.map { String(cString: $0) }
}

/// Returns an index, or nil for `PA_INVALID_INDEX`.
func optionalIndex(_ value: UInt32) -> UInt32? {
  value == UInt32.max ? nil : value
}

/// Returns every text property of a property list; binary values are left
/// out.
///
/// The corresponding C functions are `pa_proplist_iterate` and
/// `pa_proplist_gets`.
func textProperties(_ list: OpaquePointer?) -> [String: String] {
  guard let list else { return [:] }
  var result: [String: String] = [:]
  var state: UnsafeMutableRawPointer? = nil
  while let key = pa_proplist_iterate(list, &state) {
    if let value = pa_proplist_gets(list, key) {
      result[String(cString: key)] = String(cString: value)
    }
  }
  return result
}

/// The fields a sink's and a source's port share in libpulse.
protocol PortInfo {
  var name: UnsafePointer<CChar>! { get }
  var description: UnsafePointer<CChar>! { get }
  var priority: UInt32 { get }
  var available: Int32 { get }
  var type: UInt32 { get }
}

extension pa_sink_port_info: PortInfo {}
extension pa_source_port_info: PortInfo {}

/// Returns the ports of a sink or a source; missing entries are skipped.
func portList<Info: PortInfo>(
  _ ports: UnsafeMutablePointer<UnsafeMutablePointer<Info>?>?, count: UInt32
) -> [SinkPort] {
  (0..<Int(count)).compactMap { position in
    ports?[position].map { pointer in
      let port = pointer.pointee
      return SinkPort(
        name: cString(port.name) ?? "",
        description: cString(port.description) ?? "",
        priority: port.priority,
        availability: PortAvailability(rawValue: port.available),
        kind: PortKind(rawValue: port.type))
    }
  }
}

extension ServerInfo {
  init(_ info: UnsafePointer<pa_server_info>) {
    let i = info.pointee
    self.init(
      serverName: cString(i.server_name) ?? "",
      serverVersion: cString(i.server_version) ?? "",
      defaultSinkName: cString(i.default_sink_name),
      defaultSourceName: cString(i.default_source_name),
      hostName: cString(i.host_name) ?? "",
      userName: cString(i.user_name) ?? "",
      cookie: i.cookie
    )
  }
}

extension Sink {
  init(_ info: UnsafePointer<pa_sink_info>) {
    let i = info.pointee
    self.init(
      index: i.index,
      name: cString(i.name) ?? "",
      description: cString(i.description) ?? "",
      properties: textProperties(i.proplist),
      ports: portList(i.ports, count: i.n_ports),
      activePortName: cString(i.active_port?.pointee.name),
      state: SinkState(rawValue: i.state.rawValue),
      isMuted: i.mute != 0,
      cardIndex: optionalIndex(i.card),
      ownerModuleIndex: optionalIndex(i.owner_module),
      driver: cString(i.driver)
    )
  }
}

extension Source {
  init(_ info: UnsafePointer<pa_source_info>) {
    let i = info.pointee
    self.init(
      index: i.index,
      name: cString(i.name) ?? "",
      description: cString(i.description) ?? "",
      properties: textProperties(i.proplist),
      ports: portList(i.ports, count: i.n_ports),
      activePortName: cString(i.active_port?.pointee.name),
      isMuted: i.mute != 0,
      monitorOfSinkIndex: optionalIndex(i.monitor_of_sink),
      cardIndex: optionalIndex(i.card),
      ownerModuleIndex: optionalIndex(i.owner_module),
      driver: cString(i.driver)
    )
  }
}

extension SourceOutput {
  init(_ info: UnsafePointer<pa_source_output_info>) {
    let i = info.pointee
    self.init(
      index: i.index,
      name: cString(i.name),
      sourceIndex: i.source,
      clientIndex: optionalIndex(i.client),
      properties: textProperties(i.proplist),
      isCorked: i.corked != 0,
      isMuted: i.mute != 0,
      resampleMethod: cString(i.resample_method),
      ownerModuleIndex: optionalIndex(i.owner_module)
    )
  }
}

extension SinkInput {
  init(_ info: UnsafePointer<pa_sink_input_info>) {
    let i = info.pointee
    self.init(
      index: i.index,
      name: cString(i.name),
      sinkIndex: i.sink,
      clientIndex: optionalIndex(i.client),
      clientName: nil,
      properties: textProperties(i.proplist),
      isCorked: i.corked != 0,
      isMuted: i.mute != 0,
      ownerModuleIndex: optionalIndex(i.owner_module)
    )
  }
}

extension Card {
  init(_ info: UnsafePointer<pa_card_info>) {
    let i = info.pointee
    var profiles: [CardProfile] = []
    for position in 0..<Int(i.n_profiles) {
      guard let profile = i.profiles2?[position]?.pointee else { continue }
      profiles.append(
        CardProfile(
          name: cString(profile.name) ?? "",
          description: cString(profile.description) ?? "",
          sinkCount: profile.n_sinks,
          sourceCount: profile.n_sources,
          priority: profile.priority,
          isAvailable: profile.available != 0))
    }
    self.init(
      index: i.index,
      name: cString(i.name) ?? "",
      driver: cString(i.driver),
      properties: textProperties(i.proplist),
      profiles: profiles,
      activeProfileName: cString(i.active_profile2?.pointee.name),
      ownerModuleIndex: optionalIndex(i.owner_module)
    )
  }
}
