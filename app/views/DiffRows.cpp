//===- DiffRows.cpp - What a diff pane draws of a LineDiff ----------------===//

#include "DiffRows.h"

#include <algorithm>
#include <cctype>

using namespace klx::app;

namespace {

bool isWordChar(char c) {
  return std::isalnum((unsigned char)c) || c == '_' || c == '%' || c == '.' ||
         c == '@' || c == '$' || c == '#';
}

/// [begin, end) widened so that it neither starts nor ends inside a word.
ChangedSpan widenToWords(llvm::StringRef line, size_t begin, size_t end) {
  while (begin > 0 && begin < line.size() && isWordChar(line[begin - 1]) &&
         isWordChar(line[begin]))
    --begin;
  while (end > 0 && end < line.size() && isWordChar(line[end - 1]) &&
         isWordChar(line[end]))
    ++end;
  return {uint32_t(begin), uint32_t(std::max(begin, end))};
}

} // namespace

std::pair<ChangedSpan, ChangedSpan>
klx::app::changedWords(llvm::StringRef before, llvm::StringRef after) {
  auto [prefix, suffix] = commonEnds(before, after);
  size_t longer = std::max(before.size(), after.size());
  if (longer == 0 || (prefix + suffix) * 3 < longer)
    return {};
  return {widenToWords(before, prefix, before.size() - suffix),
          widenToWords(after, prefix, after.size() - suffix)};
}

std::vector<ChangedSpan> klx::app::changedSpans(const LineDiff &diff,
                                                const LineIndex &before,
                                                const LineIndex &after) {
  std::vector<ChangedSpan> spans(diff.lines.size());
  size_t row = 0;
  while (row < diff.lines.size()) {
    if (diff.lines[row].kind == DiffLine::Same) {
      ++row;
      continue;
    }
    // One run of changes: pair its removed and added lines in order.
    std::vector<size_t> removed, added;
    for (; row < diff.lines.size() && diff.lines[row].kind != DiffLine::Same;
         ++row)
      (diff.lines[row].kind == DiffLine::Removed ? removed : added)
          .push_back(row);
    for (size_t k = 0; k < std::min(removed.size(), added.size()); ++k) {
      const DiffLine &old = diff.lines[removed[k]];
      const DiffLine &now = diff.lines[added[k]];
      auto [left, right] =
          changedWords(before.line(old.left), after.line(now.right));
      spans[removed[k]] = left;
      spans[added[k]] = right;
    }
  }
  return spans;
}

std::vector<DiffRow>
klx::app::foldUnchanged(const LineDiff &diff, unsigned context,
                        const std::set<uint32_t> &unfolded) {
  std::vector<DiffRow> rows;
  size_t count = diff.lines.size();
  bool anyChange = diff.added + diff.removed > 0;
  size_t row = 0;
  while (row < count) {
    if (diff.lines[row].kind != DiffLine::Same) {
      rows.push_back({uint32_t(row++), 0});
      continue;
    }
    size_t end = row;
    while (end < count && diff.lines[end].kind == DiffLine::Same)
      ++end;
    // Context is kept only on a side that has a change next to it.
    size_t keepBefore = row == 0 ? 0 : context;
    size_t keepAfter = end == count ? 0 : context;
    size_t run = end - row;
    if (!anyChange || run <= keepBefore + keepAfter + 1 ||
        unfolded.count(uint32_t(row + keepBefore))) {
      for (; row < end; ++row)
        rows.push_back({uint32_t(row), 0});
      continue;
    }
    for (size_t k = 0; k < keepBefore; ++k)
      rows.push_back({uint32_t(row + k), 0});
    rows.push_back(
        {uint32_t(row + keepBefore), uint32_t(run - keepBefore - keepAfter)});
    for (size_t k = end - keepAfter; k < end; ++k)
      rows.push_back({uint32_t(k), 0});
    row = end;
  }
  return rows;
}

std::vector<DiffRow> klx::app::pairChanges(const std::vector<DiffRow> &rows,
                                           const LineDiff &diff) {
  std::vector<DiffRow> paired;
  paired.reserve(rows.size());
  auto isChange = [&](const DiffRow &row) {
    return !row.folded && diff.lines[row.first].kind != DiffLine::Same;
  };
  size_t at = 0;
  while (at < rows.size()) {
    if (!isChange(rows[at])) {
      paired.push_back(rows[at++]);
      continue;
    }
    std::vector<uint32_t> removed, added;
    for (; at < rows.size() && isChange(rows[at]); ++at)
      (diff.lines[rows[at].first].kind == DiffLine::Removed ? removed : added)
          .push_back(rows[at].first);
    for (size_t k = 0; k < std::max(removed.size(), added.size()); ++k) {
      if (k < removed.size())
        paired.push_back(
            {removed[k], 0, k < added.size() ? added[k] : DiffRow::kNone});
      else
        paired.push_back({added[k], 0, DiffRow::kNone});
    }
  }
  return paired;
}

size_t klx::app::rowShowing(const std::vector<DiffRow> &rows, size_t line) {
  auto shows = [&](const DiffRow &row) {
    return row.first == line || row.paired == line ||
           (row.folded && line >= row.first && line < row.first + row.folded);
  };
  // Rows are in the diff's order, so a binary search finds most lines; a
  // paired added line sits on its removed partner's row.
  auto after = std::upper_bound(
      rows.begin(), rows.end(), line,
      [](size_t at, const DiffRow &row) { return at < row.first; });
  size_t guess = after == rows.begin() ? 0 : size_t(after - rows.begin()) - 1;
  if (guess < rows.size() && shows(rows[guess]))
    return guess;
  for (size_t i = 0; i < rows.size(); ++i)
    if (shows(rows[i]))
      return i;
  return guess;
}

llvm::StringRef DiffModel::rowText(size_t row) const {
  const DiffLine &d = lines.lines[row];
  return d.kind == DiffLine::Added ? after.line(d.right) : before.line(d.left);
}

std::shared_ptr<const DiffModel>
klx::app::buildDiffModel(std::string beforeText, std::string afterText,
                         DiffOptions options) {
  auto model = std::make_shared<DiffModel>();
  // The indexes point into the strings: built once they are in place.
  model->beforeText = std::move(beforeText);
  model->afterText = std::move(afterText);
  model->before = LineIndex(model->beforeText);
  model->after = LineIndex(model->afterText);
  model->lines = diffLines(model->before, model->after, 2000, options);
  model->spans = changedSpans(model->lines, model->before, model->after);
  for (size_t row = 0; row < model->lines.lines.size(); ++row) {
    model->longestLine =
        std::max(model->longestLine, model->rowText(row).size());
    bool change = model->lines.lines[row].kind != DiffLine::Same;
    bool previousChange =
        row > 0 && model->lines.lines[row - 1].kind != DiffLine::Same;
    if (change && !previousChange)
      model->hunks.push_back(row);
  }
  return model;
}

std::string klx::app::copiedRows(const DiffModel &model,
                                 const std::vector<DiffRow> &rows, size_t first,
                                 size_t last, DiffSide side) {
  if (first > last)
    std::swap(first, last);
  std::string text;
  auto take = [&](size_t line) {
    const DiffLine &d = model.lines.lines[line];
    if (side == DiffSide::Unified) {
      text += d.kind == DiffLine::Removed ? '-'
              : d.kind == DiffLine::Added ? '+'
                                          : ' ';
      text += model.rowText(line).str();
    } else if (side == DiffSide::Before && d.left >= 0) {
      text += model.before.line(d.left).str();
    } else if (side == DiffSide::After && d.right >= 0) {
      text += model.after.line(d.right).str();
    } else {
      return;
    }
    text += '\n';
  };
  for (size_t shown = first; shown <= last && shown < rows.size(); ++shown) {
    const DiffRow &row = rows[shown];
    size_t count = row.folded ? row.folded : 1;
    for (size_t line = row.first; line < row.first + count; ++line)
      take(line);
    if (row.paired != DiffRow::kNone)
      take(row.paired);
  }
  return text;
}
