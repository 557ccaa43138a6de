//===- AmdgcnMetadata.cpp - Resource usage from AMDGCN assembly -----------===//
//
// With verbose assembly the AMDGPU backend ends each kernel with a
// "; Kernel info:" comment block ("; NumVgprs: 8", "; Occupancy: 8", ...).
// The kernel it describes is the last function declared with
// ".type NAME,@function".
//
//===----------------------------------------------------------------------===//

#include "klx/Target/AmdgcnMetadata.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace klx;

const AmdgcnKernelInfo *AmdgcnMetadata::find(llvm::StringRef name) const {
  for (const AmdgcnKernelInfo &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

/// The field of `info` that a "; Key: value" comment sets, if any.
static unsigned *fieldFor(llvm::StringRef key, AmdgcnKernelInfo &info) {
  return llvm::StringSwitch<unsigned *>(key)
      .Case("codeLenInByte", &info.codeBytes)
      .Case("TotalNumSgprs", &info.sgprs)
      .Case("NumVgprs", &info.vgprs)
      .Case("NumAgprs", &info.agprs)
      .Case("ScratchSize", &info.scratchBytes)
      .Case("LDSByteSize", &info.ldsBytes)
      .Case("Occupancy", &info.occupancy)
      .Default(nullptr);
}

AmdgcnMetadata klx::parseAmdgcnMetadata(llvm::StringRef assembly) {
  AmdgcnMetadata metadata;
  llvm::StringRef lastFunction;
  bool inKernelInfo = false;
  llvm::SmallVector<llvm::StringRef> lines;
  assembly.split(lines, '\n');
  for (llvm::StringRef rawLine : lines) {
    llvm::StringRef line = rawLine.trim();
    if (line.starts_with(".type") && line.ends_with("@function")) {
      lastFunction = line.drop_front(strlen(".type")).split(',').first.trim();
      inKernelInfo = false;
      continue;
    }
    if (line == "; Kernel info:") {
      metadata.kernels.push_back({});
      metadata.kernels.back().name = lastFunction.str();
      inKernelInfo = true;
      continue;
    }
    if (!inKernelInfo)
      continue;
    if (!line.starts_with(";")) {
      inKernelInfo = false;
      continue;
    }
    // "; NumVgprs: 8", "; codeLenInByte = 280",
    // "; LDSByteSize: 4224 bytes/workgroup (compile time only)".
    llvm::StringRef body = line.drop_front(1).trim();
    size_t split = body.find_first_of(":=");
    if (split == llvm::StringRef::npos)
      continue;
    unsigned *field =
        fieldFor(body.take_front(split).trim(), metadata.kernels.back());
    llvm::StringRef value = body.drop_front(split + 1).trim();
    value = value.take_while([](char c) { return c >= '0' && c <= '9'; });
    unsigned number;
    if (field && !value.getAsInteger(10, number))
      *field = number;
  }
  return metadata;
}
