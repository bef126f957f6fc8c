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

With --sdp it also answers SDP on L2CAP PSM 1 as a Galaxy Buds Pro does:
three serial-port records, the first on channel 1 ("Serial Port", which
BlueZ's ConnectProfile would take), the manager on the emulator's channel
("GEARMANAGER") and a factory service on channel 20; it says "sdp asked"
for each request.

Run it with Debian's /usr/bin/python3 (Bluetooth sockets); the layouts are
those in accessoryd's HeadphoneProtocols module (GalaxyBudsFrame,
GalaxyBudsStatus).
"""

import socket
import threading
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


def element(kind, body):
    """An SDP data element of a variable size: sequence (6) or text (4)."""
    if len(body) < 0x100:
        return bytes([kind << 3 | 5, len(body)]) + body
    return bytes([kind << 3 | 6]) + len(body).to_bytes(2, "big") + body


def sequence(*items):
    return element(6, b"".join(items))


def uint(value, size):
    index = {1: 0, 2: 1, 4: 2}[size]
    return bytes([1 << 3 | index]) + value.to_bytes(size, "big")


def uuid16(value):
    return bytes([3 << 3 | 1]) + value.to_bytes(2, "big")


def serial_port_record(handle, channel, name):
    """A record of the serial port (0x1101) on an RFCOMM channel."""
    return sequence(
        uint(0x0000, 2), uint(handle, 4),
        uint(0x0001, 2), sequence(uuid16(0x1101)),
        uint(0x0004, 2), sequence(sequence(uuid16(0x0100)), sequence(uuid16(0x0003), uint(channel, 1))),
        uint(0x0100, 2), element(4, name.encode() + b"\0"),
    )


class ServiceRecords:
    """An SDP server on L2CAP PSM 1 that answers every service search
    attribute request with the same records, in one part."""

    def __init__(self, buds, address, records):
        self.buds = buds
        self.lists = sequence(*records)
        self.server = socket.socket(socket.AF_BLUETOOTH, socket.SOCK_SEQPACKET, socket.BTPROTO_L2CAP)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind((address, 1))
        self.server.listen(1)

    def serve(self):
        while True:
            connection, _ = self.server.accept()
            threading.Thread(target=self.answer, args=(connection,), daemon=True).start()

    def answer(self, connection):
        with connection:
            while True:
                try:
                    request = connection.recv(1024)
                except OSError:
                    return
                if len(request) < 5:
                    return
                self.buds.say("sdp asked")
                if request[0] != 0x06:
                    error = bytes([0x01]) + request[1:3] + bytes([0, 2, 0, 3])
                    connection.send(error)
                    continue
                parameters = len(self.lists).to_bytes(2, "big") + self.lists + b"\0"
                connection.send(bytes([0x07]) + request[1:3] + len(parameters).to_bytes(2, "big") + parameters)


class GalaxyBuds(Peer):
    def __init__(self, address, channel, sdp=False):
        super().__init__(socket.SOCK_STREAM, socket.BTPROTO_RFCOMM, address, channel)
        if sdp:
            records = ServiceRecords(self, address, [
                serial_port_record(0x10001, 1, "Serial Port"),
                serial_port_record(0x10002, channel, "GEARMANAGER"),
                serial_port_record(0x10003, 20, "FACTORY"),
            ])
            threading.Thread(target=records.serve, daemon=True).start()
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
    peer.main(__doc__.splitlines()[0], GalaxyBuds, "channel", 1, flags=("sdp",))
