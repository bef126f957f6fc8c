// What the loop published for the queries: the route as of the end of its
// last pass (and of each state of the sound server it takes in), and the
// facts the queries read as the loop changes them: the server's state,
// this host's addresses, the last snapshot, the history of changes, what
// the media rules hold paused. The control methods read it without
// entering the loop, and the loop decides once per pass whatever they
// ask. The explanation of the decision `route --explain` shows is written
// once, by the first query that asks for it, outside the loop. A reader
// that follows the route (the desktop) is told each time the published
// output or input changes.

import AccessoryControl
import ConcurrencyHelpers
import DaemonInputs
import FoundationEssentials
import PolicyFiles
import RoutingCore
import SoundServerModel

/// What the loop published last: the route, and the decision it
/// explains.
public final class RouteBoard: Sendable {
  /// The decision `route --explain` shows, with what it was made from.
  struct Explained: Sendable {
    /// Tells this decision from the next one.
    let number: Int
    let snapshot: Snapshot
    let policy: Policy
    let decidedAt: Date
    let trigger: String
  }

  /// What the loop publishes: the report without its summary and
  /// explanation, and the decision that gives them.
  struct Published: Sendable {
    /// The route; its summary says there is no decision yet when
    /// ``explained`` is nil.
    var report: RouteReport
    var explained: Explained?
  }

  /// What the loop knows besides the route, published as the loop
  /// changes it, before anything it changed is announced.
  struct Facts: Sendable {
    /// The server's state the loop took in last; nil while it is away.
    var mirror: ServerMirror?
    /// This host's Bluetooth addresses in use.
    var hostAddresses: [String] = []
    /// What the last decision was made from.
    var snapshot: Snapshot?
    /// The decisions that changed something, oldest first.
    var changes: [RouteHistory.Change] = []
    /// The decision whose changes are going out, until they have.
    var changeInFlight: EngineLoop.DecisionRecord?
    /// What the media rules hold paused, by accessory.
    var pauses: [String: MediaMemory.Pause] = [:]
    /// The outputs the media rules wait for, by accessory.
    var absences: [String: MediaMemory.Absence] = [:]
  }

  private struct State {
    var published: Published
    var facts = Facts()
    /// The explanation of the published decision, once a query wrote it.
    var explanation: (number: Int, explanation: Explanation)?
    /// How many explanations queries have written, for the tests.
    var explanationsWritten = 0
  }

  private let state: Mutex<State>
  /// Tells followers the published output or input changed.
  private let moved = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))
  /// The policy in force, for what the queries say of it.
  let policies: PolicyStore
  /// The Bluetooth devices BlueZ's class calls headphones.
  let headphoneClasses: BlueZHeadphoneClasses
  /// The engine's clock, for how long ago something happened.
  let clock: any EngineClock

  /// Creates a board with nothing decided.
  ///
  /// - Parameters:
  ///   - policies: The policy in force.
  ///   - headphoneClasses: The devices BlueZ's class calls headphones.
  ///   - clock: The engine's clock.
  init(
    policies: PolicyStore, headphoneClasses: BlueZHeadphoneClasses,
    clock: any EngineClock
  ) {
    self.policies = policies
    self.headphoneClasses = headphoneClasses
    self.clock = clock
    state = Mutex(
      State(
        published: Published(
          report: RouteReport(
            output: nil, description: nil, pending: false,
            soundServer: .disconnected,
            summary: "No decision yet: the sound server is away"),
          explained: nil)))
  }

  /// How many explanations queries have written: one per decision asked
  /// about, for the tests that count them.
  package var explanationsWritten: Int {
    state.withLock { $0.explanationsWritten }
  }

  /// Publishes what the loop knows now.
  ///
  /// The loop publishes from its one task, so followers are told in
  /// order.
  func publish(_ published: Published) {
    let didMove = state.withLock { state in
      let before = state.published.report
      state.published = published
      return before.output != published.report.output
        || before.input != published.report.input
    }
    if didMove { moved.publish(()) }
  }

  /// Publishes a change of the facts; the loop calls it as it makes the
  /// change.
  func note(_ change: (inout Facts) -> Void) {
    state.withLock { change(&$0.facts) }
  }

  /// The facts as the loop last published them.
  var facts: Facts { state.withLock { $0.facts } }

  /// A stream that yields each time the published route names another
  /// output or input.
  ///
  /// A route the loop decides with nothing to send (the server had moved
  /// the default itself) reaches a follower too. A follower that falls
  /// behind gets one.
  public func routeChanges() -> AsyncStream<Void> {
    moved.subscribe()
  }

  /// The route as last published and, on request, the decision that last
  /// moved it, kept it on request, or chose it.
  ///
  /// - Parameter explaining: Whether to add the explanation's steps and
  ///   text.
  public func report(explaining: Bool) -> RouteReport {
    let (published, written) = state.withLock {
      ($0.published, $0.explanation)
    }
    var report = published.report
    guard let explained = published.explained else { return report }
    let explanation: Explanation
    if let written, written.number == explained.number {
      explanation = written.explanation
    } else {
      // Written here, on the asking task: the same snapshot and policy
      // give the decision the loop made, with its explanation.
      explanation =
        decide(explained.snapshot, explained.policy, explaining: true)
        .explanation
      state.withLock { state in
        state.explanationsWritten += 1
        if state.published.explained?.number == explained.number {
          state.explanation = (explained.number, explanation)
        }
      }
    }
    report.summary = explanation.summary
    report.decidedAt = explained.decidedAt
    report.trigger = explained.trigger
    if explaining {
      report.explanation = RouteReport.Explanation(explanation)
      report.text = explanation.text
    }
    return report
  }
}
