//===- ThreadElements.h - What a consumer thread holds of a tile -*- C++
//-*-===//
//
// Private to lib/Conversion/KlxToNVGPU: Compute.cpp lowers the ops that
// compute on accumulators onto what each consumer thread holds (the
// layout wgmma leaves, ThreadElements.cpp says it), and reads vectors
// (klx.load_vector) into it.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_CONVERSION_KLXTONVGPU_THREADELEMENTS_H
#define KLX_LIB_CONVERSION_KLXTONVGPU_THREADELEMENTS_H

#include "Lowering.h"

namespace klx::nvgpu_lowering {

/// Where this thread's elements lie in the tile: its first row (the
/// consumer's first row, + 16 warp + lane / 4) and first column (2 (lane %
/// 4)), as index.
struct ThreadElements {
  Value firstRow, firstColumn;
};
ThreadElements placeElements(Lowering &l, Location loc);

/// 64-row wgmma fragments a consumer holds.
int64_t fragmentsOf(const Lowering &l);

/// One element a thread holds of a value: fragment f and element e of it
/// for an accumulator; for a row vector element 2 f + h, for a column
/// vector 2 j + k.
struct Element {
  int64_t fragment = 0, index = 0;       // the value's element
  int64_t rowOffset = -1;                // past the thread's first row
  int64_t columnOffset = -1;             // past its first column
  int64_t rowSlot = -1, columnSlot = -1; // in a row and a column vector
};

enum class Kind { Acc, Row, Col, Other };
Kind kindOf(const Lowering &l, Type type);

/// Element `e` of fragment `f` of an accumulator: columns 8 j + k past
/// the thread's first, row half h.
Element accumulatorElement(int64_t f, int64_t e);

/// The elements this thread holds of a value of `kind`.
SmallVector<Element> elementsOf(const Lowering &l, Kind kind);

Value constantI64(OpBuilder &b, Location loc, int64_t v);

/// The element of `value` (of `kind`, as the thread holds it) at `at`.
Value elementAt(Lowering &l, Location loc, Kind kind, Value value,
                const Element &at);

/// `value` as a thread holds it: an accumulator as its LLVM struct.
Value asHeld(Lowering &l, Location loc, Value value);

/// The inverse of elementAt: a value of `kind` made of `values`, one per
/// element `at` (an accumulator cast back from its struct).
Value assembleHeld(Lowering &l, Location loc, Kind kind, ArrayRef<Element> at,
                   ArrayRef<Value> values);

/// Where a thread reads its rows or columns of a vector (klx.load_vector):
/// from `start`; `whole` when the tile's rows or columns all lie inside
/// the vector, so that reads need no clamping.
struct VectorSource {
  Value vector, start, length, last, whole;
  Kind kind;
};
VectorSource placeVectorRead(Lowering &l, LoadVectorOp load, Value vector);

/// The vector's elements `at` of this thread, zero past its end: where
/// the tile lies inside the vector (the common case, one test for all of
/// them), plain loads at constant offsets; else each read at an index
/// clamped into the vector and selected.
SmallVector<Value> readVectorElements(Lowering &l, Location loc,
                                      const VectorSource &v,
                                      ArrayRef<Element> at);

/// The whole of this thread's share of the vector, as a value: for a
/// vector that is carried or used by other than klx.map.
void lowerLoadVector(Lowering &l, LoadVectorOp load, Value vector);

} // namespace klx::nvgpu_lowering

#endif // KLX_LIB_CONVERSION_KLXTONVGPU_THREADELEMENTS_H
