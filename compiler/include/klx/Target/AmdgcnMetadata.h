//===- AmdgcnMetadata.h - Resource usage from AMDGCN assembly ---*- C++ -*-===//

#ifndef KLX_TARGET_AMDGCNMETADATA_H
#define KLX_TARGET_AMDGCNMETADATA_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace klx {

/// What the AMDGPU backend states about one kernel in the comments and
/// .amdhsa directives of its assembly.
struct AmdgcnKernelInfo {
  std::string name;
  unsigned vgprs = 0;
  unsigned agprs = 0;
  unsigned sgprs = 0;
  unsigned scratchBytes = 0;
  unsigned ldsBytes = 0;
  unsigned occupancy = 0; // waves per SIMD
  unsigned codeBytes = 0;
};

struct AmdgcnMetadata {
  std::vector<AmdgcnKernelInfo> kernels;
  const AmdgcnKernelInfo *find(llvm::StringRef name) const;
};

AmdgcnMetadata parseAmdgcnMetadata(llvm::StringRef assembly);

} // namespace klx

#endif // KLX_TARGET_AMDGCNMETADATA_H
