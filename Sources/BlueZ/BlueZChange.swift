// What a BlueZ client reports as BlueZ's objects come, change and go.

/// A change to BlueZ's adapters or devices, as a ``BlueZClient`` sees it.
///
/// Device records are complete: a ``deviceChanged(_:)`` carries the whole
/// updated record, not only the properties that changed.
public enum BlueZChange: Sendable, Hashable {
  /// An adapter appeared.
  case adapterAdded(BlueZAdapter)
  /// An adapter's properties changed; the record is the updated one.
  case adapterChanged(BlueZAdapter)
  /// An adapter went away; the record is the last one seen.
  case adapterRemoved(BlueZAdapter)
  /// A device appeared, for example because discovery found it.
  case deviceAdded(BlueZDevice)
  /// A device's properties changed, such as its signal strength or its
  /// advertisement data; the record is the updated one.
  case deviceChanged(BlueZDevice)
  /// A device went away, by its address (upper case with colons).
  ///
  /// A device seen by two adapters is two objects; each one's removal is
  /// reported.
  case deviceRemoved(String)
}
