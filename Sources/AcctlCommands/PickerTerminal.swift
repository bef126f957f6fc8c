// The terminal under acctl's picker: keys read one at a time without echo,
// a screen redrawn in place on the alternate screen, and the terminal's
// settings restored however acctl ends.

import AccessoryControl
import ConcurrencyHelpers
import Dispatch
import FoundationEssentials
import Glibc
import SystemCalls

/// The terminal the picker reads keys from and draws on.
///
/// Standard input leaves canonical mode: no echo, no line editing and no
/// signal keys, so each key reaches the picker at once and Ctrl-C arrives
/// as a key. Frames go to the controlling terminal (`/dev/tty`), on its
/// alternate screen, so the shell's screen comes back when the picker
/// ends and standard output carries only the result.
///
/// - Important: Call ``end()`` before printing anything else; SIGTERM,
///   SIGHUP, SIGINT and SIGQUIT call it too, then end the process with the
///   signal.
final class PickerTerminal: Sendable {
  /// The descriptor frames are written to.
  private let output: Int32
  /// Whether the output understands ANSI escapes; without them each frame
  /// is printed after the last, and only when its content changes.
  private let isTerminal: Bool
  /// What changes while the picker runs.
  private let state = Mutex(State())

  /// What changes while the picker runs.
  private struct State {
    /// Standard input's settings before ``begin(onResize:)``.
    var saved: termios?
    /// Whether the picker's modes are on.
    var isActive = false
    /// The signal sources, kept alive while the picker runs.
    var sources: [any DispatchSourceSignal] = []
    /// The frame written last, without its prompt line.
    var lastFrame: [String]?
  }

  /// Opens the controlling terminal for writing, or falls back to
  /// standard error.
  init() {
    let terminal = open("/dev/tty", O_WRONLY | O_CLOEXEC | O_NOCTTY)
    output = terminal >= 0 ? terminal : 2
    isTerminal = isatty(output) == 1
  }

  deinit {
    if output != 2 { close(output) }
  }

  /// The terminal's width and height, or 80 by 24 when it does not say.
  var size: (columns: Int, rows: Int) {
    var window = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0,
      window.ws_row > 0
    else { return (80, 24) }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  /// Switches standard input to key-at-a-time reading and the output to
  /// its alternate screen, and starts catching signals.
  ///
  /// - Parameter onResize: Called, on another thread, when the window
  ///   changes size.
  func begin(onResize: @escaping @Sendable () -> Void) {
    var settings = termios()
    let saved = tcgetattr(0, &settings) == 0 ? settings : nil
    if saved != nil {
      settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
      withUnsafeMutableBytes(of: &settings.c_cc) { characters in
        characters[Int(VMIN)] = 1
        characters[Int(VTIME)] = 0
      }
      tcsetattr(0, TCSADRAIN, &settings)
    }
    state.withLock { state in
      state.saved = saved
      state.isActive = true
    }
    if isTerminal { write("\u{1B}[?1049h") }
    let queue = DispatchQueue(label: "acctl.picker.signals")
    state.withLock { state in
      // Dispatch takes over each signal; the default action must not run.
      signal(SIGWINCH, SIG_IGN)
      let resize = DispatchSource.makeSignalSource(
        signal: SIGWINCH, queue: queue)
      resize.setEventHandler(handler: onResize)
      state.sources = [resize]
      for number in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(
          signal: number, queue: queue)
        source.setEventHandler { [self] in
          end()
          Self.die(of: number)
        }
        state.sources.append(source)
      }
      for source in state.sources { source.resume() }
    }
  }

  /// Restores standard input's settings and the shell's screen.
  ///
  /// Safe to call more than once, and from any thread.
  func end() {
    let saved = state.withLock { state -> termios?? in
      guard state.isActive else { return nil }
      state.isActive = false
      return .some(state.saved)
    }
    guard let saved else { return }
    if isTerminal { write("\u{1B}[?1049l") }
    if var settings = saved { tcsetattr(0, TCSADRAIN, &settings) }
  }

  /// Draws a frame: lines from the top of the screen, the cursor at the
  /// end of the last one, where the person types.
  ///
  /// Each line must fit the width; see ``size``.
  func draw(_ lines: [String]) {
    guard isTerminal else {
      // Without a screen, print a frame only when more than the prompt
      // changed, so typing does not repeat the list.
      let content = Array(lines.dropLast())
      let changed = state.withLock { state in
        defer { state.lastFrame = content }
        return state.lastFrame != content
      }
      if changed { write("\n" + lines.joined(separator: "\n") + "\n") }
      return
    }
    let erase = "\u{1B}[K"
    write(
      "\u{1B}[H" + lines.map { $0 + erase }.joined(separator: "\r\n")
        + "\u{1B}[J")
  }

  /// Writes text to the output, all of it.
  private func write(_ text: String) {
    WholeTransfers.write(text, to: output)
  }

  /// Ends the process with a signal's default action, as if the picker
  /// had not caught it.
  private static func die(of number: Int32) -> Never {
    signal(number, SIG_DFL)
    kill(getpid(), number)
    // Dispatch's threads block signals; the main thread takes it soon.
    usleep(200_000)
    _exit(ProcessExitCode.signal(number).rawValue)
  }
}

/// A key the person pressed, as the picker understands it.
enum PickerKey: Sendable, Hashable {
  /// Printable text, as UTF-8 bytes.
  case text([UInt8])
  /// Enter.
  case enter
  /// Backspace: remove the last character typed.
  case backspace
  /// Ctrl-U: remove everything typed.
  case clearLine
  /// Escape on its own, not the start of a key's sequence.
  case escape
  /// Ctrl-C.
  case interrupt
  /// Ctrl-D.
  case endOfFile
}

/// Turns the bytes a terminal sends into keys, skipping the escape
/// sequences of keys the picker does not use (arrows, function keys).
struct PickerKeyDecoder {
  /// Where the decoder is in an escape sequence.
  private enum Sequence {
    /// Not in a sequence.
    case none
    /// After ESC.
    case escape
    /// After `ESC [`: parameters until a final byte.
    case controlSequence
    /// After `ESC O`: one more byte.
    case singleShift
  }

  /// Where the decoder is, kept from one read to the next.
  private var sequence = Sequence.none

  /// Returns the keys in one read's bytes.
  ///
  /// An ESC that ends the bytes is the Escape key; a terminal sends a
  /// key's whole sequence at once.
  mutating func keys(in bytes: [UInt8]) -> [PickerKey] {
    var keys: [PickerKey] = []
    var text: [UInt8] = []
    func flush() {
      if !text.isEmpty { keys.append(.text(text)) }
      text = []
    }
    for byte in bytes {
      switch sequence {
      case .escape:
        switch byte {
        case UInt8(ascii: "["): sequence = .controlSequence
        case UInt8(ascii: "O"): sequence = .singleShift
        default: sequence = .none  // Alt and a key: dropped.
        }
        continue
      case .controlSequence:
        if (0x40...0x7E).contains(byte) { sequence = .none }
        continue
      case .singleShift:
        sequence = .none
        continue
      case .none:
        break
      }
      switch byte {
      case 0x1B:
        flush()
        sequence = .escape
      case 0x0A, 0x0D:
        flush()
        keys.append(.enter)
      case 0x08, 0x7F:
        flush()
        keys.append(.backspace)
      case 0x15:
        flush()
        keys.append(.clearLine)
      case 0x03:
        flush()
        keys.append(.interrupt)
      case 0x04:
        flush()
        keys.append(.endOfFile)
      case 0x20...0x7E, 0x80...0xFF:
        text.append(byte)
      default:
        break  // Other control keys: tab, Ctrl-Z and the rest.
      }
    }
    flush()
    if sequence == .escape {
      sequence = .none
      keys.append(.escape)
    }
    return keys
  }
}
