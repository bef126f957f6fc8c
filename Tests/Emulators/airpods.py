#!/usr/bin/python3
"""AirPods as accessoryd's headphone tests need them: an AAP peer on a real
L2CAP socket (PSM 0x1001) of the kernel's Bluetooth stack.

It listens on one controller's address, waits for a host, and answers the
host's request for notifications with where the buds are and their
battery. Lines on standard input drive it:

    ear P S        the primary and secondary bud: 00 in ear, 01 out, 02 case
    battery T:L:S  battery components (type, level, status), space-separated
    raw HEX        send these bytes as one packet (garbage, short, unknown)
    silent on|off  from the next connection on, answer nothing at all
    drop           close the host's connection

It reports on standard output, one line each: listening, connected,
handshake, notifications, sent HEX at NS (CLOCK_BOOTTIME, in nanoseconds,
taken just before the send), closed, and error TEXT.

Run it with Debian's /usr/bin/python3 (Bluetooth sockets); the layouts are
those in accessoryd's HeadphoneProtocols module.
"""

import socket
import time

import peer
from peer import Peer

HEADER = bytes([0x04, 0x00, 0x04, 0x00])
HANDSHAKE = bytes.fromhex("00000400010002000000000000000000")
REQUEST_NOTIFICATIONS = HEADER + bytes([0x0F, 0x00])


class AirPods(Peer):
    def __init__(self, address, psm):
        super().__init__(socket.SOCK_SEQPACKET, socket.BTPROTO_L2CAP, address, psm)
        self.ear = bytes([0x02, 0x02])
        self.battery = [(0x04, 90, 0x02), (0x02, 80, 0x02), (0x08, 50, 0x01)]
        self.notifying = False
        self.silent = False
        self.session_silent = False

    def ear_packet(self):
        return HEADER + bytes([0x06, 0x00]) + self.ear

    def battery_packet(self):
        packet = HEADER + bytes([0x04, 0x00, len(self.battery)])
        for kind, level, status in self.battery:
            packet += bytes([kind, 0x01, level, status, 0x01])
        return packet

    def send(self, packet):
        with self.lock:
            connection = self.connection if self.notifying else None
        if connection is None:
            return
        try:
            at = time.clock_gettime_ns(time.CLOCK_BOOTTIME)
            connection.send(packet)
            self.say(f"sent {packet.hex()} at {at}")
        except OSError as error:
            self.say(f"error {error}")

    def connected(self, connection):
        with self.lock:
            self.notifying = False
            self.session_silent = self.silent

    def received(self, connection, packet):
        if packet == HANDSHAKE:
            self.say("handshake")
        elif packet.startswith(REQUEST_NOTIFICATIONS):
            self.say("notifications")
            with self.lock:
                silent = self.session_silent
                self.notifying = not silent
            if not silent:
                self.send(self.ear_packet())
                self.send(self.battery_packet())

    def command(self, verb, arguments):
        if verb == "ear":
            self.ear = bytes(int(word, 16) for word in arguments[:2])
            self.send(self.ear_packet())
        elif verb == "battery":
            self.battery = [
                tuple(int(part) for part in word.split(":")) for word in arguments
            ]
            self.send(self.battery_packet())
        elif verb == "raw":
            self.send(bytes.fromhex("".join(arguments)))
        elif verb == "silent":
            with self.lock:
                self.silent = arguments == ["on"]
            self.say("silent " + " ".join(arguments))
        else:
            return False
        return True


if __name__ == "__main__":
    peer.main(
        __doc__.splitlines()[0], AirPods, "psm", 0x1001, lambda text: int(text, 0)
    )
