//===- SnapshotFacts.cpp - What the analyses read from one step -----------===//

#include "klx/Analysis/SnapshotFacts.h"

using namespace klx;

SnapshotFacts
klx::analyzeSnapshot(mlir::Operation *op,
                     const std::function<unsigned(mlir::Operation *)> &lineOf,
                     const ModelSize &size, const SourceNames *names) {
  SnapshotFacts facts;
  facts.roles = analyzeRoles(op, lineOf, names);
  facts.steps = analyzeSteps(op, lineOf);
  facts.protocols = buildProtocolModels(op, size, facts.protocolNotes, lineOf);
  for (sim::ProtocolModel &model :
       buildNvgpuProtocolModels(op, size, facts.protocolNotes, lineOf, names))
    facts.protocols.push_back(std::move(model));
  return facts;
}
