//===- TextSearch.cpp - Find in a text, and across the steps --------------===//

#include "TextSearch.h"

#include <algorithm>
#include <cstdint>

using namespace klx::app;

namespace {

/// The first case-insensitive occurrence of `query` in `line` at or after
/// `from`, or npos.
size_t findInsensitive(llvm::StringRef line, llvm::StringRef query,
                       size_t from) {
  if (query.size() > line.size())
    return llvm::StringRef::npos;
  for (size_t at = from; at + query.size() <= line.size(); ++at)
    if (line.substr(at, query.size()).equals_insensitive(query))
      return at;
  return llvm::StringRef::npos;
}

} // namespace

std::vector<TextMatch>
klx::app::findMatches(size_t lineCount,
                      llvm::function_ref<llvm::StringRef(size_t)> lineAt,
                      llvm::StringRef query, size_t limit) {
  std::vector<TextMatch> matches;
  if (query.empty())
    return matches;
  for (size_t line = 0; line < lineCount && matches.size() < limit; ++line) {
    llvm::StringRef text = lineAt(line);
    // Most lines hold no match: one scan decides, as contains_insensitive
    // is faster than walking every column.
    if (!text.contains_insensitive(query))
      continue;
    for (size_t at = findInsensitive(text, query, 0);
         at != llvm::StringRef::npos && matches.size() < limit;
         at = findInsensitive(text, query, at + query.size()))
      matches.push_back({line, at, query.size()});
  }
  return matches;
}

std::vector<TextMatch> klx::app::findMatches(const LineIndex &text,
                                             llvm::StringRef query,
                                             size_t limit) {
  return findMatches(
      text.size(), [&](size_t line) { return text.line(line); }, query, limit);
}

StepPresence klx::app::findInSteps(const PipelineRun &run,
                                   llvm::StringRef query) {
  StepPresence presence;
  presence.lines.assign(run.snapshots.size(), -1);
  if (query.empty())
    return presence;
  bool present = false;
  for (size_t step = 0; step < run.snapshots.size(); ++step) {
    const Snapshot &snapshot = run.snapshots[step];
    // The cubin step's text is ptxas's report, not code: a word missing
    // from it did not go away.
    if (snapshot.text.empty() || snapshot.failed ||
        snapshot.kind == EmitKind::Cubin)
      continue;
    int lines = 0;
    llvm::StringRef rest = snapshot.text;
    while (!rest.empty()) {
      auto [line, next] = rest.split('\n');
      lines += line.contains_insensitive(query);
      rest = next;
    }
    presence.lines[step] = lines;
    if ((lines > 0) != present) {
      present = lines > 0;
      presence.changes.push_back({int(step), present});
    }
  }
  return presence;
}

std::string StepPresence::Change::describe(const PipelineRun &run) const {
  return (appears ? "appears at " : "gone at ") +
         run.snapshots[step].displayName();
}

std::string StepPresence::summary(const PipelineRun &run) const {
  if (changes.empty())
    return "in no step";
  std::string text;
  for (const Change &change : changes)
    text += (text.empty() ? "" : ", ") + change.describe(run);
  return text;
}
