//===- Elide.cpp - Names shortened to fit, keeping their ends -------------===//

#include "Elide.h"

#include <vector>

using namespace klx::app;

namespace {

/// Byte offsets where UTF-8 characters of `text` start, and its size.
std::vector<size_t> characterStarts(std::string_view text) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
      starts.push_back(i);
  starts.push_back(text.size());
  return starts;
}

/// The first `head` and last `tail` characters of `text` around `ellipsis`.
std::string joinEnds(std::string_view text, const std::vector<size_t> &starts,
                     size_t head, size_t tail, std::string_view ellipsis) {
  size_t count = starts.size() - 1;
  std::string out(text.substr(0, starts[head]));
  out += ellipsis;
  out += text.substr(starts[count - tail]);
  return out;
}

} // namespace

std::string
klx::app::elideMiddle(std::string_view text, std::string_view ellipsis,
                      const std::function<bool(std::string_view)> &fits) {
  if (fits(text))
    return std::string(text);
  std::vector<size_t> starts = characterStarts(text);
  size_t count = starts.size() - 1;
  auto shortened = [&](size_t kept) {
    size_t head = kept / 3;
    return joinEnds(text, starts, head, kept - head, ellipsis);
  };
  // The most characters that fit: fewer always fit when more do.
  size_t low = 0, high = count > 0 ? count - 1 : 0;
  while (low < high) {
    size_t mid = (low + high + 1) / 2;
    if (fits(shortened(mid)))
      low = mid;
    else
      high = mid - 1;
  }
  return low < 2 ? std::string(ellipsis) : shortened(low);
}
