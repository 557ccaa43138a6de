//===- LineDiff.cpp - Line-by-line diff of two texts ----------------------===//

#include "klx/Support/LineDiff.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallString.h"

#include <algorithm>

using namespace klx;

LineIndex::LineIndex(llvm::StringRef text) : text(text) {
  starts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' && i + 1 < text.size())
      starts.push_back(i + 1);
  if (text.empty())
    starts.clear();
}

llvm::StringRef LineIndex::line(size_t index) const {
  size_t begin = starts[index];
  size_t end = index + 1 < starts.size() ? starts[index + 1] - 1 : text.size();
  if (end > begin && text[end - 1] == '\n')
    --end;
  return text.slice(begin, end);
}

namespace {

/// Myers' greedy forward algorithm on a[0..n) and b[0..m), returning the
/// edit script, or false when it needs more than maxEdits edits.
bool myers(const std::vector<uint64_t> &a, const std::vector<uint64_t> &b,
           unsigned maxEdits, std::vector<DiffLine::Kind> &script) {
  const int n = a.size(), m = b.size();
  const int maxD = std::min<int>(n + m, maxEdits);
  const int offset = maxD + 1;
  std::vector<int> v(2 * maxD + 3, 0);
  // trace[d] keeps v[k] for k in [-d, d] before step d: D^2 ints in all.
  std::vector<std::vector<int>> trace;
  for (int d = 0; d <= maxD; ++d) {
    trace.emplace_back(v.begin() + offset - d, v.begin() + offset + d + 1);
    for (int k = -d; k <= d; k += 2) {
      int x;
      if (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
        x = v[offset + k + 1];
      else
        x = v[offset + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y]) {
        ++x;
        ++y;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        // Walk the trace back to recover the script.
        std::vector<DiffLine::Kind> reversed;
        int cx = n, cy = m;
        for (int dd = d; dd > 0; --dd) {
          // trace[dd] holds v before step dd, indexed from k = -dd.
          const std::vector<int> &pv = trace[dd];
          auto at = [&](int k) { return pv[k + dd]; };
          int ck = cx - cy;
          int prevK;
          if (ck == -dd || (ck != dd && at(ck - 1) < at(ck + 1)))
            prevK = ck + 1;
          else
            prevK = ck - 1;
          int px = at(prevK);
          int py = px - prevK;
          while (cx > px && cy > py) {
            reversed.push_back(DiffLine::Same);
            --cx;
            --cy;
          }
          reversed.push_back(cx == px ? DiffLine::Added : DiffLine::Removed);
          cx = px;
          cy = py;
        }
        while (cx > 0 && cy > 0) {
          reversed.push_back(DiffLine::Same);
          --cx;
          --cy;
        }
        script.assign(reversed.rbegin(), reversed.rend());
        return true;
      }
    }
  }
  return false;
}

/// A line's identity under `options`: its hash, spaces left out or a
/// timing's figure ignored when asked.
uint64_t lineKey(llvm::StringRef line, const DiffOptions &options) {
  if (options.ignoreTimings && isTimingLine(line))
    return llvm::hash_value(llvm::StringRef("<timing>"));
  if (!options.ignoreWhitespace)
    return llvm::hash_value(line);
  llvm::SmallString<128> kept;
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r')
      kept.push_back(c);
  return llvm::hash_value(kept.str());
}

} // namespace

bool klx::isTimingLine(llvm::StringRef line) {
  line = line.rtrim();
  return line.contains_insensitive("compile time") ||
         line.contains_insensitive("elapsed time") ||
         (line.contains_insensitive("time") &&
          (line.ends_with(" ms") || line.ends_with(" s") ||
           line.contains(" ms ")));
}

LineDiff klx::diffLines(const LineIndex &before, const LineIndex &after,
                        unsigned maxEdits, DiffOptions options) {
  LineDiff diff;
  const size_t n = before.size(), m = after.size();
  std::vector<uint64_t> keysBefore(n), keysAfter(m);
  for (size_t i = 0; i < n; ++i)
    keysBefore[i] = lineKey(before.line(i), options);
  for (size_t i = 0; i < m; ++i)
    keysAfter[i] = lineKey(after.line(i), options);
  size_t prefix = 0;
  while (prefix < n && prefix < m && keysBefore[prefix] == keysAfter[prefix])
    ++prefix;
  size_t suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix &&
         keysBefore[n - 1 - suffix] == keysAfter[m - 1 - suffix])
    ++suffix;

  for (size_t i = 0; i < prefix; ++i)
    diff.lines.push_back({DiffLine::Same, int32_t(i), int32_t(i)});

  std::vector<uint64_t> a(keysBefore.begin() + prefix,
                          keysBefore.end() - suffix),
      b(keysAfter.begin() + prefix, keysAfter.end() - suffix);
  std::vector<DiffLine::Kind> script;
  if (!myers(a, b, maxEdits, script)) {
    diff.truncated = true;
    script.assign(a.size(), DiffLine::Removed);
    script.insert(script.end(), b.size(), DiffLine::Added);
  }
  int32_t left = prefix, right = prefix;
  for (DiffLine::Kind kind : script) {
    switch (kind) {
    case DiffLine::Same:
      diff.lines.push_back({kind, left++, right++});
      break;
    case DiffLine::Removed:
      diff.lines.push_back({kind, left++, -1});
      ++diff.removed;
      break;
    case DiffLine::Added:
      diff.lines.push_back({kind, -1, right++});
      ++diff.added;
      break;
    }
  }
  for (size_t i = 0; i < suffix; ++i)
    diff.lines.push_back({DiffLine::Same, left++, right++});
  return diff;
}

klx::CommonEnds klx::commonEnds(llvm::StringRef a, llvm::StringRef b) {
  CommonEnds ends;
  size_t shorter = std::min(a.size(), b.size());
  while (ends.prefix < shorter && a[ends.prefix] == b[ends.prefix])
    ++ends.prefix;
  while (ends.suffix < shorter - ends.prefix &&
         a[a.size() - 1 - ends.suffix] == b[b.size() - 1 - ends.suffix])
    ++ends.suffix;
  return ends;
}
