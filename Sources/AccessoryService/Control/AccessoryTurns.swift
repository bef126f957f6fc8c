// Changes to one accessory take turns: a change that waits for the media
// players (the pause before taking off) must not be overtaken by a later
// change to the same accessory from another connection.

import AccessorySetupKit

/// Hands out turns per accessory, in the order they are asked for.
actor AccessoryTurns {
  private var busy: Set<BluetoothAddress> = []
  private var waiting: [BluetoothAddress: [CheckedContinuation<Void, Never>]] =
    [:]

  /// Runs `body` once every earlier turn of the accessory has ended.
  func take<Result: Sendable>(
    _ address: BluetoothAddress,
    _ body: () async throws -> Result
  ) async throws -> Result {
    await begin(address)
    do {
      let result = try await body()
      end(address)
      return result
    } catch {
      end(address)
      throw error
    }
  }

  private func begin(_ address: BluetoothAddress) async {
    guard busy.insert(address).inserted else {
      await withCheckedContinuation { waiting[address, default: []].append($0) }
      return
    }
  }

  /// Hands the turn to the next in line, or frees it.
  private func end(_ address: BluetoothAddress) {
    guard var queue = waiting[address], !queue.isEmpty else {
      busy.remove(address)
      return
    }
    let next = queue.removeFirst()
    waiting[address] = queue.isEmpty ? nil : queue
    next.resume()
  }
}
