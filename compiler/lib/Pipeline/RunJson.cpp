//===- RunJson.cpp - A PipelineRun as JSON --------------------------------===//

#include "klx/Pipeline/RunJson.h"

using namespace klx;

llvm::StringRef klx::runStatusName(RunStatus status) {
  switch (status) {
  case RunStatus::Success:
    return "success";
  case RunStatus::InputError:
    return "input-error";
  case RunStatus::EnvironmentError:
    return "environment-error";
  case RunStatus::Stopped:
    return "stopped";
  }
  return "input-error";
}

void klx::writeDiagJson(llvm::json::OStream &json, const Diag &diag) {
  json.object([&] {
    json.attribute("severity", severityName(diag.severity));
    json.attribute("file", diag.loc.file);
    json.attribute("line", diag.loc.line);
    json.attribute("col", diag.loc.col);
    json.attribute("message", diag.message);
    json.attribute("step", diag.step);
    json.attributeArray("notes", [&] {
      for (const Diag &note : diag.notes)
        writeDiagJson(json, note);
    });
  });
}

static void writeSnapshotJson(llvm::json::OStream &json, size_t index,
                              const Snapshot &snapshot) {
  json.object([&] {
    json.attribute("index", static_cast<int64_t>(index));
    json.attribute("name", snapshot.displayName());
    json.attribute("pass", snapshot.name);
    json.attribute("arguments", snapshot.arguments);
    json.attribute("anchor", snapshot.anchor);
    json.attribute("kind", emitKindName(snapshot.kind));
    json.attribute("ms", snapshot.wallMs);
    json.attribute("changed", snapshot.changed);
    json.attribute("op_count", snapshot.opCount);
    json.attribute("failed", snapshot.failed);
    if (!snapshot.skippedReason.empty())
      json.attribute("skipped", snapshot.skippedReason);
    json.attributeArray("diagnostics", [&] {
      for (const Diag &diag : snapshot.diagnostics)
        writeDiagJson(json, diag);
    });
  });
}

static void writePtxasJson(llvm::json::OStream &json,
                           const PtxasReport &report) {
  json.attributeObject("ptxas", [&] {
    json.attribute("global_bytes", report.globalBytes);
    json.attributeArray("functions", [&] {
      for (const PtxasFunctionReport &f : report.functions)
        json.object([&] {
          json.attribute("name", f.name);
          json.attribute("arch", f.arch);
          json.attribute("registers", f.registers);
          json.attribute("barriers", f.barriers);
          json.attribute("shared_bytes", f.sharedBytes);
          json.attribute("constant_bytes", f.constantBytes);
          json.attribute("stack_frame_bytes", f.stackFrameBytes);
          json.attribute("spill_store_bytes", f.spillStoreBytes);
          json.attribute("spill_load_bytes", f.spillLoadBytes);
        });
    });
    json.attributeArray("messages", [&] {
      for (const PtxasMessage &m : report.messages)
        json.object([&] {
          json.attribute("severity", m.isError ? "error" : "warning");
          json.attribute("code", m.code);
          json.attribute("text", m.text);
        });
    });
  });
}

static void writeAmdgcnJson(llvm::json::OStream &json,
                            const AmdgcnMetadata &metadata) {
  json.attributeArray("amdgcn_kernels", [&] {
    for (const AmdgcnKernelInfo &k : metadata.kernels)
      json.object([&] {
        json.attribute("name", k.name);
        json.attribute("vgprs", k.vgprs);
        json.attribute("agprs", k.agprs);
        json.attribute("sgprs", k.sgprs);
        json.attribute("scratch_bytes", k.scratchBytes);
        json.attribute("lds_bytes", k.ldsBytes);
        json.attribute("occupancy", k.occupancy);
        json.attribute("code_bytes", k.codeBytes);
      });
  });
}

static void writeArtifactsJson(llvm::json::OStream &json,
                               const DeviceArtifacts &artifacts) {
  json.object([&] {
    json.attribute("module", artifacts.moduleName);
    if (artifacts.ptxas)
      writePtxasJson(json, *artifacts.ptxas);
    if (artifacts.amdgcnMetadata)
      writeAmdgcnJson(json, *artifacts.amdgcnMetadata);
    if (!artifacts.cubin.empty())
      json.attribute("cubin_bytes",
                     static_cast<int64_t>(artifacts.cubin.size()));
    if (!artifacts.sassMissingReason.empty())
      json.attribute("sass_missing_reason", artifacts.sassMissingReason);
    json.attributeObject("instruction_counts", [&] {
      for (const auto &kindCounts : artifacts.counts) {
        const InstructionCounts &counts = kindCounts.second;
        json.attributeObject(emitKindName(kindCounts.first), [&] {
          json.attribute("total", counts.total);
          json.attributeObject("classes", [&] {
            for (const InstructionClassCount &entry : counts.classes)
              json.attribute(entry.name, entry.count);
          });
        });
      }
    });
  });
}

void klx::writeRunJson(llvm::json::OStream &json, const PipelineRun &run,
                       llvm::function_ref<void(llvm::json::OStream &)> extra) {
  json.object([&] {
    json.attribute("file", run.fileName);
    json.attribute("target", targetName(run.target));
    json.attribute("status", runStatusName(run.status));
    json.attribute("total_ms", run.totalMs);
    json.attributeArray("steps", [&] {
      for (size_t i = 0; i < run.snapshots.size(); ++i)
        writeSnapshotJson(json, i, run.snapshots[i]);
    });
    json.attributeArray("diagnostics", [&] {
      for (const Diag &diag : run.diagnostics)
        writeDiagJson(json, diag);
    });
    json.attributeArray("artifacts", [&] {
      for (const DeviceArtifacts &artifacts : run.artifacts)
        writeArtifactsJson(json, artifacts);
    });
    if (extra)
      extra(json);
  });
}
