//===- SweepFormat.h - sweep.json, as klx writes it and klx-run reads it --===//
//
// The one place the sweep's file format is spelt: its version and member
// names. The runtime owns it (it builds alone, with no LLVM) and the
// compiler includes it, so the writer (klx/Export/Sweep.h) and the
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
// What else klx writes of a variant (the Sweep pane reads it back).
inline constexpr char kSharedMemory[] = "shared_memory"; // bytes
inline constexpr char kSpillLoadBytes[] = "spill_load_bytes";
inline constexpr char kVgprs[] = "vgprs"; // AMD: the code object's
inline constexpr char kAgprs[] = "agprs";
inline constexpr char kSgprs[] = "sgprs";
inline constexpr char kLds[] = "lds";
inline constexpr char kRoles[] = "roles";         // "producer, consumer"
inline constexpr char kSimulated[] = "simulated"; // the verdict
/// The work it covers, the same for every variant: "4 tiles x 9 k steps".
inline constexpr char kSimulatedOver[] = "simulated_over";
/// klx-run --sweep's result: GPUs that left the sweep, and why.
inline constexpr char kNotes[] = "notes";

// What `klx sweep --json` adds to sweep.json's members: where the bundles
// are, and klx-run --sweep's result or why nothing ran.
inline constexpr char kBundles[] = "bundles";
inline constexpr char kRuns[] = "runs";
inline constexpr char kRunsError[] = "runs_error";
inline constexpr char kNotRun[] = "not_run";

// What `klx-run --sweep --json` prints: {version, file, device, ordered,
// sizes: [{size, rows: [row]}]}; a row is a variant at one size.
inline constexpr char kResultVersionKey[] = "klx_sweep_result";
inline constexpr int kResultVersion = 1;
inline constexpr char kDevice[] = "device";
inline constexpr char kSize[] = "size";
inline constexpr char kRows[] = "rows";
inline constexpr char kRank[] = "rank"; // null: did not pass
inline constexpr char kVariant[] = "variant";
inline constexpr char kStatus[] = "status";
inline constexpr char kProcesses[] = "processes";
inline constexpr char kPassed[] = "passed";
inline constexpr char kTflops[] = "tflops"; // medians; null: none
inline constexpr char kCublasTflops[] = "cublas_tflops";
inline constexpr char kRatio[] = "ratio";
inline constexpr char kRatioMin[] = "ratio_min";
inline constexpr char kRatioMax[] = "ratio_max";
inline constexpr char kCpuRelativeError[] = "cpu_relative_error";
inline constexpr char kCublasRelativeError[] = "cublas_relative_error";
inline constexpr char kMessage[] = "message";

} // namespace klx::rt::sweepfile

#endif // KLX_RUNTIME_SWEEPFORMAT_H
