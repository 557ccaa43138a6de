//===- NvgpuRoles.h - Thread classes' traces as simulator roles -*- C++ -*-===//
//
// Private to Analysis/Protocol: NvgpuProtocol.cpp runs one thread of each
// class through a kernel; this turns their traces into the simulator's
// model: barrier groups named as the role tree names them, one role per
// class unrolled (every op at the ring position its slot and phase give),
// CTA and named barriers as groups of their own, shared memory as buffers.
//
// Phases are not in the IR, parities are: a role's wait on parity p means
// the next phase of that parity after the one it last waited for (the
// first wait on parity 1 of a fresh barrier is the "previous phase" that
// has already passed, as a producer's first acquire of an empty slot is).
// Its n-th arrival on a barrier is meant for phase n; a copy completes on
// the phase its role's last arrival (or expect_tx) there announced.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_LIB_ANALYSIS_PROTOCOL_NVGPUROLES_H
#define KLX_LIB_ANALYSIS_PROTOCOL_NVGPUROLES_H

#include "Analysis/Threads/ThreadInterpreter.h"
#include "klx/Analysis/Protocol/BarrierSim.h"
#include "klx/Analysis/RoleTree/RoleTree.h"

#include <map>

namespace klx::protocol {

struct ThreadClass {
  std::vector<unsigned> threads;
  threads::ThreadRun run; // its trace without the inits
  std::vector<threads::TraceEntry> inits;
};

/// "thread 0", "threads 1-127", "threads 0-3, 32-35 and 2 more ranges".
std::string describeThreads(const std::vector<unsigned> &threads);

/// The name a role of the model goes by: the role tree's for the threads
/// of `c` ("producer_a", "consumer") where one of its roles runs on
/// exactly the warps `c`'s threads are in, and no other class is named
/// alike; else its threads ("threads 0-127"), as for a kernel whose
/// threads split no warps between roles.
std::vector<std::string> roleNames(const std::vector<ThreadClass> &classes,
                                   const RoleTree *tree);

class RoleBuilder {
public:
  RoleBuilder(sim::ProtocolModel &model, threads::KernelContext &kernel)
      : model(model), kernel(kernel) {}

  /// Barrier groups with their init counts, from whichever classes ran the
  /// inits; a reason when a group is never initialised or its barriers
  /// expect different counts.
  std::optional<std::string> readInits(const std::vector<ThreadClass> &classes);
  sim::RoleModel role(const ThreadClass &c);
  /// The kernel's shared-memory regions as the model's buffers.
  void addBuffers();

  /// Threads that take part in bar.sync 0 (and a bar.sync of no count).
  int syncThreads = 0;

private:
  int syncGroup(int64_t id, int64_t count);

  sim::ProtocolModel &model;
  threads::KernelContext &kernel;
  std::map<std::pair<int64_t, int64_t>, int> syncGroups; // (id, count)
};

} // namespace klx::protocol

#endif // KLX_LIB_ANALYSIS_PROTOCOL_NVGPUROLES_H
