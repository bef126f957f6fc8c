// The links to headphones, one per protocol, on LinkReader's loop: AAP on
// L2CAP (the opening sent, the two-second wait for the first word), and
// the Galaxy Buds' frames on RFCOMM.

import AccessoryControl
import HeadphoneProtocols

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
  ///     ``HeadphoneSocket/pair()``.
  ///   - answerTimeout: How long the headphones may stay silent before
  ///     ``LinkReport/noAnswer(_:)``.
  /// - Returns: The reports, ending with ``LinkReport/ended(_:)``.
  public static func run(
    on socket: HeadphoneSocket,
    answerTimeout: Duration = AAPSession.answerTimeout
  ) -> AsyncStream<LinkReport> {
    LinkReader.run(
      on: socket, threadName: "aap.link", capacity: AAP.receiveBufferSize,
      opening: AAP.opening,
      silence: (answerTimeout, AAPSession.noAnswerMessage)
    ) {
      var session = AAPSession()
      return { packet in
        switch session.receive(packet) {
        case .success(let events): (events, [])
        case .failure(let error): ([], [error.description])
        }
      }
    }
  }
}

/// Runs the Galaxy Buds' protocol on a connected RFCOMM socket.
public enum GalaxyBudsLink {
  /// Reads the buds until the socket ends or the stream's consumer stops
  /// reading.
  ///
  /// The host sends nothing: the buds send their full status as the link
  /// opens, and an update at each change.
  ///
  /// - Parameters:
  ///   - socket: The RFCOMM socket BlueZ handed over
  ///     (``HeadphoneSocket/init(adopting:)``), or one end of
  ///     ``HeadphoneSocket/pair(streaming:)``.
  ///   - model: The buds' model, which decides the framing and layouts.
  /// - Returns: The reports, ending with ``LinkReport/ended(_:)``.
  public static func run(
    on socket: HeadphoneSocket, model: GalaxyBudsModel
  ) -> AsyncStream<LinkReport> {
    LinkReader.run(
      on: socket, threadName: "galaxy-buds.link",
      capacity: GalaxyBudsFrameReader.bufferLimit, opening: [], silence: nil
    ) {
      var session = GalaxyBudsSession(model: model)
      return { bytes in
        let step = session.receive(bytes)
        return (step.events, step.skipped)
      }
    }
  }
}
