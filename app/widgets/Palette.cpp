//===- Palette.cpp - Colours shared by the text widgets -------------------===//

#include "Palette.h"

#include "core/RoleView.h"

#include <iterator>

ImU32 klx::app::palette::token(TokenKind kind) {
  size_t index = size_t(kind);
  return index < std::size(kTokenColours) ? kTokenColours[index]
                                          : kTokenColours[0];
}

ImU32 klx::app::palette::roleSlot(int index) {
  if (index < 0)
    return IM_COL32(150, 150, 150, 255);
  static const ImU32 colours[] = {
      IM_COL32(230, 150, 60, 255),  IM_COL32(80, 160, 230, 255),
      IM_COL32(170, 120, 220, 255), IM_COL32(90, 190, 120, 255),
      IM_COL32(220, 100, 150, 255), IM_COL32(200, 200, 90, 255),
  };
  constexpr int count = sizeof(colours) / sizeof(colours[0]);
  return colours[((index % count) + count) % count];
}

ImU32 klx::app::palette::role(llvm::StringRef name) {
  return roleSlot(roleColourSlot(name));
}

ImU32 klx::app::palette::roleBackground(llvm::StringRef name) {
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(role(name));
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(c.x * 0.35f, c.y * 0.35f, c.z * 0.35f, 1.0f));
}
