//===- Artifacts.cpp - What the window saves to files ---------------------===//

#include "Artifacts.h"

#include "klx/Analysis/Protocol/TimelineFormat.h"
#include "klx/Export/Export.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace klx;
using namespace klx::app;

llvm::StringRef klx::app::artifactLabel(ArtifactKind kind) {
  switch (kind) {
  case ArtifactKind::StepIR:
    return "this step's IR";
  case ArtifactKind::Ptx:
    return "PTX";
  case ArtifactKind::Cubin:
    return "cubin";
  case ArtifactKind::Sass:
    return "SASS";
  case ArtifactKind::Amdgcn:
    return "AMDGCN";
  case ArtifactKind::Bundle:
    return "a bundle for klx-run";
  case ArtifactKind::Trace:
    return "the barrier timeline (Perfetto trace)";
  }
  return "";
}

namespace {

/// The gpu.module the Assembly pane shows.
const DeviceArtifacts *shownArtifacts(const AppState &state) {
  if (!state.run || state.run->artifacts.empty())
    return nullptr;
  return &state.run->artifacts[shownModule(*state.run, state.view)];
}

/// The step whose IR the IR pane shows.
const Snapshot *selectedStep(const AppState &state) {
  if (!state.run)
    return nullptr;
  int index = textStepFor(*state.run, state.view);
  return index < 0 ? nullptr : &state.run->snapshots[index];
}

/// The bytes `kind` is made of (all but the bundle, a folder), as the run
/// holds them.
llvm::StringRef contentsOf(const AppState &state, ArtifactKind kind) {
  const DeviceArtifacts *module = shownArtifacts(state);
  switch (kind) {
  case ArtifactKind::StepIR:
    return selectedStep(state) ? llvm::StringRef(selectedStep(state)->text)
                               : llvm::StringRef();
  case ArtifactKind::Ptx:
    return module ? llvm::StringRef(module->ptx) : llvm::StringRef();
  case ArtifactKind::Cubin:
    return module ? llvm::StringRef(module->cubin) : llvm::StringRef();
  case ArtifactKind::Sass:
    return module ? llvm::StringRef(module->sass) : llvm::StringRef();
  case ArtifactKind::Amdgcn:
    return module ? llvm::StringRef(module->amdgcn) : llvm::StringRef();
  case ArtifactKind::Bundle:
  case ArtifactKind::Trace:
    return llvm::StringRef();
  }
  return llvm::StringRef();
}

/// The timeline the Barrier timeline pane shows, or why there is none.
llvm::Expected<const TimelineView *> shownTimeline(const AppState &state) {
  auto none = [](const std::string &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s",
                                   why.c_str());
  };
  if (!state.timeline || state.timeline->views.empty())
    return none("no barrier timeline for this run");
  const TimelineView &view = state.timeline->pick(state.view.timelineStep);
  if (!view.unavailable.empty())
    return none(view.unavailable);
  if (view.step < 0 || size_t(view.step) >= state.run->snapshots.size())
    return none("no barrier timeline for this run");
  return &view;
}

/// The models the pane's timeline was read from, simulated as the pane
/// simulates them, as Chrome trace JSON.
llvm::Error writeTrace(const AppState &state, llvm::raw_ostream &out) {
  llvm::Expected<const TimelineView *> view = shownTimeline(state);
  if (!view)
    return view.takeError();
  const Snapshot &step = state.run->snapshots[(*view)->step];
  std::vector<sim::Timeline> timelines;
  for (const sim::ProtocolModel &model : step.facts.protocols)
    timelines.push_back(sim::simulate(model));
  sim::writeChromeTrace(out, step.facts.protocols, timelines);
  return llvm::Error::success();
}

/// The kind of file `kind` is, when it is one the pipeline emits (the
/// step's IR, a bundle and a trace are not one kind).
std::optional<EmitKind> emitKindOf(ArtifactKind kind) {
  switch (kind) {
  case ArtifactKind::Ptx:
    return EmitKind::PTX;
  case ArtifactKind::Cubin:
    return EmitKind::Cubin;
  case ArtifactKind::Sass:
    return EmitKind::SASS;
  case ArtifactKind::Amdgcn:
    return EmitKind::AMDGCN;
  case ArtifactKind::StepIR:
  case ArtifactKind::Bundle:
  case ArtifactKind::Trace:
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace

bool klx::app::targetMakes(Target target, ArtifactKind kind) {
  std::optional<EmitKind> emitted = emitKindOf(kind);
  return !emitted || targetProduces(target, *emitted);
}

std::string klx::app::artifactUnavailable(const AppState &state,
                                          ArtifactKind kind) {
  if (!state.run)
    return state.compiling ? "compiling" : "nothing compiled yet";
  if (kind == ArtifactKind::StepIR) {
    const Snapshot *step = selectedStep(state);
    return step && !step->text.empty() ? "" : "the step kept no text";
  }
  if (kind == ArtifactKind::Bundle) {
    llvm::Expected<BundleContents> bundle =
        makeBundle(*state.run, BundleRequest());
    if (bundle)
      return "";
    return llvm::toString(bundle.takeError());
  }
  if (kind == ArtifactKind::Trace) {
    llvm::Expected<const TimelineView *> view = shownTimeline(state);
    return view ? "" : llvm::toString(view.takeError());
  }
  if (!targetMakes(state.run->target, kind))
    return (isNvidia(state.run->target) ? "an NVIDIA run has no "
                                        : "an AMD run has no ") +
           artifactLabel(kind).str();
  if (!contentsOf(state, kind).empty())
    return "";
  if (kind == ArtifactKind::Sass && shownArtifacts(state) &&
      !shownArtifacts(state)->sassMissingReason.empty())
    return shownArtifacts(state)->sassMissingReason;
  return "the compile did not get that far";
}

std::string klx::app::suggestedArtifactPath(const AppState &state,
                                            ArtifactKind kind) {
  llvm::SmallString<256> path;
  llvm::StringRef file = state.source.path;
  if (!file.empty())
    path = llvm::sys::path::parent_path(file);
  else
    llvm::sys::fs::current_path(path);
  std::string stem =
      file.empty() ? std::string("kernel") : llvm::sys::path::stem(file).str();
  std::string name;
  switch (kind) {
  case ArtifactKind::StepIR:
    if (const Snapshot *step = selectedStep(state)) {
      // gemm.klx-to-nvgpu.mlir, gemm.llvm-opt.ll; gemm.ptx for the PTX.
      std::string extension = "." + emitKindExtension(step->kind).str();
      name = step->isIR() ? stem + "." + step->displayName() + extension
                          : stem + extension;
    } else {
      name = stem + ".mlir";
    }
    break;
  case ArtifactKind::Ptx:
  case ArtifactKind::Cubin:
  case ArtifactKind::Sass:
  case ArtifactKind::Amdgcn: // gemm.ptx, gemm.cubin, gemm.sass, gemm.s
    name = stem;
    // One file per gpu.module where there are several: two.square.ptx.
    if (state.run && state.run->artifacts.size() > 1)
      name += "." + shownArtifacts(state)->moduleName;
    name += "." + emitKindExtension(*emitKindOf(kind)).str();
    break;
  case ArtifactKind::Bundle:
    name = stem + "-bundle";
    break;
  case ArtifactKind::Trace:
    name = stem + ".timeline.json";
    break;
  }
  llvm::sys::path::append(path, name);
  return std::string(path);
}

llvm::Error klx::app::saveArtifact(const AppState &state, ArtifactKind kind,
                                   llvm::StringRef path) {
  if (std::string why = artifactUnavailable(state, kind); !why.empty())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "cannot save %s: %s",
        artifactLabel(kind).str().c_str(), why.c_str());
  if (path.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no file name given");
  if (kind == ArtifactKind::Bundle) {
    // The manifest says which variant it is, as klx export's does.
    BundleRequest request;
    request.defines = state.defines;
    llvm::Expected<BundleContents> bundle =
        exportBundle(*state.run, request, path);
    return bundle ? llvm::Error::success() : bundle.takeError();
  }
  std::error_code error;
  llvm::raw_fd_ostream out(path, error,
                           kind == ArtifactKind::Cubin
                               ? llvm::sys::fs::OF_None
                               : llvm::sys::fs::OF_Text);
  if (error)
    return llvm::createStringError(error, "cannot write %s: %s",
                                   path.str().c_str(), error.message().c_str());
  if (kind == ArtifactKind::Trace) {
    if (llvm::Error error = writeTrace(state, out))
      return error;
  } else {
    out << contentsOf(state, kind);
  }
  out.close();
  if (out.has_error())
    return llvm::createStringError(out.error(), "cannot write %s: %s",
                                   path.str().c_str(),
                                   out.error().message().c_str());
  return llvm::Error::success();
}
