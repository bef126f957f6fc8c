// Loads libpulse and libdbus with dlopen at the first call of one of their
// functions (LibraryLoading.h).

#define _GNU_SOURCE  // program_invocation_short_name

#include "LibraryLoading.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

/// The libraries' sonames, by LibraryLoadingLibrary.
static const char *const sonames[] = {"libpulse.so.0", "libdbus-1.so.3"};
/// The libraries loaded, by LibraryLoadingLibrary.
static void *handles[2];

/// Says why a library cannot be used, and ends the process.
static void fail(LibraryLoadingLibrary library, const char *problem) {
  fprintf(stderr, "%s: cannot use %s: %s\n", program_invocation_short_name,
          sonames[library], problem ? problem : "no reason given");
  _exit(69);
}

void *library_loading_function(LibraryLoadingLibrary library, const char *name) {
  void *handle = __atomic_load_n(&handles[library], __ATOMIC_ACQUIRE);
  if (handle == 0) {
    // Two threads may both load it: dlopen counts the second, which is
    // harmless, and both keep the same handle.
    handle = dlopen(sonames[library], RTLD_NOW | RTLD_LOCAL);
    if (handle == 0) fail(library, dlerror());
    __atomic_store_n(&handles[library], handle, __ATOMIC_RELEASE);
  }
  void *function = dlsym(handle, name);
  if (function == 0) fail(library, dlerror());
  return function;
}
