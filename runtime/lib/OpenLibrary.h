//===- OpenLibrary.h - The first library of a list that opens ---*- C++ -*-===//
//
// Private to runtime/lib: how klx-run opens the vendor libraries it calls
// without linking them (the CUDA driver, cuBLAS, cuBLASLt, the HIP
// runtime), so that one binary runs, and says what is missing, on any
// machine.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_LIB_OPENLIBRARY_H
#define KLX_RUNTIME_LIB_OPENLIBRARY_H

#include <initializer_list>
#include <string>

namespace klx::rt {

struct OpenedLibrary {
  void *handle = nullptr; // dlopen's, or null when none opened
  std::string path;       // the one that opened, or the last one tried
  std::string why;        // dlerror's words for the last one tried
};

/// dlopen (RTLD_NOW | RTLD_LOCAL) of `$envVar` when it is set and not
/// empty, else of each of `names` in turn, until one opens.
OpenedLibrary openFirstLibrary(const char *envVar,
                               std::initializer_list<const char *> names);

} // namespace klx::rt

#endif // KLX_RUNTIME_LIB_OPENLIBRARY_H
