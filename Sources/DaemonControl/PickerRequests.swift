// The picker an app asked for with ASAccessorySession.showPicker(for:),
// waiting for a person to answer it with `acctl pair`.

import AccessoryControl
import AccessoryEngine
import AccessorySetupKit
import ConcurrencyHelpers
import DaemonInputs
import DaemonLifecycle
import HeadphoneReaders

/// The open picker request, if any: at most one at a time, as on Apple's
/// platforms.
public final class PickerRequests: Sendable {
  /// An open request.
  struct Request: Sendable {
    /// Its identifier, as the app and `acctl pair` name it.
    let id: String
    /// The items that discover accessories.
    let items: [PickerItem]
    /// The migration items.
    let migrationItems: [PickerItem]
    /// The app session that showed it, if it named itself.
    let session: String?
    /// Whether the app filters what discovery finds
    /// (`filterDiscoveryResults`): the picker then offers only ``offered``.
    let filtersDiscovery: Bool
    /// The devices the app offers in that mode, with the names it gave
    /// them.
    var offered: [(address: BluetoothAddress, name: String)] = []
    /// Whether an answer is being carried out; another waits.
    var isAnswering = false
  }

  private let state = Mutex<(next: Int, open: Request?)>((1, nil))

  /// Creates an empty desk.
  public init() {}

  /// Opens a request, or returns nil if one is open already.
  func open(
    items: [PickerItem], session: String?, filtersDiscovery: Bool
  ) -> Request? {
    state.withLock { state in
      guard state.open == nil else { return nil }
      let request = Request(
        id: "\(state.next)", items: items.filter { !$0.isMigration },
        migrationItems: items.filter(\.isMigration), session: session,
        filtersDiscovery: filtersDiscovery)
      state.next += 1
      state.open = request
      return request
    }
  }

  /// The open request.
  var current: Request? { state.withLock { $0.open } }

  /// Replaces what the open request of an app session offers.
  ///
  /// - Returns: The updated request, or nil if that session has none open.
  func offer(
    _ offered: [(address: BluetoothAddress, name: String)], session: String
  ) -> Request? {
    state.withLock { state in
      guard var open = state.open, open.session == session else { return nil }
      open.offered = offered
      state.open = open
      return open
    }
  }

  /// Takes the open request with this identifier to answer it: it stays
  /// open (no other picker shows meanwhile) but no second answer is taken.
  ///
  /// - Returns: The request, or nil if it is not open or being answered.
  func beginAnswer(_ id: String) -> Request? {
    state.withLock { state in
      guard var open = state.open, open.id == id, !open.isAnswering else {
        return nil
      }
      open.isAnswering = true
      state.open = open
      return open
    }
  }

  /// Ends an answer: a failed one leaves the request open for another
  /// answer, a successful one closes it.
  ///
  /// - Returns: Whether the request was still open (it was not cancelled
  ///   meanwhile).
  func endAnswer(_ id: String, succeeded: Bool) -> Bool {
    state.withLock { state in
      guard var open = state.open, open.id == id else { return false }
      if succeeded {
        state.open = nil
      } else {
        open.isAnswering = false
        state.open = open
      }
      return true
    }
  }

  /// Closes the request with this identifier; returns it, or nil if it is
  /// not the open one.
  func close(_ id: String) -> Request? {
    state.withLock { state in
      guard let open = state.open, open.id == id else { return nil }
      state.open = nil
      return open
    }
  }
}
