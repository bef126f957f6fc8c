// The one header of the CPulse system library: libpulse's asynchronous API.
// Only the PulseAudio module imports it.
#pragma once
#include <pulse/pulseaudio.h>
