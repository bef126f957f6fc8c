// A test fixture: writes ever-changing registries to a state file as fast
// as it can, so a test can kill it with SIGKILL mid-write and check that
// the file always holds a complete old or new state.
//
// Usage: state-file-writer PATH ITERATIONS
// Generation g holds (g % 40) + 1 accessories, each named "gen-<g>-<i>".

import AccessoryBackend
import AccessoryControl
import AudioAccessoryKit
import Foundation

@main
struct StateFileWriter {
  static func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 3, let iterations = Int(arguments[2]) else {
      FileHandle.standardError.write(
        Data("usage: StateFileWriter PATH ITERATIONS\n".utf8))
      exit(ProcessExitCode.usage.rawValue)
    }
    let file = StateFile(url: URL(fileURLWithPath: arguments[1]))
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    for generation in 0..<iterations {
      var registry = AccessoryRegistry()
      for index in 0...(generation % 40) {
        let address = BluetoothAddress(
          data: Data([0x02, 0, 0, 0, UInt8(index >> 8), UInt8(index & 0xFF)])
        )!
        let accessory = try registry.pair(
          address, displayName: "gen-\(generation)-\(index)",
          formFactor: .headphone, at: start)
        try registry.register(
          accessory.accessory,
          .init(devicePlacement: .inEar, deviceCapabilities: [.placement]),
          at: start)
      }
      try file.save(registry)
      if generation == 0 {
        FileHandle.standardOutput.write(Data("ready\n".utf8))
      }
    }
  }
}
