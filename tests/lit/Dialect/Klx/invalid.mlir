// The verifiers of the klx ops: each malformed op gets a message at its line.
// RUN: klx-opt %s -split-input-file -verify-diagnostics

klx.kernel @shared_full_stages(%M: index) {
  %a = klx.pipeline stages(2) tx_bytes(16384) arrivals(256)
  // expected-error @+1 {{shares the full barriers of a pipeline with 2 stages, but has 3}}
  %b = klx.pipeline stages(3) tx_bytes(16384) arrivals(256) full_of %a
}

// -----

klx.kernel @shared_full_chain(%M: index) {
  %a = klx.pipeline stages(2) tx_bytes(16384) arrivals(256)
  %b = klx.pipeline stages(2) tx_bytes(16384) arrivals(256) full_of %a
  // expected-error @+1 {{full_of must name a pipeline with full barriers of its own}}
  %c = klx.pipeline stages(2) tx_bytes(16384) arrivals(256) full_of %b
}

// -----

klx.kernel @two_roles_one_warp(%M: index) {
  klx.warp_specialize {
    // expected-note @+1 {{that role is here}}
    klx.role "producer_a" producer warpgroups [2] warps [0] regs 40 {
    }
    // expected-error @+1 {{warp 0 of warpgroup 2 already runs role 'producer_a'}}
    klx.role "producer_b" producer warpgroups [2] warps [0] regs 40 {
    }
    klx.role "consumer" consumer warpgroups [0, 1] warps [0, 1, 2, 3] regs 232 {
    }
  }
}

// -----

klx.kernel @two_budgets_one_warpgroup(%M: index) {
  klx.warp_specialize {
    // expected-note @+1 {{that role is here}}
    klx.role "producer_a" producer warpgroups [2] warps [0] regs 40 {
    }
    // expected-error @+1 {{warpgroup 2 also runs role 'producer_a' with 40 registers; roles sharing a warpgroup need the same regs}}
    klx.role "producer_b" producer warpgroups [2] warps [1] regs 48 {
    }
    klx.role "consumer" consumer warpgroups [0, 1] warps [0, 1, 2, 3] regs 232 {
    }
  }
}
