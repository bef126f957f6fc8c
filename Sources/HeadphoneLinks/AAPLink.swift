// One AAP session on a socket: the opening sent, every packet read on a
// thread of its own and turned into reports, and the two-second wait for
// the headphones' first word.

import AccessoryControl
import HeadphoneProtocols
import Synchronization

/// What a link to headphones reports.
public enum LinkReport: Sendable, Hashable {
  /// The headphones said something new.
  case event(HeadphoneEvent)
  /// A packet that could not be read, skipped; for the debug log.
  case skipped(String)
  /// The headphones said nothing within the wait: why, for people.
  case noAnswer(String)
  /// The link ended: the other side closed, or it failed.
  case ended(LinkError?)
}

/// Runs AAP on a connected packet socket.
public enum AAPLink {
  /// Sends the opening and reads the headphones until the socket ends or
  /// the stream's consumer stops reading.
  ///
  /// - Parameters:
  ///   - socket: A connected socket: L2CAP on ``AAP/psm``, or one end of
  ///     ``PacketSocket/pair()``.
  ///   - answerTimeout: How long the headphones may stay silent before
  ///     ``LinkReport/noAnswer(_:)``.
  /// - Returns: The reports, ending with ``LinkReport/ended(_:)``.
  public static func run(
    on socket: PacketSocket,
    answerTimeout: Duration = AAPSession.answerTimeout
  ) -> AsyncStream<LinkReport> {
    let (reports, continuation) = AsyncStream.makeStream(of: LinkReport.self)
    let answered = Atomic<Bool>(false)
    let waiting = Task {
      try? await Task.sleep(for: answerTimeout)
      if !Task.isCancelled, !answered.load(ordering: .acquiring) {
        continuation.yield(.noAnswer(AAPSession.noAnswerMessage))
      }
    }
    continuation.onTermination = { _ in
      waiting.cancel()
      socket.shutDown()
    }
    startThread(named: "aap.link") {
      var session = AAPSession()
      do throws(LinkError) {
        for packet in session.opening { try socket.send(packet) }
        while let packet = try socket.receive(capacity: AAP.receiveBufferSize) {
          answered.store(true, ordering: .releasing)
          switch session.receive(packet) {
          case .success(let events):
            for event in events { continuation.yield(.event(event)) }
          case .failure(let error):
            continuation.yield(.skipped(error.description))
          }
        }
        continuation.yield(.ended(nil))
      } catch {
        continuation.yield(.ended(error))
      }
      waiting.cancel()
      continuation.finish()
    }
    return reports
  }
}
