//===- OpenLibrary.cpp - The first library of a list that opens -----------===//

#include "OpenLibrary.h"

#include <cstdlib>
#include <dlfcn.h>
#include <vector>

using namespace klx::rt;

OpenedLibrary
klx::rt::openFirstLibrary(const char *envVar,
                          std::initializer_list<const char *> names) {
  std::vector<std::string> candidates;
  // A path the user gave is the one meant: the defaults are not tried.
  if (const char *path = envVar ? std::getenv(envVar) : nullptr; path && *path)
    candidates.push_back(path);
  else
    candidates.assign(names.begin(), names.end());
  OpenedLibrary opened;
  for (const std::string &candidate : candidates) {
    opened.path = candidate;
    if ((opened.handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)))
      return opened;
    const char *why = dlerror();
    opened.why = why ? why : "unknown reason";
  }
  return opened;
}
