//===- Elide.h - Names shortened to fit, keeping their ends -----*- C++ -*-===//
//
// Step names share long prefixes (transform.structured.match,
// transform.structured.tile_using_for, ...): cut at the right edge they
// all read "transform.stru" in a narrow pane. Cutting in the middle keeps
// the end that tells them apart.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_ELIDE_H
#define KLX_APP_VIEWS_ELIDE_H

#include <functional>
#include <string>
#include <string_view>

namespace klx::app {

/// `text` if fits(text); else whole words from its start and its end
/// around `ellipsis`, where they fit ("convert...-to-nvvm": words start at
/// "-", ".", "_", " " and "#", and a module after " @" is one word); else
/// its last word whole after as much of its start as fits
/// ("transfo....match"); else its first and last characters, as many as
/// fit (a third from the start, the rest from the end); just the ellipsis
/// when not even one character on each side fits. Cuts fall between UTF-8
/// characters.
std::string elideMiddle(std::string_view text, std::string_view ellipsis,
                        const std::function<bool(std::string_view)> &fits);

} // namespace klx::app

#endif // KLX_APP_VIEWS_ELIDE_H
