// The form of MLIR's printf integration test: gpu.printf in a gpu.module
// kernel launched from the host with gpu.launch_func.
//
// RUN: klx compile %s --emit=ptx | FileCheck %s --check-prefix=PTX
// PTX: .extern .func  (.param .b32 func_retval0) vprintf
// PTX: .global .align 1 .b8 printfFormat_0[{{[0-9]+}}] = {72, 101, 108, 108, 111
// PTX: call.uni (retval0), vprintf
// RUN: klx compile %s --target=gfx942 | FileCheck %s --check-prefix=AMD
// AMD: __ockl_printf_begin

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @hello() kernel {
      %tx = gpu.thread_id x
      %asInt = arith.index_cast %tx : index to i32
      gpu.printf "Hello from %d\n", %asInt : i32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@hello blocks in (%c1, %c1, %c1)
                                      threads in (%c4, %c1, %c1)
    return
  }
}
