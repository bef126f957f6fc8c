#!/usr/bin/python3
"""Galaxy Buds as accessoryd's headphone tests need them: an RFCOMM peer on
a real socket of the kernel's Bluetooth stack, speaking the buds' frames.

It listens on an RFCOMM channel of one controller's address. When a host
connects it sends its full status (EXTENDED_STATUS_UPDATED, 0x61), and a
status update (STATUS_UPDATED, 0x60) at each change, as the Galaxy Buds2
at revision 10 of the full status do: 37 bytes of payload, the charging
bits in its byte 36 and in byte 7 of each update (0x10 the left bud, 0x04
the right, 0x01 the case). Lines on standard
input drive it:

    wear L R      the left and right bud: 0 disconnected, 1 wearing,
                  2 idle, 3 in the case, 4 in the closed case
    battery L R C the batteries, in percent
    charging L R C  whether each part charges: 0 or 1
    raw HEX       send these bytes as they are (garbage, a bad CRC)
    split         send the next frame in two writes, a byte apart
    drop          close the host's connection

It reports on standard output, one line each: listening, connected,
sent HEX, closed, and error TEXT.

Run it with Debian's /usr/bin/python3 (Bluetooth sockets); the layouts are
those in accessoryd's HeadphoneProtocols module (GalaxyBudsFrame,
GalaxyBudsStatus).
"""

import socket
import time

import peer
from peer import Peer


def crc16_xmodem(data):
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def frame(message_id, payload):
    size = 1 + len(payload) + 2
    crc = crc16_xmodem(bytes([message_id]) + payload)
    return (
        bytes([0xFD, size & 0xFF, size >> 8, message_id])
        + payload
        + bytes([crc & 0xFF, crc >> 8, 0xDD])
    )


def legacy_frame(message_id, payload, message_type=1):
    """A frame as the 2019 Buds frame it: FE, type, 1-byte size, ..., EE."""
    size = 1 + len(payload) + 2
    crc = crc16_xmodem(bytes([message_id]) + payload)
    return (
        bytes([0xFE, message_type, size, message_id])
        + payload
        + bytes([crc & 0xFF, crc >> 8, 0xEE])
    )


class GalaxyBuds(Peer):
    def __init__(self, address, channel):
        super().__init__(socket.SOCK_STREAM, socket.BTPROTO_RFCOMM, address, channel)
        self.left, self.right = 3, 3
        self.battery = (90, 80, 50)
        # In the case, both buds charge; the case does not.
        self.charging = (1, 1, 0)
        self.split_next = False

    def placement(self):
        return (self.left << 4) | self.right

    def charging_bits(self):
        left, right, case = self.charging
        return (0x10 if left else 0) | (0x04 if right else 0) | (0x01 if case else 0)

    def extended_status(self):
        left, right, case = self.battery
        # revision 10, earbud type, left, right, coupled, primary,
        # placement, case; settings this emulator leaves at 0; charging
        payload = bytes([10, 0x00, left, right, 0x01, 0x00, self.placement(), case])
        payload += bytes(36 - len(payload)) + bytes([self.charging_bits()])
        return frame(0x61, payload)

    def status(self):
        left, right, case = self.battery
        # revision, left, right, coupled, primary, placement, case, charging
        payload = bytes([10, left, right, 0x01, 0x00, self.placement(), case, self.charging_bits()])
        return frame(0x60, payload)

    def send(self, data):
        with self.lock:
            connection = self.connection
            split, self.split_next = self.split_next, False
        if connection is None:
            return
        try:
            if split:
                connection.send(data[:3])
                time.sleep(0.05)
                connection.send(data[3:])
            else:
                connection.send(data)
            self.say("sent " + data.hex())
        except OSError as error:
            self.say(f"error {error}")

    def connected(self, connection):
        self.send(self.extended_status())

    def command(self, verb, arguments):
        if verb == "wear":
            self.left, self.right = (int(word) for word in arguments[:2])
            self.send(self.status())
        elif verb == "battery":
            self.battery = tuple(int(word) for word in arguments[:3])
            self.send(self.status())
        elif verb == "charging":
            self.charging = tuple(int(word) for word in arguments[:3])
            self.send(self.status())
        elif verb == "raw":
            self.send(bytes.fromhex("".join(arguments)))
        elif verb == "split":
            with self.lock:
                self.split_next = True
        else:
            return False
        return True


if __name__ == "__main__":
    peer.main(__doc__.splitlines()[0], GalaxyBuds, "channel", 1)
