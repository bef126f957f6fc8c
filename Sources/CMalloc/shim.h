// The one header of the CMalloc system library: glibc's allocator
// settings (mallopt), which its Swift overlay leaves out. Only the
// accessoryd executable imports it.
#pragma once
#include <malloc.h>
