//===- KlxTypes.cpp - Tiles, accumulators and vectors, shaped or not ------===//
//
// `!klx.acc` is the schedule's accumulator tile; `!klx.acc<128x64xf32>`
// says its shape and element type. The same for operand tiles, register
// operands (rank 2) and row and column vectors (rank 1).
//
//===----------------------------------------------------------------------===//

#include "klx/Dialect/Klx/IR/KlxDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace klx;

namespace {

/// `<128x64xf32>` after the mnemonic, or nothing.
template <typename T> Type parseShaped(AsmParser &parser) {
  MLIRContext *context = parser.getContext();
  if (failed(parser.parseOptionalLess()))
    return T::get(context);
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type element;
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(element) || parser.parseGreater())
    return Type();
  return T::getChecked([&] { return parser.emitError(loc); }, context,
                       ArrayRef<int64_t>(shape), element);
}

void printShaped(AsmPrinter &printer, ArrayRef<int64_t> shape, Type element) {
  if (shape.empty())
    return;
  printer << '<';
  for (int64_t size : shape)
    printer << size << 'x';
  printer << element << '>';
}

LogicalResult verifyShaped(function_ref<InFlightDiagnostic()> emitError,
                           unsigned rank, ArrayRef<int64_t> shape,
                           Type element) {
  if (shape.empty() && !element)
    return success();
  if (shape.size() != rank)
    return emitError() << "expected " << rank << " dimension"
                       << (rank == 1 ? "" : "s") << ", got " << shape.size();
  if (llvm::any_of(shape, [](int64_t size) { return size <= 0; }))
    return emitError() << "dimensions must be positive";
  if (!element || !element.isIntOrFloat())
    return emitError() << "the element type must be an integer or a float, "
                          "got "
                       << element;
  return success();
}

} // namespace

#define KLX_SHAPED_TYPE(T)                                                     \
  Type T::parse(AsmParser &parser) { return parseShaped<T>(parser); }          \
  void T::print(AsmPrinter &printer) const {                                   \
    printShaped(printer, getShape(), getElementType());                        \
  }                                                                            \
  LogicalResult T::verify(function_ref<InFlightDiagnostic()> emitError,        \
                          ArrayRef<int64_t> shape, Type element) {             \
    return verifyShaped(emitError, kRank, shape, element);                     \
  }

KLX_SHAPED_TYPE(TileType)
KLX_SHAPED_TYPE(AccType)
KLX_SHAPED_TYPE(RowType)
KLX_SHAPED_TYPE(ColType)
KLX_SHAPED_TYPE(FragType)
