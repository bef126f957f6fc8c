#!/usr/bin/python3
"""Writes the seed corpus of each fuzz target into Fuzz/corpus/TARGET/.

The seeds are the inputs the parsers meet in use: control requests acctl
sends, the shipped policies, config files, acctl command lines, BlueZ's
signals and GetManagedObjects replies in D-Bus's wire format, AirPods'
packets and Galaxy Buds' frames. Run it again after a protocol change;
it needs python3-gi (GLib's D-Bus serializer) for the BlueZ messages.
"""

import os
import pathlib
import shutil
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "Tests" / "Emulators"))
from galaxybuds import frame, legacy_frame  # noqa: E402

from gi.repository import Gio, GLib  # noqa: E402

CORPUS = HERE / "corpus"


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (folder / name).write_bytes(data)


def control_requests():
    lines = {
        "update": '{"jsonrpc":"2.0","id":1,"method":"accessory.update","params":'
        '{"accessory":"AA:BB:CC:DD:EE:01","changes":{"devicePlacement":"inEar",'
        '"primaryAudioSourceDeviceIdentifier":"11:22:33:44:55:66"}}}',
        "register": '{"jsonrpc":"2.0","id":"r","method":"accessory.register","params":'
        '{"accessory":"AA:BB:CC:DD:EE:01","configuration":{"deviceCapabilities":'
        '["audioSwitching","placement"],"devicePlacement":"offHead"},'
        '"placementSource":"auto"}}',
        "pair": '{"jsonrpc":"2.0","id":2,"method":"accessory.pair","params":'
        '{"address":"AA:BB:CC:DD:EE:01","name":"Buds","descriptor":'
        '{"bluetoothServiceUUID":"180F","bluetoothNameSubstring":"Buds",'
        '"supportedOptions":["bluetoothPairingLE"]}}}',
        "picker": '{"jsonrpc":"2.0","id":3,"method":"picker.show","params":'
        '{"items":[{"name":"Buds","descriptor":{"bluetoothCompanyIdentifier":76},'
        '"setupOptions":["rename"],"migration":false}]}}',
        "discovery": '{"jsonrpc":"2.0","id":4,"method":"discovery.list","params":'
        '{"descriptors":[{"bluetoothServiceUUID":"110B"},'
        '{"bluetoothManufacturerDataBlob":"4c00","bluetoothManufacturerDataMask":"ffff"}]}}',
        "route": '{"jsonrpc":"2.0","id":5,"method":"route.get","params":{"explain":true}}',
        "notification": '{"jsonrpc":"2.0","method":"events.subscribe"}',
        "escapes": '{"jsonrpc":"2.0","id":-1.5e3,"method":"accessory.rename",'
        '"params":{"accessory":"AA:BB:CC:DD:EE:01","name":"\\u00e9\\ud83c\\udfa7\\n"}}',
        "bad-version": '{"jsonrpc":"1.0","id":null,"method":"x"}',
        "not-object": "[1,2,{\"a\":[true,false,null]}]",
    }
    for name, line in lines.items():
        write("control-request", name, line)


def policies():
    for path in sorted((HERE.parent / "policies").glob("*.json5")):
        write("policy", path.name, path.read_bytes())


def configurations():
    write(
        "configuration",
        "full.json5",
        "// accessoryd's settings\n{\n  server: 'unix:/run/user/1000/pulse/native',\n"
        "  policy: '/etc/accessoryd/policy.json5',\n  stateDirectory: '/tmp/state',\n"
        "  socket: '/tmp/control.sock',\n  hostAddresses: ['11:22:33:44:55:66',],\n"
        "  logLevel: 'debug',\n}\n",
    )
    write("configuration", "empty.json5", "{}")
    write("configuration", "wrong-type.json5", '{"hostAddresses": "11:22"}')


def acctl_lines():
    lines = {
        "update": ["update", "AA:BB:CC:DD:EE:01", "--placement", "inEar"],
        "register": [
            "register", "AA:BB:CC:DD:EE:01", "--capabilities",
            "audioSwitching,placement", "--placement-source", "none",
        ],
        "pair": ["pair", "AA:BB:CC:DD:EE:01", "--name", "Buds", "--service-uuid", "180F"],
        "route": ["route", "--explain", "--json"],
        "events": ["events", "--reconnect"],
        "help": ["help", "update"],
        "current": ["current", "AA:BB:CC:DD:EE:01", "--json"],
        "list": ["list", "--socket", "sock"],
    }
    for name, arguments in lines.items():
        write("acctl-arguments", name, "\0".join(arguments))


def wire(message):
    message.set_serial(1)
    return message.to_blob(Gio.DBusCapabilityFlags.NONE)


def device_properties(address, connected):
    return {
        "Address": GLib.Variant("s", address),
        "Alias": GLib.Variant("s", "Studio Buds"),
        "Adapter": GLib.Variant("o", "/org/bluez/hci0"),
        "Connected": GLib.Variant("b", connected),
        "Paired": GLib.Variant("b", True),
        "UUIDs": GLib.Variant(
            "as",
            ["0000110b-0000-1000-8000-00805f9b34fb",
             "74ec2172-0bad-4d01-8f77-997b2be0722a"],
        ),
        "Modalias": GLib.Variant("s", "bluetooth:v004Cp200Ed0100"),
        "ManufacturerData": GLib.Variant("a{qv}", {76: GLib.Variant("ay", b"\x07\x19")}),
        "ServiceData": GLib.Variant(
            "a{sv}", {"0000fe2c-0000-1000-8000-00805f9b34fb": GLib.Variant("ay", b"\x01")}
        ),
    }


def bluez_messages():
    adapter = {
        "Address": GLib.Variant("s", "00:AA:01:00:00:01"),
        "Name": GLib.Variant("s", "host"),
        "Powered": GLib.Variant("b", True),
        "Discovering": GLib.Variant("b", False),
    }
    owner = Gio.DBusMessage.new_signal(
        "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged")
    owner.set_sender("org.freedesktop.DBus")
    owner.set_body(GLib.Variant("(sss)", ("org.bluez", "", ":1.7")))

    call = Gio.DBusMessage.new_method_call(
        "org.bluez", "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
    call.set_serial(1)
    reply = call.new_method_reply()
    reply.set_sender(":1.7")
    reply.set_body(GLib.Variant("(a{oa{sa{sv}}})", ({
        "/org/bluez/hci0": {"org.bluez.Adapter1": adapter},
        "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01": {
            "org.bluez.Device1": device_properties("AA:BB:CC:DD:EE:01", True)},
    },)))

    added = Gio.DBusMessage.new_signal(
        "/", "org.freedesktop.DBus.ObjectManager", "InterfacesAdded")
    added.set_sender(":1.7")
    added.set_body(GLib.Variant("(oa{sa{sv}})", (
        "/org/bluez/hci0/dev_aa_bb_cc_dd_ee_02",
        {"org.bluez.Device1": device_properties("aa:bb:cc:dd:ee:02", False)})))

    changed = Gio.DBusMessage.new_signal(
        "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01",
        "org.freedesktop.DBus.Properties", "PropertiesChanged")
    changed.set_sender(":1.7")
    changed.set_body(GLib.Variant("(sa{sv}as)", (
        "org.bluez.Device1", {"Connected": GLib.Variant("b", False)}, ["Alias"])))

    removed = Gio.DBusMessage.new_signal(
        "/", "org.freedesktop.DBus.ObjectManager", "InterfacesRemoved")
    removed.set_sender(":1.7")
    removed.set_body(GLib.Variant("(oas)", (
        "/org/bluez/hci0", ["org.bluez.Adapter1"])))

    write("bluez-messages", "managed-objects", wire(owner) + wire(reply))
    write("bluez-messages", "signals",
          wire(owner) + wire(reply) + wire(added) + wire(changed) + wire(removed))
    write("bluez-messages", "added-alone", wire(added))


def pieces(*packets):
    return b"".join(bytes([len(p)]) + p for p in packets)


def aap_packets():
    header = bytes.fromhex("04000400")
    write("aap-packets", "wear", pieces(
        header + bytes.fromhex("06000000"),
        header + bytes.fromhex("06000100"),
        header + bytes.fromhex("06000001"),
        header + bytes.fromhex("06000202")))
    write("aap-packets", "battery", pieces(
        header + bytes.fromhex("0400") + bytes([3])
        + bytes.fromhex("0201640201") + bytes.fromhex("0401500101")
        + bytes.fromhex("0801320401")))
    write("aap-packets", "other", pieces(
        bytes.fromhex("01000400000000000000"), header + bytes.fromhex("2b00aabb")))


def galaxy_buds_stream():
    # The first byte picks the model: the index in GalaxyBudsModel.allCases
    # (0 the 2019 Buds, 1 the Buds+, 4 the Buds2, 13 renamed later buds).
    buds2 = b"\x04"
    extended = frame(0x61, bytes([10, 0x00, 90, 80, 0x01, 0x00, 0x11, 50]) + bytes(28) + b"\x15")
    update = frame(0x60, bytes([10, 90, 80, 0x01, 0x00, 0x13, 50, 0x11]))
    write("galaxy-buds-stream", "status", buds2 + pieces(extended, update))
    write("galaxy-buds-stream", "split", b"\x01" + pieces(update[:5], update[5:], b"\x00\xfd"))
    legacy = legacy_frame(0x61, bytes([0x03, 0x00, 70, 95, 0x01, 0x00, 0x11, 0x00]))
    legacy_update = legacy_frame(0x60, bytes([0x00, 70, 95, 0x01, 0x00, 0x10]))
    write("galaxy-buds-stream", "legacy", b"\x00" + pieces(legacy, legacy_update[:4], legacy_update[4:]))


def main():
    if CORPUS.exists():
        shutil.rmtree(CORPUS)
    control_requests()
    policies()
    configurations()
    acctl_lines()
    bluez_messages()
    aap_packets()
    galaxy_buds_stream()
    for folder in sorted(CORPUS.iterdir()):
        print(f"{folder.name}: {len(list(folder.iterdir()))} seeds")


if __name__ == "__main__":
    main()
