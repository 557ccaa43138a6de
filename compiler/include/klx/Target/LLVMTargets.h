//===- LLVMTargets.h - The LLVM backends klx generates code with -*- C++
//-*-===//

#ifndef KLX_TARGET_LLVMTARGETS_H
#define KLX_TARGET_LLVMTARGETS_H

namespace klx {

/// Initialises the NVPTX and AMDGPU backends of LLVM; safe to call more than
/// once, from any thread.
void initializeLLVMTargets();

} // namespace klx

#endif // KLX_TARGET_LLVMTARGETS_H
