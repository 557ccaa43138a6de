//===- Palette.cpp - Colours shared by the text widgets -------------------===//

#include "Palette.h"

ImU32 klx::app::palette::token(TokenKind kind) {
  switch (kind) {
  case TokenKind::Text:
    return IM_COL32(212, 212, 212, 255);
  case TokenKind::Comment:
    return IM_COL32(106, 153, 85, 255);
  case TokenKind::Keyword:
    return IM_COL32(86, 156, 214, 255);
  case TokenKind::Value:
    return IM_COL32(156, 220, 254, 255);
  case TokenKind::Symbol:
    return IM_COL32(220, 220, 170, 255);
  case TokenKind::Type:
    return IM_COL32(78, 201, 176, 255);
  case TokenKind::Attribute:
    return IM_COL32(197, 134, 192, 255);
  case TokenKind::Number:
    return IM_COL32(181, 206, 168, 255);
  case TokenKind::String:
    return IM_COL32(206, 145, 120, 255);
  case TokenKind::Label:
    return IM_COL32(215, 186, 125, 255);
  }
  return IM_COL32(212, 212, 212, 255);
}

ImU32 klx::app::palette::role(int index) {
  static const ImU32 colours[] = {
      IM_COL32(230, 150, 60, 255),  IM_COL32(80, 160, 230, 255),
      IM_COL32(170, 120, 220, 255), IM_COL32(90, 190, 120, 255),
      IM_COL32(220, 100, 150, 255), IM_COL32(200, 200, 90, 255),
  };
  constexpr int count = sizeof(colours) / sizeof(colours[0]);
  return colours[((index % count) + count) % count];
}

ImU32 klx::app::palette::roleBackground(int index) {
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(role(index));
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(c.x * 0.35f, c.y * 0.35f, c.z * 0.35f, 1.0f));
}
