// accessoryd-fuzz: built by scripts/fuzz with -sanitize=fuzzer,address
// and FUZZING defined, it is a libFuzzer binary for the target named by
// ACCESSORYD_FUZZ_TARGET. Built plainly, it runs inputs through a target
// and says which break it: `accessoryd-fuzz TARGET FILE...`, or
// `accessoryd-fuzz --list`.

import FuzzTargets
import Glibc

#if FUZZING

  /// The target of this process, from ACCESSORYD_FUZZ_TARGET.
  private let selected: FuzzTarget = {
    let name = getenv("ACCESSORYD_FUZZ_TARGET").map { String(cString: $0) }
    guard let name, let target = FuzzTarget.named(name) else {
      let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
      printError(
        "accessoryd-fuzz: set ACCESSORYD_FUZZ_TARGET to one of \(names)")
      exit(64)
    }
    return target
  }()

  /// libFuzzer's entry: one input for the selected target; a broken
  /// invariant stops the run as a crash, with the input saved.
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) }
    if let broken = selected.run(bytes ?? []) {
      fatalError("\(selected.name): \(broken)")
    }
    return 0
  }

  /// libFuzzer's driver, which parses its options and runs the inputs.
  @_silgen_name("LLVMFuzzerRunDriver")
  private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<
      UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    >,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// The process's entry, under the name SwiftPM links an executable
  /// module's main as: hands over to libFuzzer's driver.
  @_cdecl("accessoryd_fuzz_main")
  public func fuzzMain(
    _ argc: CInt,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in
      fuzzOneInput(data, size)
    }
  }
#else
  import FoundationEssentials

  @main
  enum FuzzReplay {
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      if arguments == ["--list"] {
        for target in FuzzTarget.all {
          print("\(target.name)\t\(target.summary)")
        }
        return
      }
      guard let name = arguments.first, let target = FuzzTarget.named(name)
      else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        printError(
          "usage: accessoryd-fuzz TARGET FILE... | --list; TARGET is one "
            + "of \(names)")
        exit(64)
      }
      var broken = 0
      for path in arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
          printError("accessoryd-fuzz: \(path): cannot be read")
          exit(66)
        }
        if let problem = target.run(Array(data)) {
          print("\(path): \(problem)")
          broken += 1
        }
      }
      exit(broken == 0 ? 0 : 1)
    }
  }
#endif

/// Writes a line to standard error.
private func printError(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
