//===- ArtifactKind.h - What the window can save ----------------*- C++ -*-===//

#ifndef KLX_APP_CORE_ARTIFACTKIND_H
#define KLX_APP_CORE_ARTIFACTKIND_H

namespace klx::app {

enum class ArtifactKind { StepIR, Ptx, Cubin, Sass, Amdgcn, Bundle, Trace };

inline constexpr ArtifactKind kAllArtifacts[] = {
    ArtifactKind::StepIR, ArtifactKind::Ptx,    ArtifactKind::Cubin,
    ArtifactKind::Sass,   ArtifactKind::Amdgcn, ArtifactKind::Bundle,
    ArtifactKind::Trace};

} // namespace klx::app

#endif // KLX_APP_CORE_ARTIFACTKIND_H
