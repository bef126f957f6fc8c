// LibraryLoading: libpulse and libdbus loaded at the first call of one of
// their functions, not when the program starts. PulseFunctions.c and
// DBusFunctions.c define each function the libraries export, under its own
// name; the first call loads the library with dlopen and every call goes
// on to the library's own function. accessoryd called as acctl never
// calls them, so it starts without loading either library or the two dozen
// under them.
#pragma once

/// A library loaded at its first call.
typedef enum {
  /// libpulse.so.0, PulseAudio's client library.
  LibraryLoadingPulse = 0,
  /// libdbus-1.so.3, the reference D-Bus library.
  LibraryLoadingDBus = 1,
} LibraryLoadingLibrary;

/// Returns a function of a library, loading the library the first time.
///
/// A library that cannot be loaded, or that lacks the function, ends the
/// process with exit status 69 (EX_UNAVAILABLE) and a message on standard
/// error naming the library and why: it is a dependency of the package,
/// so only a broken installation lacks it.
void *library_loading_function(LibraryLoadingLibrary library, const char *name);
