// The one header of the CDBus system library: libdbus, the reference D-Bus
// client library. Only the files under Sources/BlueZ/Internals import it.
#pragma once
#include <dbus/dbus.h>
