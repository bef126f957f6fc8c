// acctl's text for the outputs and inputs (`acctl output`), a choice made
// or forgotten, and the one-screen overview of `acctl status`.

import AccessoryControl
import AudioAccessoryKit

extension Rendering {
  /// Returns the outputs, the inputs and the streams as three tables, one
  /// line per device with `*` on the default and why; or why there are
  /// none.
  static func audioDevices(_ devices: AudioDevices) -> String {
    guard devices.soundServer == .connected else {
      return "No outputs known: accessoryd has no sound server now."
    }
    return [
      deviceTable("OUTPUT", devices.outputs),
      deviceTable("INPUT", devices.inputs),
      streamTable(devices.streams),
    ].joined(separator: "\n\n")
  }

  /// Returns devices as a table: the default marked `*`, the name, the
  /// description and why.
  static func deviceTable(
    _ heading: String, _ devices: [AudioDevices.Device]
  ) -> String {
    guard !devices.isEmpty else { return "No \(heading.lowercased())s." }
    return table(
      [["", heading, "DESCRIPTION", "WHY"]]
        + devices.map {
          [
            $0.isDefault ? "*" : " ", $0.name, $0.description,
            $0.why.isEmpty ? "-" : $0.why,
          ]
        })
  }

  /// Returns the playback streams and where they play, or that there are
  /// none.
  static func streamTable(_ streams: [AudioDevices.Stream]) -> String {
    guard !streams.isEmpty else { return "No streams play." }
    return table(
      [["STREAM", "APPLICATION", "PLAYS ON"]]
        + streams.map { stream in
          let notes = [
            stream.isPinned ? "kept there" : nil,
            stream.isMuted == true ? "muted: not heard" : nil,
          ].compactMap { $0 }
          return [
            "#\(stream.index)", stream.application ?? "-",
            stream.output
              + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"),
          ]
        })
  }

  /// Returns what `output choose` or `output forget` did, and the route
  /// that followed.
  static func outputChoice(_ reply: OutputChoiceReply) -> String {
    var lines: [String] = []
    if let chosen = reply.chosen {
      lines.append(
        "Chose \(chosen) as your \(reply.isInput ? "input" : "output").")
      let now = reply.isInput ? reply.route.input : reply.route.output
      if now != chosen {
        lines.append(
          "The policy sets this choice aside now: acctl route --explain says "
            + "why.")
      }
    } else if reply.forgotten.isEmpty {
      lines.append("No choice of yours was kept; accessoryd decides alone.")
    } else {
      lines.append(
        "Forgot your choice of \(reply.forgotten.joined(separator: " and ")); "
          + "accessoryd decides alone again.")
    }
    lines.append(route(reply.route, explain: false))
    return lines.joined(separator: "\n")
  }

  /// Returns the overview: the daemon's status, then the outputs, inputs,
  /// streams, accessories and players, each under a heading.
  static func overview(_ overview: DaemonOverview) -> String {
    var sections = [status(overview.status)]
    if overview.devices.soundServer == .connected {
      sections.append(deviceTable("OUTPUT", overview.devices.outputs))
      sections.append(deviceTable("INPUT", overview.devices.inputs))
      sections.append(streamTable(overview.devices.streams))
    }
    sections.append(accessoryList(overview.accessories))
    sections.append(players(overview.players))
    return sections.joined(separator: "\n\n")
  }
}
