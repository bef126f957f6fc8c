// What every link to headphones does the same: send the opening, read the
// socket on a thread of its own, turn what comes into reports with the
// protocol's session, and say once if the headphones stay silent.

import AccessoryControl
import ConcurrencyHelpers
import HeadphoneProtocols

/// The reading loop of a link, whatever the protocol.
enum LinkReader {
  /// What one read gave: events, and why some bytes were skipped.
  typealias Step = (events: [HeadphoneEvent], skipped: [String])

  /// Sends the opening and reads the socket until it ends or the stream's
  /// consumer stops reading.
  ///
  /// - Parameters:
  ///   - socket: The connected socket.
  ///   - threadName: The reading thread's name.
  ///   - capacity: The most bytes one receive takes.
  ///   - opening: The packets to send first.
  ///   - silence: How long the headphones may stay silent, and what to say
  ///     then; nil never says.
  ///   - read: The protocol's session, taking what one receive gave.
  /// - Returns: The reports, ending with ``LinkReport/ended(_:)``.
  static func run(
    on socket: HeadphoneSocket, threadName: String, capacity: Int,
    opening: [[UInt8]], silence: (timeout: Duration, message: String)?,
    read: @escaping @Sendable () -> (([UInt8]) -> Step)
  ) -> AsyncStream<LinkReport> {
    let (reports, continuation) = AsyncStream.makeStream(of: LinkReport.self)
    let answered = Atomic<Bool>(false)
    var waiting: Task<Void, Never>?
    if let (timeout, message) = silence {
      waiting = Task {
        try? await Task.sleep(for: timeout)
        if !Task.isCancelled, !answered.load(ordering: .acquiring) {
          continuation.yield(.noAnswer(message))
        }
      }
    }
    let silenceWait = waiting
    continuation.onTermination = { _ in
      silenceWait?.cancel()
      socket.shutDown()
    }
    startThread(named: threadName) {
      let session = read()
      do throws(LinkError) {
        for packet in opening { try socket.send(packet) }
        while let bytes = try socket.receive(capacity: capacity) {
          answered.store(true, ordering: .releasing)
          let step = session(bytes)
          for reason in step.skipped { continuation.yield(.skipped(reason)) }
          for event in step.events { continuation.yield(.event(event)) }
        }
        continuation.yield(.ended(nil))
      } catch {
        continuation.yield(.ended(error))
      }
      silenceWait?.cancel()
      continuation.finish()
    }
    return reports
  }
}
