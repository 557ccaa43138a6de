# -*- Python -*-
# lit configuration: every sample under samples/ and every file under
# tests/lit/ is a test. Paths come from lit.site.cfg.py in the build folder.
# It is named klx.cfg.py, not lit.cfg.py, so that lit walking the repository
# does not take tests/lit for a suite of its own.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "klx"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]

# Tests live in two folders of the repository; lit walks the repository
# root and skips everything else.
config.test_source_root = config.klx_source_dir
config.test_exec_root = os.path.join(config.klx_obj_root, "tests", "lit")
config.excludes = [
    "app", "bench", "build", "build-asan", "build-fuzz", "compiler", "docs", "runtime", "scripts",
    "shaders", "fixtures", "gui", "unit", "Inputs", "device-in", ".git",
    ".ci",
]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.klx_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tools = ["klx", "klx-opt", "klx-run"]
llvm_config.add_tool_substitutions(tools, [config.klx_tools_dir])
config.substitutions.append(("%samples", os.path.join(config.klx_source_dir, "samples")))
config.substitutions.append(("%fixtures", os.path.join(config.klx_source_dir, "tests", "fixtures")))

# klx opens a window (KLX_BUILD_APP): its command line can be tested.
if config.klx_build_app.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("window")

# GPU-free machines have no nvdisasm; tests that need SASS say so.
if any(os.access(os.path.join(p, "nvdisasm"), os.X_OK)
       for p in os.environ.get("PATH", "").split(os.pathsep) + ["/usr/local/cuda/bin"]):
    config.available_features.add("nvdisasm")
