//===- Elide.cpp - Names shortened to fit, keeping their ends -------------===//

#include "Elide.h"

#include <optional>
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

/// Where `text`'s words start after the first: at each separator ("-",
/// ".", "_", " ", "#"), which stays with the word after it. A module's
/// name after " @" is one word: "convert-gpu-to-nvvm @main_kernel_0".
std::vector<size_t> wordStarts(std::string_view text) {
  constexpr std::string_view kSeparators = "-._ #";
  std::vector<size_t> starts;
  for (size_t i = 1; i < text.size(); ++i) {
    if (kSeparators.find(text[i]) == std::string_view::npos ||
        kSeparators.find(text[i - 1]) != std::string_view::npos)
      continue;
    starts.push_back(i);
    if (text.substr(i, 2) == " @")
      break;
  }
  return starts;
}

/// The whole first and last words around `ellipsis` that fit, keeping the
/// most characters (more of the end, where as many): "convert...-to-nvvm".
std::optional<std::string>
elideWords(std::string_view text, std::string_view ellipsis,
           const std::function<bool(std::string_view)> &fits) {
  std::vector<size_t> starts = wordStarts(text);
  std::optional<std::string> best;
  size_t bestKept = 0;
  for (size_t head = 0; head < starts.size(); ++head)
    for (size_t tail = starts.size(); tail-- > head + 1;) {
      size_t kept = starts[head] + text.size() - starts[tail];
      std::string candidate(text.substr(0, starts[head]));
      candidate += ellipsis;
      candidate += text.substr(starts[tail]);
      if (!fits(candidate))
        break; // longer tails fit less
      if (kept >= bestKept) {
        best = std::move(candidate);
        bestKept = kept;
      }
    }
  return best;
}

/// The last word whole after `ellipsis`, and as much of the start as fits
/// before it: "transfo....match".
std::optional<std::string>
elideToLastWord(std::string_view text, std::string_view ellipsis,
                const std::vector<size_t> &characters,
                const std::function<bool(std::string_view)> &fits) {
  std::vector<size_t> starts = wordStarts(text);
  if (starts.empty())
    return std::nullopt;
  std::string_view tail = text.substr(starts.back());
  std::optional<std::string> best;
  for (size_t c = 1; c < characters.size() && characters[c] < starts.back();
       ++c) {
    std::string candidate(text.substr(0, characters[c]));
    candidate += ellipsis;
    candidate += tail;
    if (!fits(candidate))
      break;
    best = std::move(candidate);
  }
  return best;
}

} // namespace

std::string
klx::app::elideMiddle(std::string_view text, std::string_view ellipsis,
                      const std::function<bool(std::string_view)> &fits) {
  if (fits(text))
    return std::string(text);
  // Whole words where they fit; a pass name cut mid-word told a class
  // little ("conv...nvvm").
  if (std::optional<std::string> words = elideWords(text, ellipsis, fits))
    return *words;
  std::vector<size_t> starts = characterStarts(text);
  if (std::optional<std::string> last =
          elideToLastWord(text, ellipsis, starts, fits))
    return *last;
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
