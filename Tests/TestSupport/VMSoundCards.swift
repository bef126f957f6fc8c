// What the VM's sound-card fixtures (ALSAHeadset, ALSAJack) share: udev,
// which PipeWire's ALSA monitor needs, and running the machine's programs.

import Foundation

/// Starts udevd inside the VM and has it learn the sound cards, as
/// PipeWire's ALSA monitor finds cards through udev; returns once udev has
/// marked every card initialized.
///
/// PipeWire's ALSA monitor passes over a card udev has not marked
/// initialized, which it does on a change event of its own making, one
/// that `udevadm settle` may not wait for.
///
/// - Parameter rules: Rules of the test's own, such as a form factor for a
///   card, or nil.
func startUdevForSoundCards(rules: String?) async throws {
  if let rules {
    let directory = "/run/udev/rules.d"
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    try rules.write(
      toFile: "\(directory)/90-accessoryd-test.rules", atomically: true,
      encoding: .utf8)
  }
  try await runMachineProgram(["/lib/systemd/systemd-udevd", "--daemon"])
  try await runMachineProgram([
    "/usr/bin/udevadm", "trigger", "--subsystem-match=sound", "--action=add",
  ])
  try await runMachineProgram(["/usr/bin/udevadm", "settle", "--timeout=20"])
  let cards =
    ((try? FileManager.default.contentsOfDirectory(
      atPath: "/sys/class/sound")) ?? []).filter { $0.hasPrefix("card") }
  for card in cards {
    try await waitFor(
      "udev to mark \(card) initialized", within: .seconds(20),
      observing: {
        try await runProgram(
          "/usr/bin/udevadm",
          ["info", "--query=property", "/sys/class/sound/\(card)"],
          environment: ["PATH": SoundServer.searchPath]
        ).stdout
      }
    ) { $0.contains("SOUND_INITIALIZED=1") }
  }
}

/// Runs a program of the machine's, which must succeed within 30 s.
///
/// - Throws: ``FixtureError`` with its output if it fails.
func runMachineProgram(_ arguments: [String]) async throws {
  let run = try await runProgram(
    arguments[0], Array(arguments.dropFirst()),
    environment: ["PATH": SoundServer.searchPath], within: .seconds(30))
  guard run.status == 0 else {
    throw FixtureError("\(arguments.joined(separator: " ")) failed: \(run)")
  }
}

/// Inside the VM, mounts the VM's own directories in the server root.
///
/// The root of `ACCESSORYD_SERVER_ROOT` (``SoundServerStack/root(_:)``,
/// such as Debian 13's servers) gets the VM's `/proc`, `/sys`, `/dev`,
/// `/run` and `/tmp`, as `scripts/test-stacks` gives it the host's: its
/// servers then see the VM's sound cards, udev's database and the test's
/// directories. Once per boot; nothing for this machine's own servers.
func prepareServerRootInsideTheVM() async throws {
  guard BluetoothVM.isInside, case .root(let root) = SoundServerStack.current
  else { return }
  for directory in ["/proc", "/sys", "/dev", "/run", "/tmp"] {
    let mounts =
      (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
    guard !mounts.contains(" \(root)\(directory) ") else { continue }
    try await runMachineProgram([
      "/bin/mount", "--rbind", directory, root + directory,
    ])
  }
}
