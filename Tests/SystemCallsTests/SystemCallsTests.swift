// SystemCalls: errno as a typed error with the system's words, and the
// Unix socket address with its length checked.

import Foundation
import Glibc
import SystemCalls
import Testing

@Suite("Errno")
struct ErrnoTests {
  @Test("Each constant is Glibc's number")
  func constantsAreGlibcs() {
    let pinned: [(Errno, Int32)] = [
      (.notPermitted, EPERM), (.noSuchFileOrDirectory, ENOENT),
      (.noSuchProcess, ESRCH), (.interrupted, EINTR), (.ioError, EIO),
      (.badFileDescriptor, EBADF), (.noMemory, ENOMEM),
      (.permissionDenied, EACCES), (.resourceBusy, EBUSY),
      (.fileExists, EEXIST), (.notDirectory, ENOTDIR),
      (.isDirectory, EISDIR), (.invalidArgument, EINVAL),
      (.tooManyOpenFiles, EMFILE), (.textFileBusy, ETXTBSY),
      (.noSpace, ENOSPC), (.readOnlyFileSystem, EROFS),
      (.brokenPipe, EPIPE), (.fileNameTooLong, ENAMETOOLONG),
      (.tooManySymbolicLinkLevels, ELOOP), (.wouldBlock, EAGAIN),
      (.wouldBlock, EWOULDBLOCK), (.notSocket, ENOTSOCK),
      (.addressFamilyNotSupported, EAFNOSUPPORT),
      (.addressInUse, EADDRINUSE), (.connectionAborted, ECONNABORTED),
      (.connectionReset, ECONNRESET), (.socketNotConnected, ENOTCONN),
      (.timedOut, ETIMEDOUT), (.connectionRefused, ECONNREFUSED),
      (.inProgress, EINPROGRESS), (.hostIsDown, EHOSTDOWN),
      (.noRouteToHost, EHOSTUNREACH), (.diskQuotaExceeded, EDQUOT),
      (.fileTooLarge, EFBIG), (.crossDeviceLink, EXDEV),
    ]
    for (constant, value) in pinned {
      #expect(constant.rawValue == value, "\(constant)")
      #expect(constant.name != nil, "\(constant) has no name")
    }
    #expect(Set(pinned.map(\.0)).count == pinned.count - 1)
  }

  @Test("The description is the system's words and the symbolic name")
  func description() {
    #expect(
      Errno.noSuchFileOrDirectory.description
        == "No such file or directory (ENOENT)")
    #expect(Errno.permissionDenied.message == "Permission denied")
    #expect(
      Errno.connectionRefused.description == "Connection refused (ECONNREFUSED)"
    )
    #expect(Errno.noSpace.message == "No space left on device")
    #expect(
      Errno(rawValue: 4242).description == "Unknown error 4242 (errno 4242)")
    #expect(Errno(rawValue: 4242).name == nil)
  }

  @Test("current reads the calling thread's errno after a failed call")
  func current() {
    #expect(open("/nonexistent/accessoryd-errno", O_RDONLY) == -1)
    #expect(Errno.current == .noSuchFileOrDirectory)
    #expect(throws: Errno.noSuchFileOrDirectory) {
      try Errno.check { open("/nonexistent/accessoryd-errno", O_RDONLY) }
    }
  }
}

@Suite("UnixSocketAddress")
struct UnixSocketAddressTests {
  /// The path in a `sockaddr_un`, and the length it is passed with.
  static func read(
    _ address: UnixSocketAddress
  ) -> (family: Int32, path: [UInt8], length: Int) {
    address.withSockaddr { pointer, length in
      pointer.withMemoryRebound(to: sockaddr_un.self, capacity: 1) { unix in
        let path = withUnsafeBytes(of: unix.pointee.sun_path) { raw in
          Array(
            raw.prefix(
              Int(length) - MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!))
        }
        return (Int32(unix.pointee.sun_family), path, Int(length))
      }
    }
  }

  @Test("A path of at most 107 bytes round-trips through sockaddr_un")
  func pathRoundTrips() throws {
    for path in [
      "/run/user/1000/accessoryd.sock",
      "/" + String(repeating: "x", count: 106),
    ] {
      let address = try UnixSocketAddress(path: path)
      let (family, bytes, length) = Self.read(address)
      #expect(family == AF_UNIX)
      #expect(bytes == Array(path.utf8) + [0])
      #expect(length == 2 + path.utf8.count + 1)
      #expect(address.description == path)
      #expect(!address.isAbstract)
    }
  }

  @Test("An abstract name starts with a NUL and has no ending NUL")
  func abstractName() throws {
    let address = try UnixSocketAddress(notation: "@accessoryd-notify")
    let (_, bytes, _) = Self.read(address)
    #expect(bytes == [0] + Array("accessoryd-notify".utf8))
    #expect(address.isAbstract)
    #expect(address.description == "@accessoryd-notify")
  }

  @Test("A path longer than 107 bytes is refused, naming it and the limit")
  func tooLong() {
    let path = "/" + String(repeating: "x", count: 107)
    #expect(UnixSocketAddress.maximumLength == 107)
    #expect {
      _ = try UnixSocketAddress(path: path)
    } throws: { error in
      "\(error)"
        == "the Unix socket path '\(path)' is 108 bytes long; a socket "
        + "address holds at most 107"
    }
    #expect(throws: UnixSocketAddress.TooLong.self) {
      _ = try UnixSocketAddress(
        abstractName: String(repeating: "x", count: 107))
    }
  }

  @Test("A socket bound to an address is reached by connecting to it")
  func bindAndConnect() throws {
    let path = NSTemporaryDirectory() + "accessoryd-address-\(getpid()).sock"
    unlink(path)
    defer { unlink(path) }
    let address = try UnixSocketAddress(path: path)
    let listener = try UnixSocket.bound(.stream, to: address)
    defer { close(listener) }
    #expect(listen(listener, 1) == 0)
    let client = try UnixSocket.connected(.stream, to: address)
    defer { close(client) }
    #expect(throws: Errno.noSuchFileOrDirectory) {
      let other = try UnixSocket.connected(
        .stream, to: UnixSocketAddress(path: path + ".missing"))
      close(other)
    }
  }
}

@Suite("Whole reads and writes")
struct WholeTransfersTests {
  @Test("A megabyte goes through a pipe whole, in many partial writes")
  func megabyteThroughAPipe() async throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let (reading, writing) = (ends[0], ends[1])
    let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    // A pipe holds 64 KiB: the writer waits for the reader many times.
    async let read = Task.detached { WholeTransfers.readToEnd(reading) }.value
    let written = await Task.detached {
      defer { close(writing) }
      return WholeTransfers.write(bytes, to: writing)
    }.value
    #expect(written)
    #expect(await read == bytes)
    close(reading)
  }

  @Test("Writing to a pipe nobody reads fails with EPIPE, and says so")
  func brokenPipe() {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    close(ends[0])
    let previous = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, previous) }
    #expect(!WholeTransfers.write("nobody reads this", to: ends[1]))
    #expect(Errno.current == .brokenPipe)
    close(ends[1])
  }

  @Test("A closed descriptor reads as a failure, not as an empty file")
  func badDescriptor() {
    #expect(WholeTransfers.readToEnd(-1) == nil)
    #expect(Errno.current == .badFileDescriptor)
  }
}

@Suite("An owning file descriptor")
struct FileDescriptorTests {
  /// A new directory of its own, removed after `body`.
  private func inDirectory(_ body: (String) throws -> Void) throws {
    let directory = NSTemporaryDirectory() + "fd-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try body(directory)
  }

  @Test("Written whole, read back whole; at an offset, neither moves the other")
  func writesAndReads() throws {
    try inDirectory { directory in
      let path = directory + "/file"
      let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
      let file = try FileDescriptor.open(path, [.readWrite, .create])
      try file.writeAll(bytes)
      try file.sync()
      try file.writeAll(Array("head".utf8), at: 0)
      #expect(try file.read(upTo: 4, at: 0) == Array("head".utf8))
      #expect(try file.read(upTo: 10, at: 99_995).count == 5)
      try file.truncate(to: 10)
      try file.close()
      let again = try FileDescriptor.open(path, .readOnly)
      #expect(try again.readToEnd() == Array("head".utf8) + bytes[4..<10])
      let limited = try FileDescriptor.open(path, .readOnly)
      #expect(throws: Errno.fileTooLarge) { try limited.readToEnd(limit: 9) }
    }
  }

  @Test("Closed when the value ends, or by close()")
  func closedOnce() throws {
    // The write end of a pipe, owned: once it is closed, its reader finds
    // the end of the stream.
    for closesByHand in [false, true] {
      var ends: [Int32] = [0, 0]
      #expect(pipe(&ends) == 0)
      let reader = FileDescriptor(adopting: ends[0])
      do {
        let writer = FileDescriptor(adopting: ends[1])
        try writer.writeAll(Array("bye".utf8))
        if closesByHand { try writer.close() }
      }
      #expect(try reader.readToEnd() == Array("bye".utf8))
    }
  }

  @Test("Opened close-on-exec, and open's failures are the system's errno")
  func openFailures() throws {
    let file = try FileDescriptor.open("/dev/null", .readOnly)
    #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    try inDirectory { directory in
      #expect(throws: Errno.noSuchFileOrDirectory) {
        _ = try FileDescriptor.open(directory + "/missing", .readOnly)
      }
      let path = directory + "/made"
      _ = try FileDescriptor.open(path, [.writeOnly, .create, .exclusive])
      #expect(throws: Errno.fileExists) {
        _ = try FileDescriptor.open(path, [.writeOnly, .create, .exclusive])
      }
      #expect(symlink(path, directory + "/link") == 0)
      #expect(throws: Errno.tooManySymbolicLinkLevels) {
        _ = try FileDescriptor.open(
          directory + "/link", [.readOnly, .noFollow])
      }
      #expect(throws: Errno.notDirectory) {
        _ = try FileDescriptor.open(path, [.readOnly, .directory])
      }
    }
  }

  @Test("An exclusive lock excludes another open file's, shared or not")
  func locks() throws {
    try inDirectory { directory in
      let path = directory + "/lock"
      let holder = try FileDescriptor.open(path, [.readWrite, .create])
      #expect(try holder.tryLock(.exclusive))
      let other = try FileDescriptor.open(path, .readOnly)
      #expect(try !other.tryLock(.shared))
      #expect(try !other.tryLock(.exclusive))
      try holder.close()
      #expect(try other.tryLock(.shared))
    }
  }
}
