//===- AppController.cpp - Applies commands, runs compiles ----------------===//

#include "AppController.h"
#include "Artifacts.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace klx;
using namespace klx::app;

std::vector<int> klx::app::visibleSteps(const PipelineRun &run,
                                        bool hideUnchanged) {
  std::vector<int> steps;
  for (size_t i = 0; i < run.snapshots.size(); ++i) {
    const Snapshot &s = run.snapshots[i];
    if (!hideUnchanged || i == 0 || s.changed || s.failed ||
        s.kind != EmitKind::MLIR)
      steps.push_back(i);
  }
  return steps;
}

const PipelineRun *klx::app::resultRun(const AppState &state, bool &stale) {
  stale = state.run && !state.run->succeeded() && state.lastGoodRun;
  return stale ? state.lastGoodRun.get() : state.run.get();
}

int klx::app::irStepFor(const PipelineRun &run, int selected) {
  if (run.snapshots.empty())
    return -1;
  int index = std::clamp<int>(selected, 0, int(run.snapshots.size()) - 1);
  // A backend step runs once per gpu.module: its IR is its own module's
  // LLVM IR, not the one of the module compiled just before it.
  const std::string &anchor = run.snapshots[index].anchor;
  bool backend = run.snapshots[index].kind != EmitKind::MLIR;
  auto otherModule = [&](const Snapshot &s) {
    return backend && s.kind == EmitKind::LLVM && s.anchor != anchor;
  };
  while (index > 0 &&
         (!run.snapshots[index].isIR() || otherModule(run.snapshots[index])))
    --index;
  return index;
}

int klx::app::textStepFor(const PipelineRun &run, const ViewState &view) {
  int index = irStepFor(run, view.selected);
  if (index < 0 || view.layout != LayoutName::Teach ||
      size_t(view.selected) >= run.snapshots.size())
    return index;
  const Snapshot &selected = run.snapshots[view.selected];
  bool code = selected.kind == EmitKind::PTX ||
              selected.kind == EmitKind::SASS ||
              selected.kind == EmitKind::AMDGCN;
  return code && !selected.text.empty() ? view.selected : index;
}

size_t klx::app::shownModule(const PipelineRun &run, const ViewState &view) {
  for (size_t i = 0; i < run.artifacts.size(); ++i)
    if (run.artifacts[i].moduleName == view.module)
      return i;
  return 0;
}

int klx::app::comparisonStep(const ViewState &view) {
  if (view.compareWith >= 0)
    return view.compareWith;
  return view.selected > 0 ? view.selected - 1 : 0;
}

AppController::AppController(ControllerOptions options,
                             std::function<void()> wake)
    : options(std::move(options)), autosave(this->options.autosaveDir),
      worker(wake, this->options.compileLimitSeconds),
      compareWorker(wake, this->options.compileLimitSeconds),
      gpuWorker(runnerPath(), wake), sweepWorker(wake) {
  if (!this->options.samplesDir.empty())
    appState.samples = scanSamples(this->options.samplesDir);
  appState.recentFiles = this->options.recentFiles;
  if (!this->options.lessonsDir.empty())
    appState.lesson.lessons = scanLessons(this->options.lessonsDir);
  pendingStep = this->options.initialStep;
  appState.view.focusedRole = this->options.initialRole;
}

void AppController::runOnGpu(const std::string &sizeText, bool trace,
                             bool variantB) {
  // A record that did not reach the GPU still goes in the history: the
  // pane shows why next to the runs that did.
  auto refuse = [&](std::string why) {
    GpuRunRecord record;
    record.label = llvm::sys::path::filename(appState.source.path).str();
    record.status = "not_run";
    record.message = std::move(why);
    appState.gpuRuns.push_back(std::move(record));
  };
  if (appState.gpu.availability != GpuStatus::Availability::Available)
    return refuse(appState.gpu.reason.empty() ? "no GPU (yet)"
                                              : appState.gpu.reason);
  std::shared_ptr<const PipelineRun> run =
      variantB ? appState.compare.run : appState.run;
  if (!run)
    return refuse(variantB ? "the compared variant has not compiled yet"
                           : "nothing compiled yet");
  std::string variant =
      variantB ? appState.compare.variant : definesText(appState.defines);
  Defines defines = variantB
                        ? applyVariant(appState.defines, appState.compare.spec)
                        : appState.defines;
  std::optional<ProblemSize> asked;
  if (!sizeText.empty()) {
    asked = parseProblemSize(sizeText, /*allowSpaces=*/true);
    if (!asked)
      return refuse("size \"" + sizeText +
                    "\" is not MxNxK (a gemm) or N (a gather)");
  }
  // Said at once; the worker makes the bundle (exportBundle).
  llvm::Expected<ProblemSize> fits = bundleSize(*run, asked);
  if (!fits)
    return refuse(llvm::toString(fits.takeError()));
  ProblemSize size = *fits;
  GpuRunRequest request;
  bool otherFile = variantB && !appState.compare.spec.file.empty();
  request.label =
      llvm::formatv("{0}{1} {2}", llvm::sys::path::filename(run->fileName),
                    variant.empty() || otherFile ? std::string()
                                                 : " -D " + variant,
                    size.str())
          .str();
  request.variant = variant;
  request.run = run;
  request.bundle.size = size;
  // The manifest says which variant it is, as klx export's does.
  request.bundle.defines = defines;
  if (trace) {
    request.bundle.trace = true;
    request.bundle.options = compileOptions(std::move(defines));
    request.label += " (timeline)";
  }
  gpuWorker.submit(std::move(request));
  appState.gpu.running = true;
  // The Run pane shares its window with the Lesson pane.
  showPanel(Pane::Run);
}

void AppController::showPanel(Pane pane) {
  std::vector<RaiseRequest> &raised = appState.view.raised;
  raised.push_back({pane, ++appState.view.raiseSerial});
  // Only requests since the last frame count; a few are kept.
  if (raised.size() > 8)
    raised.erase(raised.begin());
}

void AppController::setLayout(const std::string &name) {
  std::optional<LayoutName> layout = parseLayoutName(name);
  if (!layout) {
    setMessage("unknown layout '" + name + "' (explore, diff or teach)",
               /*isError=*/true);
    return;
  }
  ViewState &view = appState.view;
  view.layout = *layout;
  view.enlargedWindow.clear();
  ++view.layoutGeneration;
  // Diff is the IR diff, large; Teach is read from the back of a room.
  if (*layout == LayoutName::Diff)
    view.showDiff = true;
  if (*layout == LayoutName::Teach)
    view.zoomPercent = std::max(view.zoomPercent, kTeachZoomPercent);
}

void AppController::saveArtifactTo(ArtifactKind kind, const std::string &path) {
  if (llvm::Error error = saveArtifact(appState, kind, path))
    return setMessage(llvm::toString(std::move(error)), /*isError=*/true);
  setMessage("saved " + artifactLabel(kind).str() + " to " + path,
             /*isError=*/false);
}

void AppController::setMessage(std::string message, bool isError) {
  // Any other message replaces one about the compile in flight.
  messageAwaitsCompile = false;
  appState.message = std::move(message);
  appState.messageIsError = isError;
}

void AppController::openFile(const std::string &path) {
  // A file too large to be a kernel, a directory, a pipe or a device stays
  // out of the editor (a window must not block reading a pipe).
  llvm::Expected<std::string> text = readSourceFile(path, StreamInput::Refuse);
  if (!text) {
    // Keep what is open: nothing the user typed is lost to a bad path.
    setMessage("cannot open " + path + ": " + llvm::toString(text.takeError()),
               true);
    return;
  }
  SourceBuffer source;
  source.path = path;
  source.diskText = std::move(*text);
  source.text = source.diskText;
  if (options.autosave) {
    if (std::optional<std::string> saved = autosave.load(path)) {
      if (*saved != source.diskText) {
        source.text = std::move(*saved);
        source.restoredFromAutosave = true;
      } else {
        autosave.discard(path);
      }
    }
  }
  std::string previous = appState.source.path;
  bool anotherFile =
      previous != path && !(llvm::sys::fs::equivalent(previous, path));
  // -D values belong to the file they were set for, unless pinned; the
  // last good result is that file's.
  std::string cleared;
  if (anotherFile && !previous.empty() && !appState.defines.empty() &&
      !appState.definesPinned) {
    cleared = definesText(appState.defines);
    appState.defines.clear();
  }
  if (anotherFile) {
    appState.lastGoodRun.reset();
    appState.lastGoodTimeline.reset();
  }
  appState.source = std::move(source);
  appState.view.focusedSourceLine = 0;
  // The latest first, once each, as the path was opened.
  std::vector<std::string> &recent = appState.recentFiles;
  llvm::erase(recent, path);
  recent.insert(recent.begin(), path);
  if (recent.size() > kRecentFiles)
    recent.resize(kRecentFiles);
  // A sample with a lesson page brings its page into the Lesson pane: the
  // first page about it, unless the page shown is already about it (a
  // later page on the same sample, as the ladder's, opens it itself).
  const std::vector<LessonEntry> &lessons = appState.lesson.lessons;
  auto isAbout = [&](size_t i) {
    llvm::SmallString<256> sample(options.lessonsDir);
    llvm::sys::path::append(sample, "..", "..", lessons[i].sample);
    return !lessons[i].sample.empty() &&
           llvm::sys::fs::equivalent(sample, path);
  };
  int current = appState.lesson.current;
  if (current < 0 || size_t(current) >= lessons.size() || !isAbout(current))
    for (size_t i = 0; i < lessons.size(); ++i)
      if (isAbout(i)) {
        openLesson(lessons[i].path, int(i));
        break;
      }
  setMessage(appState.source.restoredFromAutosave
                 ? "restored unsaved edits of " + path +
                       " (Revert goes back to the file)"
                 : "opened " + path,
             false);
  if (!cleared.empty())
    setMessage(appState.message + "; -D " + cleared + " cleared (they were " +
                   "for " + llvm::sys::path::filename(previous).str() +
                   "; pin them in the Passes pane to keep them)",
               false);
  recompileAt = -1;
  startCompile();
}

void AppController::editSource(std::string text, double now) {
  if (text == appState.source.text)
    return;
  appState.source.text = std::move(text);
  recompileAt = now + options.typingPause;
  if (!options.autosave || appState.source.path.empty())
    return;
  if (appState.source.modified())
    autosave.store(appState.source.path, appState.source.text);
  else
    autosave.discard(appState.source.path);
}

CompileOptions AppController::compileOptions(Defines defines) const {
  CompileOptions compile;
  compile.target = appState.target;
  compile.defines = std::move(defines);
  compile.maxSnapshotBytes = options.maxSnapshotBytes;
  compile.ptxasPath = options.ptxasPath;
  compile.nvdisasmPath = options.nvdisasmPath;
  return compile;
}

void AppController::startCompile() {
  CompileRequest request;
  request.id = latestRequestId = nextRequestId++;
  request.source = appState.source.text;
  request.fileName =
      appState.source.path.empty() ? "untitled.mlir" : appState.source.path;
  request.options = compileOptions(appState.defines);
  request.options.stopAfter = appState.stopAfter;
  if (appState.compare.active() && appState.compare.modelSize)
    request.options.modelSize = *appState.compare.modelSize;
  worker.submit(std::move(request));
  startCompareCompile();
  appState.compiling = true;
  appState.compilingFile = appState.source.path;
  appState.compileStartedAt =
      std::chrono::duration<double>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count();
  if (chosenStep.empty() && appState.run && appState.run->succeeded() &&
      appState.view.selected < int(appState.run->snapshots.size())) {
    // Keep the user on the step shown across recompiles.
    chosenStep = appState.run->snapshots[appState.view.selected].label(
        appState.run->severalModules());
  }
}

void AppController::startCompareCompile() {
  CompareState &compare = appState.compare;
  if (!compare.active())
    return;
  CompileRequest request;
  request.id = latestCompareId = nextRequestId++;
  bool otherFile = !compare.spec.file.empty();
  request.source = otherFile ? compare.fileText : appState.source.text;
  request.fileName = otherFile                      ? compare.spec.file
                     : appState.source.path.empty() ? "untitled.mlir"
                                                    : appState.source.path;
  // Another file keeps the -D values that apply to both.
  request.options =
      compileOptions(applyVariant(appState.defines, compare.spec));
  request.options.stopAfter = appState.stopAfter;
  if (compare.modelSize)
    request.options.modelSize = *compare.modelSize;
  compareWorker.submit(std::move(request));
  compare.compiling = true;
}

void AppController::equalizeCompareWork() {
  CompareState &compare = appState.compare;
  if (!compare.active() || !appState.run || !compare.run || busy() ||
      compare.compiling)
    return;
  std::optional<ModelSize> common =
      commonModelSize(*appState.run, *compare.run);
  if (!common)
    return;
  // Once set, the bound stays: a run still on the old one is recompiled,
  // not enlarged again.
  if (compare.modelSize && compare.modelSize->tiles == common->tiles &&
      compare.modelSize->kSteps == common->kSteps)
    return;
  compare.modelSize = common;
  // The run shown compiles again only if it covered less (and B with it);
  // else B alone.
  std::optional<ModelSize> shown = timelineBound(*appState.run);
  if (shown && shown->tiles == common->tiles && shown->kSteps == common->kSteps)
    startCompareCompile();
  else
    startCompile();
}

void AppController::setDefines(const std::string &text) {
  Defines defines;
  if (!llvm::StringRef(text).trim().empty()) {
    std::string error;
    std::optional<VariantSpec> spec = parseVariantSpec(text, error);
    if (!spec || !spec->file.empty())
      return setMessage(spec ? "-D expects NAME=VALUE[, NAME=VALUE], not a "
                               "file: " +
                                   text
                             : "-D: " + error,
                        true);
    defines = spec->defines;
  }
  if (defines == appState.defines)
    return;
  appState.defines = std::move(defines);
  setMessage(appState.defines.empty()
                 ? "compiling with the file's klx.params"
                 : "compiling with -D " + definesText(appState.defines),
             false);
  messageAwaitsCompile = true;
  if (!appState.source.path.empty() || !appState.source.text.empty())
    startCompile();
}

void AppController::setCompare(const std::string &text) {
  CompareState &compare = appState.compare;
  // The run shown was simulated over the comparison's bound: back to its
  // own once the comparison ends or changes.
  bool commonBound = compare.modelSize.has_value();
  if (llvm::StringRef(text).trim().empty()) {
    uint64_t serial = compare.serial;
    compare = CompareState();
    compare.serial = serial;
    setMessage("compare closed", false);
    if (commonBound)
      startCompile();
    return;
  }
  std::string error;
  std::optional<VariantSpec> spec = parseVariantSpec(text, error);
  if (!spec)
    return setMessage("compare: " + error, true);
  std::string fileText;
  if (!spec->file.empty()) {
    llvm::Expected<std::string> text =
        readSourceFile(spec->file, StreamInput::Refuse);
    if (!text)
      return setMessage("compare: cannot open " + spec->file + ": " +
                            llvm::toString(text.takeError()),
                        true);
    fileText = std::move(*text);
  }
  // The serial keeps counting: a pane's work keyed on it must not take a
  // closed comparison's result for a new one.
  uint64_t serial = compare.serial;
  compare = CompareState();
  compare.serial = serial;
  compare.variant = spec->text;
  compare.spec = std::move(*spec);
  compare.fileText = std::move(fileText);
  setMessage("comparing with " + compare.variant, false);
  if (commonBound)
    startCompile(); // and B with it
  else
    startCompareCompile();
}

void AppController::selectStepNamed(const std::string &name) {
  // A step of the compile in flight (a link that set -D values first).
  if (busy()) {
    pendingStep = name;
    return;
  }
  // A step that runs on each gpu.module: the module the user picked.
  if (appState.run)
    if (int found = appState.run->findStep(name, appState.view.module);
        found >= 0)
      return chooseStep(found);
  setMessage("no step named " + name + " in this run", true);
}

void AppController::takeResult(CompileResult result) {
  if (result.id != latestRequestId)
    return; // superseded by a newer edit
  appState.run = std::move(result.run);
  appState.timeline = std::move(result.timeline);
  if (appState.run->succeeded()) {
    appState.lastGoodRun = appState.run;
    appState.lastGoodTimeline = appState.timeline;
  }
  ++appState.runSerial;
  appState.compiling = false;
  appState.lastCompileMs = appState.run->totalMs;
  const std::vector<Snapshot> &snapshots = appState.run->snapshots;
  // By default the last step that produced something (SASS may be
  // skipped where nvdisasm is missing).
  int selected = int(snapshots.size()) - 1;
  while (selected > 0 && !snapshots[selected].skippedReason.empty())
    --selected;
  // The step asked for (a link, --pass) or the user's choice, when this
  // run has it; a failed run that does not is read at its failure.
  const std::string &wanted = pendingStep.empty() ? chosenStep : pendingStep;
  int found = wanted.empty()
                  ? -1
                  : appState.run->findStep(wanted, appState.view.module);
  if (found >= 0)
    selected = found;
  else if (!appState.run->succeeded())
    selected = int(snapshots.size()) - 1;
  if (found >= 0 && !pendingStep.empty()) {
    chosenStep = pendingStep;
    showOutputsOf(found);
  }
  pendingStep.clear();
  appState.view.compareWith = -1;
  selectStep(selected);
  if (messageAwaitsCompile) {
    std::string with = appState.defines.empty()
                           ? "the file's klx.params"
                           : "-D " + definesText(appState.defines);
    bool ok = appState.run->succeeded();
    setMessage((ok ? "compiled with " : "the compile with ") + with +
                   (ok ? "" : " failed: see the Source pane"),
               !ok);
  }
}

void AppController::chooseStep(int index) {
  selectStep(index);
  if (!appState.run || appState.run->snapshots.empty())
    return;
  const Snapshot &chosen = appState.run->snapshots[appState.view.selected];
  chosenStep = chosen.label(appState.run->severalModules());
  showOutputsOf(appState.view.selected);
}

void AppController::showOutputsOf(int index) {
  // A step that runs on each gpu.module (a nested pass, a backend step,
  // one asked for as "NAME @MODULE"): its module is the one shown.
  if (llvm::StringRef module = appState.run->snapshots[index].moduleName();
      !module.empty())
    appState.view.module = module.str();
  // PTX and SASS are read in the Assembly pane, the IR pane shows the IR
  // they came from: bring the Assembly tab forward where it is one (Teach).
  if (appState.view.layout != LayoutName::Teach)
    return; // a pane of its own there: focus stays where the user is
  EmitKind kind = appState.run->snapshots[index].kind;
  if (kind == EmitKind::PTX || kind == EmitKind::SASS ||
      kind == EmitKind::AMDGCN)
    showPanel(Pane::Assembly);
}

void AppController::selectStep(int index) {
  if (!appState.run || appState.run->snapshots.empty()) {
    appState.view.selected = 0;
    return;
  }
  appState.view.selected =
      std::clamp(index, 0, int(appState.run->snapshots.size()) - 1);
}

void AppController::applyAll(CommandQueue &queue, double now) {
  for (const Command &command : queue.take())
    apply(command, now);
}

bool AppController::tick(double now) {
  bool changed = takeTrace();
  if (recompileAt >= 0 && now >= recompileAt) {
    recompileAt = -1;
    startCompile();
    changed = true;
  }
  if (std::optional<CompileResult> result = worker.poll()) {
    takeResult(std::move(*result));
    changed = true;
  }
  if (std::optional<CompileResult> result = compareWorker.poll()) {
    if (result->id == latestCompareId && appState.compare.active()) {
      appState.compare.run = std::move(result->run);
      appState.compare.timeline = std::move(result->timeline);
      ++appState.compare.serial;
      appState.compare.compiling = false;
    }
    changed = true;
  }
  if (changed)
    equalizeCompareWork();
  GpuStatus gpu = gpuWorker.status();
  if (gpu.availability != appState.gpu.availability ||
      gpu.running != appState.gpu.running) {
    appState.gpu = gpu;
    changed = true;
  }
  for (GpuRunRecord &record : gpuWorker.poll()) {
    appState.gpuRuns.push_back(std::move(record));
    changed = true;
  }
  SweepProgressState sweepProgress = sweepWorker.progress();
  if (sweepProgress.running != appState.sweep.progress.running ||
      sweepProgress.phase != appState.sweep.progress.phase) {
    appState.sweep.progress = sweepProgress;
    changed = true;
  }
  if (std::shared_ptr<const SweepResults> results = sweepWorker.take()) {
    appState.sweep.results = std::move(results);
    appState.sweep.source = "compiled here";
    ++appState.sweep.serial;
    changed = true;
  }
  bool compiling = worker.busy() || recompileAt >= 0;
  if (compiling != appState.compiling) {
    appState.compiling = compiling;
    changed = true;
  }
  CompileProgress progress = worker.progress();
  if (progress.step != appState.compilingStep) {
    appState.compilingStep = progress.step;
    appState.compilingIndex = progress.index;
    appState.compilingCount = progress.count;
    changed = true;
  }
  return changed;
}

double AppController::secondsUntilDeadline(double now) const {
  if (recompileAt < 0)
    return -1;
  return std::max(0.0, recompileAt - now);
}

bool AppController::busy() const {
  return worker.busy() || recompileAt >= 0 ||
         (appState.compare.active() && compareWorker.busy());
}
