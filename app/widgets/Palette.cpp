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
