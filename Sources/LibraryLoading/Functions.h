// The body of every function of PulseFunctions.c and DBusFunctions.c: the
// library's own function, looked up once and kept.
#pragma once

#include "LibraryLoading.h"

/// The library's function `name`, of the type its header declares.
#define LIBRARY_FUNCTION(library, name)                                       \
  ({                                                                          \
    static __typeof__(&name) kept;                                            \
    __typeof__(&name) function = __atomic_load_n(&kept, __ATOMIC_ACQUIRE);    \
    if (function == 0) {                                                      \
      function = (__typeof__(&name))library_loading_function(library, #name); \
      __atomic_store_n(&kept, function, __ATOMIC_RELEASE);                    \
    }                                                                         \
    function;                                                                 \
  })
