//===- SweepFormat.h - sweep.json, as klx writes it and klx-run reads it --===//
//
// The one place the sweep's file format is spelt: its version and member
// names. The runtime owns it (it builds alone, with no LLVM) and the
// compiler includes it, so the writer (klx/Pipeline/Sweep.h) and the
// reader (klx/Runtime/Sweep.h) cannot drift apart. std-only.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_SWEEPFORMAT_H
#define KLX_RUNTIME_SWEEPFORMAT_H

namespace klx::rt::sweepfile {

/// sweep.json's version: klx writes it, klx-run refuses others.
inline constexpr int kVersion = 1;
inline constexpr char kVersionKey[] = "klx_sweep";

// The document.
inline constexpr char kFile[] = "file";         // the swept source
inline constexpr char kAxes[] = "axes";         // [{name, values}]
inline constexpr char kSizes[] = "sizes";       // ["MxNxK"]; []: each own
inline constexpr char kVariants[] = "variants"; // [variant]
/// true for a ladder: the variants are rungs, each adding one technique
/// to the one before, shown in their order rather than ranked.
inline constexpr char kOrdered[] = "ordered";

// An axis.
inline constexpr char kAxisName[] = "name";
inline constexpr char kAxisValues[] = "values";

// A variant.
inline constexpr char kName[] = "name";              // "tile_n=256 stages=4"
inline constexpr char kBundle[] = "bundle";          // folder in DIR; "" none
inline constexpr char kDefines[] = "defines";        // {NAME: VALUE}
inline constexpr char kCompiled[] = "compiled";      // bool
inline constexpr char kError[] = "error";            // why it did not compile
inline constexpr char kBundleNote[] = "bundle_note"; // why no bundle
inline constexpr char kRegisters[] = "registers";    // ptxas -v
inline constexpr char kSpillStoreBytes[] = "spill_store_bytes";

/// The version member of what `klx-run --sweep --json` prints.
inline constexpr char kResultVersionKey[] = "klx_sweep_result";

} // namespace klx::rt::sweepfile

#endif // KLX_RUNTIME_SWEEPFORMAT_H
