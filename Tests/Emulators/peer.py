"""What the headphone emulators share: a listening Bluetooth socket that
takes one host at a time, a reader per connection that a "drop" command
can end, and the command lines on standard input. Each emulator says what
happens as it happens, one line each, on standard output.
"""

import argparse
import socket
import sys
import threading


class Peer:
    """A peer on a socket of the kernel's Bluetooth stack."""

    def __init__(self, kind, protocol, address, port):
        self.lock = threading.Lock()
        self.say_lock = threading.Lock()
        self.connection = None
        self.dropping = None
        self.server = socket.socket(socket.AF_BLUETOOTH, kind, protocol)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind((address, port))
        self.server.listen(1)

    def say(self, line):
        # One write per line, under a lock of its own: print() writes the
        # line and its newline apart, so two threads saying something at
        # once could run two lines into one.
        with self.say_lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def connected(self, connection):
        """A host connected; the emulator may send at once."""

    def received(self, connection, data):
        """The host sent bytes (a packet, on L2CAP)."""

    def command(self, verb, arguments):
        """One command line of the emulator's own; False if unknown."""
        return False

    def accept(self):
        self.say("listening")
        while True:
            connection, _ = self.server.accept()
            with self.lock:
                self.connection = connection
            self.say("connected")
            self.connected(connection)
            threading.Thread(target=self.serve, args=(connection,), daemon=True).start()

    def serve(self, connection):
        # A short timeout lets "drop" close the connection from here: a
        # blocked recv would not see another thread's close.
        connection.settimeout(0.1)
        while True:
            try:
                data = connection.recv(4096)
            except socket.timeout:
                with self.lock:
                    dropped = self.dropping is connection
                if not dropped:
                    continue
                data = b""
            except OSError:
                data = b""
            if not data:
                with self.lock:
                    if self.connection is connection:
                        self.connection = None
                connection.close()
                self.say("closed")
                return
            self.received(connection, data)

    def run(self):
        threading.Thread(target=self.accept, daemon=True).start()
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            verb, arguments = words[0], words[1:]
            if verb == "drop":
                with self.lock:
                    self.dropping = self.connection
            elif not self.command(verb, arguments):
                self.say(f"error unknown command {line.strip()!r}")


def main(description, make, port, default, parse=int, flags=()):
    """Runs an emulator: `--address`, its `--PORT` and its own `flags`
    (each `--NAME`, given to `make` as NAME=True or False) from the
    command line, then the commands on standard input until they end."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--address", required=True)
    parser.add_argument("--" + port, type=parse, default=default)
    for flag in flags:
        parser.add_argument("--" + flag, action="store_true")
    options = parser.parse_args()
    extra = {flag: getattr(options, flag) for flag in flags}
    make(options.address, getattr(options, port), **extra).run()
