//===- KernelLaunch.cpp - Launch facts from the lowered module ------------===//

#include "klx/Analysis/KernelLaunch.h"

#include "klx/Dialect/Klx/IR/KlxDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace klx;

unsigned LaunchParam::abiSlots() const {
  // A trace is its buffer and its capacity (events per warp).
  return kind == Kind::Memref  ? unsigned(3 + 2 * rank)
         : kind == Kind::Trace ? 2u
                               : 1u;
}

bool KernelLaunch::reducesRows() const {
  const llvm::json::Object *program =
      epilogue ? epilogue->getAsObject() : nullptr;
  const llvm::json::Array *values =
      program ? program->getArray("values") : nullptr;
  if (!values)
    return false;
  return llvm::any_of(*values, [](const llvm::json::Value &value) {
    const llvm::json::Object *v = value.getAsObject();
    return v && v->getString("op") == llvm::StringRef("reduce");
  });
}

llvm::StringRef klx::kindName(LaunchParam::Kind kind) {
  switch (kind) {
  case LaunchParam::Kind::TensorMap:
    return rt::bundlefile::kTensorMap;
  case LaunchParam::Kind::Memref:
    return rt::bundlefile::kMemref;
  case LaunchParam::Kind::Scalar:
    return rt::bundlefile::kScalar;
  case LaunchParam::Kind::Unused:
    return rt::bundlefile::kUnused;
  case LaunchParam::Kind::Trace:
    return rt::bundlefile::kTraceBuffer;
  }
  return "unknown";
}

namespace {

llvm::Error malformed(llvm::StringRef entry, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "kernel @" + entry + ": klx.launch " + what);
}

template <size_t N>
bool readArray(mlir::DictionaryAttr dict, llvm::StringRef key,
               std::array<int64_t, N> &out) {
  auto array = dict.getAs<mlir::DenseI64ArrayAttr>(key);
  if (!array || array.size() != int64_t(N))
    return false;
  for (size_t i = 0; i < N; ++i)
    out[i] = array[i];
  return true;
}

llvm::Expected<LaunchParam> readParam(llvm::StringRef entry,
                                      mlir::Attribute attr, size_t index) {
  auto dict = llvm::dyn_cast<mlir::DictionaryAttr>(attr);
  auto name = dict ? dict.getAs<mlir::StringAttr>("name") : nullptr;
  auto kind = dict ? dict.getAs<mlir::StringAttr>("kind") : nullptr;
  if (!name || !kind)
    return malformed(
        entry, llvm::formatv("params[{0}] needs a name and a kind", index));
  LaunchParam param;
  param.name = name.str();
  if (auto dtype = dict.getAs<mlir::StringAttr>("dtype"))
    param.dtype = dtype.str();
  llvm::StringRef k = kind.getValue();
  if (k == "tensor_map") {
    param.kind = LaunchParam::Kind::TensorMap;
    auto swizzle = dict.getAs<mlir::IntegerAttr>("swizzle");
    if (!readArray(dict, "box", param.box) || !swizzle || param.dtype.empty())
      return malformed(entry, "tensor map '" + param.name +
                                  "' needs box (rows, columns), swizzle and "
                                  "dtype");
    param.swizzleBytes = swizzle.getInt();
  } else if (k == "memref") {
    param.kind = LaunchParam::Kind::Memref;
    auto rank = dict.getAs<mlir::IntegerAttr>("rank");
    if (!rank || rank.getInt() < 1 || param.dtype.empty())
      return malformed(entry,
                       "memref '" + param.name + "' needs rank and dtype");
    param.rank = rank.getInt();
  } else if (k == "scalar") {
    param.kind = LaunchParam::Kind::Scalar;
  } else if (k == "unused") {
    param.kind = LaunchParam::Kind::Unused;
  } else if (k == "trace") {
    param.kind = LaunchParam::Kind::Trace;
    auto ctas = dict.getAs<mlir::IntegerAttr>("ctas");
    auto warps = dict.getAs<mlir::IntegerAttr>("warps");
    auto format = dict.getAs<mlir::IntegerAttr>("format");
    auto list = dict.getAs<mlir::DenseI64ArrayAttr>("cta_list");
    if (!ctas || !warps || !format)
      return malformed(entry, "trace '" + param.name +
                                  "' needs ctas, warps and format");
    param.traceCtas = ctas.getInt();
    param.traceWarps = warps.getInt();
    param.traceFormat = format.getInt();
    if (list)
      param.traceCtaList.assign(list.asArrayRef().begin(),
                                list.asArrayRef().end());
  } else {
    return malformed(entry,
                     "param '" + param.name + "' has unknown kind '" + k + "'");
  }
  return param;
}

/// An attribute of klx.launch as JSON: dictionaries, arrays, strings and
/// numbers, as a runner reads them.
llvm::json::Value toJson(mlir::Attribute attr) {
  if (auto dict = llvm::dyn_cast<mlir::DictionaryAttr>(attr)) {
    llvm::json::Object object;
    // Keys as owned strings: a StringRef key is kept as a reference, and
    // the context may go before the JSON does.
    for (mlir::NamedAttribute field : dict)
      object[field.getName().str()] = toJson(field.getValue());
    return object;
  }
  if (auto array = llvm::dyn_cast<mlir::ArrayAttr>(attr)) {
    llvm::json::Array items;
    for (mlir::Attribute item : array)
      items.push_back(toJson(item));
    return items;
  }
  if (auto ints = llvm::dyn_cast<mlir::DenseI64ArrayAttr>(attr))
    return llvm::json::Array(ints.asArrayRef());
  if (auto string = llvm::dyn_cast<mlir::StringAttr>(attr))
    return string.str();
  if (auto integer = llvm::dyn_cast<mlir::IntegerAttr>(attr))
    return integer.getInt();
  if (auto number = llvm::dyn_cast<mlir::FloatAttr>(attr))
    return number.getValueAsDouble();
  return nullptr;
}

std::string abiName(mlir::Type type) {
  if (llvm::isa<mlir::LLVM::LLVMPointerType>(type))
    return "ptr";
  if (auto integer = llvm::dyn_cast<mlir::IntegerType>(type))
    return "i" + std::to_string(integer.getWidth());
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

} // namespace

llvm::Expected<std::vector<KernelLaunch>>
klx::describeLaunches(mlir::ModuleOp module) {
  std::vector<KernelLaunch> launches;
  llvm::Error error = llvm::Error::success();
  module.walk([&](mlir::LLVM::LLVMFuncOp func) {
    auto attrs = func->getAttrOfType<mlir::DictionaryAttr>(kLaunchAttrName);
    if (!attrs || error)
      return;
    KernelLaunch launch;
    launch.entry = func.getSymName().str();
    auto fail = [&](llvm::Error e) { error = std::move(e); };
    auto shared = attrs.getAs<mlir::IntegerAttr>("dynamic_shared_memory");
    auto grid = attrs.getAs<mlir::StringAttr>("grid");
    auto dtype = attrs.getAs<mlir::StringAttr>("dtype");
    auto params = attrs.getAs<mlir::ArrayAttr>("params");
    if (auto problem = attrs.getAs<mlir::DictionaryAttr>("problem")) {
      auto kind = problem.getAs<mlir::StringAttr>("kind");
      auto index = problem.getAs<mlir::StringAttr>("index");
      auto offset = problem.getAs<mlir::IntegerAttr>("offset");
      auto add = problem.getAs<mlir::IntegerAttr>("add");
      if (!kind || kind.getValue() != "gather" || !index ||
          (index.getValue() != "idx" && index.getValue() != "i") || !offset ||
          !add || offset.getInt() < 0)
        return fail(malformed(launch.entry,
                              "problem must be {kind = \"gather\", index = "
                              "\"idx\" or \"i\", offset = N >= 0, add = N}"));
      launch.gather = GatherLaunch{index.getValue() == "idx", offset.getInt(),
                                   add.getInt()};
    }
    if (!readArray(attrs, "block", launch.block) || !shared || !grid || !params)
      return fail(malformed(launch.entry, "needs block, dynamic_shared_memory, "
                                          "grid and params"));
    if (!launch.gather && (!readArray(attrs, "tile", launch.tile) || !dtype))
      return fail(malformed(launch.entry, "of a gemm needs tile and dtype"));
    readArray(attrs, "cluster", launch.cluster);
    readArray(attrs, "cluster_tiles", launch.clusterTiles);
    launch.dynamicSharedBytes = shared.getInt();
    launch.grid = grid.str();
    launch.dtype = dtype ? dtype.str() : std::string("f32");
    unsigned slots = 0;
    for (auto [index, attr] : llvm::enumerate(params)) {
      llvm::Expected<LaunchParam> param = readParam(launch.entry, attr, index);
      if (!param)
        return fail(param.takeError());
      slots += param->abiSlots();
      launch.params.push_back(std::move(*param));
    }
    for (mlir::Type type : func.getFunctionType().getParams())
      launch.abi.push_back(abiName(type));
    if (mlir::Attribute epilogue = attrs.get("epilogue"))
      launch.epilogue = toJson(epilogue);
    if (slots != launch.abi.size())
      return fail(
          malformed(launch.entry,
                    llvm::formatv("describes {0} parameters once memrefs are "
                                  "flattened, but the lowered kernel takes {1}",
                                  slots, launch.abi.size())));
    launches.push_back(std::move(launch));
  });
  if (error)
    return std::move(error);
  return launches;
}
