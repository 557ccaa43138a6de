//===- Target.h - The chips klx compiles for --------------------*- C++ -*-===//
//
// A target is a chip name as LLVM's NVPTX and AMDGPU backends know it
// ("sm_90a", "sm_80", "gfx942"): a hand-written kernel from MLIR's GPU tests
// or another compiler's dump compiles for the chip its file names. The klx
// tile dialect lowers for fewer (tileDialectTargets), which the dialect
// checks in a kernel's klx.target and the window offers. This lives in
// Support so that the dialect does not depend on the pipeline layer.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_SUPPORT_TARGET_H
#define KLX_SUPPORT_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace klx {

class Target;
std::optional<Target> parseTarget(llvm::StringRef name);

class Target {
public:
  /// The chips of the klx tile dialect (and the defaults: sm_90a for a
  /// file that names none).
  static const Target SM90a, GFX942, GFX950;

  llvm::StringRef chip() const { return name; }
  bool operator==(const Target &other) const { return name == other.name; }
  bool operator!=(const Target &other) const { return name != other.name; }

private:
  explicit Target(std::string chip) : name(std::move(chip)) {}
  friend std::optional<Target> parseTarget(llvm::StringRef name);
  std::string name;
};

inline const Target Target::SM90a{"sm_90a"};
inline const Target Target::GFX942{"gfx942"};
inline const Target Target::GFX950{"gfx950"};

llvm::StringRef targetName(const Target &target);
/// A chip LLVM's NVPTX backend (sm_XX, sm_XXa, sm_XXf) or AMDGPU backend
/// (gfxNNN) knows; nullopt for anything else.
std::optional<Target> parseTarget(llvm::StringRef name);
/// The chips the klx tile dialect lowers for: sm_90a, gfx942, gfx950.
llvm::ArrayRef<Target> tileDialectTargets();
bool isTileDialectTarget(const Target &target);
bool isNvidia(const Target &target);
bool isAmd(const Target &target);

} // namespace klx

#endif // KLX_SUPPORT_TARGET_H
