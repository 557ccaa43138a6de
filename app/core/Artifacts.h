//===- Artifacts.h - What the window saves to files -------------*- C++ -*-===//
//
// The selected step's IR, the PTX, the cubin, the SASS, the AMDGCN, a
// bundle for klx-run and the barrier timeline as a Perfetto trace, written
// from the last finished compile as the command line would write them. Nothing
// here includes ImGui.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_CORE_ARTIFACTS_H
#define KLX_APP_CORE_ARTIFACTS_H

#include "AppState.h"
#include "ArtifactKind.h"

#include "llvm/Support/Error.h"

#include <string>

namespace klx::app {

/// "this step's IR", "PTX", ..., "a bundle": how menus name it.
llvm::StringRef artifactLabel(ArtifactKind kind);
/// Whether a run for `target` makes `kind` at all (no AMDGCN for an
/// NVIDIA target, no PTX, cubin or SASS for an AMD one).
bool targetMakes(Target target, ArtifactKind kind);
/// Why `kind` cannot be saved now (nothing compiled, no SASS without
/// nvdisasm, an AMD run has no PTX...); empty when it can.
std::string artifactUnavailable(const AppState &state, ArtifactKind kind);
/// Beside the kernel's file: `gemm.klx-to-nvgpu.mlir`, `gemm.ptx`,
/// `gemm-bundle/` (the current folder for an untitled kernel).
std::string suggestedArtifactPath(const AppState &state, ArtifactKind kind);
/// Writes `kind` to `path` (a folder for a bundle); the step's IR is what
/// the IR pane shows (irStepFor the selected step), the trace what the
/// Barrier timeline pane shows (the step it reads at, simulated as there,
/// as `klx timeline --trace` writes it).
llvm::Error saveArtifact(const AppState &state, ArtifactKind kind,
                         llvm::StringRef path);

} // namespace klx::app

#endif // KLX_APP_CORE_ARTIFACTS_H
