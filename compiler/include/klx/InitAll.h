//===- InitAll.h - The one registration point for klx's tools ---*- C++ -*-===//
//
// klx, klx-opt, the app and the tests include this header and link
// KlxInitAll, the top of the compiler's layers (docs/architecture.md): the
// dialects, passes and translations they register are the ones a compile
// registers (klx/Pipeline/Registration.h), so they accept the same IR; and
// the LLVM backends they generate code with (klx/Target/LLVMTargets.h).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_INITALL_H
#define KLX_INITALL_H

#include "klx/Pipeline/Registration.h"
#include "klx/Target/LLVMTargets.h"

#endif // KLX_INITALL_H
