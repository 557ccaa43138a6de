//===- KlxInstructionOps.cpp - Instructions MLIR has no op for ------------===//
//
// klx.wgmma_register_a: wgmma.mma_async with A in registers. It implements
// NVVM's BasicPtxBuilderInterface, so convert-nvvm-to-llvm turns it into
// inline PTX the way it turns nvvm.wgmma.mma_async: the accumulators as
// outputs tied to the same registers as inputs.
//
//===----------------------------------------------------------------------===//

#include "klx/Dialect/Klx/IR/KlxOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace klx;

LogicalResult WgmmaRegisterAOp::verify() {
  int64_t n = getN();
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitOpError("n must be a multiple of 8 from 8 to 256, got ") << n;
  Type element = getElement();
  if (!element.isBF16() && !element.isF16())
    return emitOpError("element must be bf16 or f16, got ") << element;
  if (getA().size() != 4)
    return emitOpError("takes the thread's 4 registers of the 64 x 16 A "
                       "slice, got ")
           << getA().size();
  auto accumulators = cast<LLVM::LLVMStructType>(getInouts().getType());
  ArrayRef<Type> body = accumulators.getBody();
  if (int64_t(body.size()) != n / 2 ||
      !llvm::all_of(body, [](Type t) { return t.isF32(); }))
    return emitOpError("accumulates into the thread's n / 2 = ")
           << n / 2 << " f32 values, got " << accumulators;
  return success();
}

std::string WgmmaRegisterAOp::getPtx() {
  // Operands as the interface numbers them (getAsmValues): the n / 2
  // results, the same accumulators as tied inputs, then A's 4 registers,
  // B's descriptor and scale-d.
  int64_t outputs = getN() / 2;
  int64_t a = 2 * outputs, descriptor = a + 4, scale = descriptor + 1;
  std::string type = getElement().isBF16() ? "bf16" : "f16";
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << scale << ", 0;\n"
     << "wgmma.mma_async.sync.aligned.m64n" << getN() << "k16.f32." << type
     << "." << type << " {";
  for (int64_t i = 0; i < outputs; ++i)
    os << (i ? ", $" : "$") << i;
  os << "}, {$" << a << ", $" << a + 1 << ", $" << a + 2 << ", $" << a + 3
     << "}, $" << descriptor << ", p, 1, 1, 1;\n}\n";
  return ptx;
}

bool WgmmaRegisterAOp::getAsmValues(
    RewriterBase &rewriter,
    llvm::SmallVectorImpl<std::pair<Value, NVVM::PTXRegisterMod>> &values) {
  values.push_back({getResults(), NVVM::PTXRegisterMod::Write});
  values.push_back({getInouts(), NVVM::PTXRegisterMod::ReadWrite});
  for (Value a : getA())
    values.push_back({a, NVVM::PTXRegisterMod::Read});
  values.push_back({getDescriptorB(), NVVM::PTXRegisterMod::Read});
  // scale-d 1: accumulate into what the accumulators hold.
  values.push_back({makeConstantI32(rewriter, 1), NVVM::PTXRegisterMod::Read});
  return true;
}
